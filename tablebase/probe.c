/* tablebase/probe.c - a set of tables opened, eagerly or as each is first
 * probed, and positions probed in it. */
#include "set.h"
#include "../util/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static tb_set *open_set(const game *g, const char *dir, int index_files)
{
    tb_set *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->g = g;
    if (!(t->index = tb_index_open(g, index_files ? dir : NULL))) {
        free(t);
        return NULL;
    }
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    pthread_mutex_init(&t->lock, NULL);
    t->cache_log2 = TB_CACHE_LOG2_DEFAULT;
    return t;
}

void tb_set_cache_size(tb_set *t, size_t bytes)
{
    unsigned log2 = tb_cache_log2_of(bytes);
    pthread_mutex_lock(&t->lock);
    t->cache_log2 = log2;
    for (int mat = 0; mat < TB_MAX_MATERIALS; mat++)
        if (t->slots[mat])  /* loaded already: its probes ask for the new size */
            __atomic_store_n(&t->slots[mat]->f.cache_log2, log2, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&t->lock);
}

tb_set *tb_open_lazy(const game *g, const char *dir) { return open_set(g, dir, 1); }

static slot *get_slot(tb_set *t, int mat);

/* Maps every table file of t's game in t's directory (get_slot): the
 * number found, or -1 with err naming the first bad one. */
static int open_every_table(tb_set *t, char *err, size_t errlen)
{
    DIR *d = opendir(t->dir);
    if (!d)
        return util_error(err, errlen, "no table directory '%s' (%s)", t->dir, util_open_why(errno));
    int found = 0, rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        int mat = tb_path_material(t->g, e->d_name);
        if (mat < 0)
            continue;  /* not a table of this game's, or its material not canonical */
        slot *s = get_slot(t, mat);
        if (!s)
            rc = util_error(err, errlen, "out of memory");
        else if (s->state == 3)
            rc = util_error(err, errlen, "%s", s->err);
        else if (s->state == 1 && !tb_index_need(t->index, mat))
            rc = util_error(err, errlen, "out of memory (the state index of %s)", e->d_name);
        else
            found += s->state == 1;
    }
    closedir(d);
    return rc < 0 ? -1 : found;
}

tb_set *tb_open(const game *g, const char *dir, char *err, size_t errlen)
{
    tb_set *t = open_set(g, dir, 1);
    if (!t) {
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    int found = 0;
    if (!game_tables(g) && game_has_layers(g)) {
        if (!(t->layers = tb_layers_open(g, dir, err, errlen)))
            found = -1;
        else
            found = 1;
    } else if (!game_tables(g)) {
        util_error(err, errlen, "%s has no tables", g->name);
        found = -1;
    } else if ((found = open_every_table(t, err, errlen)) == 0) {
        util_error(err, errlen, "no table of %s in '%s' (pnsolve tb build %s --dir %s)", g->name, dir, g->name, dir);
    }
    if (found <= 0) {
        tb_close(t);
        return NULL;
    }
    return t;
}

tb_set *tb_open_fresh(const game *g, const char *dir) { return open_set(g, dir, 0); }

tb_index *tb_set_index(tb_set *t) { return t->index; }

void tb_set_resident(tb_set *t) { t->resident = 1; }

void tb_set_resident_shared(tb_set *t) { t->resident = 2; }

void tb_set_hash_files(tb_set *t) { t->hash_files = 1; }

void tb_close(tb_set *t)
{
    if (!t)
        return;
    for (int i = 0; i < TB_MAX_MATERIALS; i++)
        if (t->slots[i]) {
            tb_file_close(&t->slots[i]->f);
            free(t->slots[i]);
        }
    tb_index_close(t->index);
    tb_layers_close(t->layers);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void tb_release_others(tb_set *t, const int *keep, int n)
{
    for (int i = 0; i < TB_MAX_MATERIALS; i++) {
        int kept = 0;
        for (int k = 0; k < n && !kept; k++)
            kept = keep[k] == i;
        if (t->slots[i] && !kept) {
            tb_file_close(&t->slots[i]->f);
            free(t->slots[i]);
            t->slots[i] = NULL;
        }
    }
}

/* Double-checked: a published slot is never changed again. */
static slot *get_slot(tb_set *t, int mat)
{
    slot *s = __atomic_load_n(&t->slots[mat], __ATOMIC_ACQUIRE);
    if (s)
        return s;
    pthread_mutex_lock(&t->lock);
    s = t->slots[mat];
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        char path[4200];
        tb_path(t->g, t->dir, mat, path, sizeof path);
        int rc = tb_file_open(t->g, t->index, path, mat, 0, &s->f, s->err, sizeof s->err);
        s->f.cache_log2 = t->cache_log2;
        if (rc == 0 && s->f.map && t->resident &&
            (t->resident != 2 || tb_file_decode_shared(&s->f, path) != 0) && tb_file_decode_all(&s->f) != 0) {
            char name[32];
            game_tables(t->g)->material_name(t->g, mat, name, sizeof name);
            snprintf(s->err, sizeof s->err, "table %s: cannot decode it into memory (out of memory or a bad block)", name);
            rc = -1;
        }
        s->state = rc < 0 ? 3 : s->f.map ? 1 : 2;
        __atomic_store_n(&t->slots[mat], s, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&t->lock);
    return s;
}

int tb_withhold(tb_set *t, int mat)
{
    if (mat < 0 || mat >= TB_MAX_MATERIALS)
        return -1;
    pthread_mutex_lock(&t->lock);
    slot *s = t->slots[mat];
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        s->state = 2;
        __atomic_store_n(&t->slots[mat], s, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&t->lock);
    return s && s->state == 2 ? 0 : -1;
}

int tb_load(tb_set *t, int mat, char *err, size_t errlen)
{
    if (mat < 0 || mat >= TB_MAX_MATERIALS || !game_tables(t->g))
        return 0;
    slot *s = get_slot(t, mat);
    if (!s)
        return util_error(err, errlen, "out of memory");
    if (s->state == 3)
        return util_error(err, errlen, "%s", s->err);
    return s->state == 1;
}

int tb_set_scored(const tb_set *t) { return t->layers != NULL; }

/* The score of s in t's layers as a value: 1, or 0 when s is not there. */
static int probe_scored(const tb_set *t, const game_state *s, tb_value *v)
{
    int score;
    if (!tb_layers_probe(t->layers, s, &score))
        return 0;
    *v = tb_value_scored(score);
    return 1;
}

int tb_probe(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen)
{
    if (t->layers)
        return probe_scored(t, s, v);
    const game_tb_ops *ops = game_tables(t->g);
    if (!ops)
        return 0;
    int mat = ops->material_of(t->g, s);
    if (mat < 0)
        return 0;
    int rc = tb_load(t, mat, err, errlen);
    if (rc <= 0)
        return rc;
    char name[32];
    uint64_t i = ops->index(t->g, tb_index_need(t->index, mat), s);
    if (i >= t->slots[mat]->f.h.entries) {
        ops->material_name(t->g, mat, name, sizeof name);
        return util_error(err, errlen, "table %s has no entry for this state: the rules cannot produce it", name);
    }
    tb_entry e = tb_file_entry(&t->slots[mat]->f, i);
    if (e == TB_ENTRY_BAD) {
        ops->material_name(t->g, mat, name, sizeof name);
        return util_error(err, errlen, "table %s: a compressed block fails its checksum or does not decode (damaged file?)", name);
    }
    *v = tb_value_of(e);
    return 1;
}

int tb_probe_each(tb_set *t, const game_state *s, int n, tb_value *v, int *found, char *err, size_t errlen)
{
    if (t->layers) {
        for (int k = 0; k < n; k++)
            found[k] = probe_scored(t, &s[k], &v[k]);
        return 0;
    }
    const game_tb_ops *ops = game_tables(t->g);
    game_state with[GAME_MAX_MOVES];  /* index_many takes the states side by side */
    int mat[GAME_MAX_MOVES], from[GAME_MAX_MOVES], m = 0;
    for (int k = 0; k < n; k++) {
        found[k] = 0;
        int mk = ops ? ops->material_of(t->g, &s[k]) : -1;
        int rc = mk < 0 ? 0 : tb_load(t, mk, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 1)
            with[m] = s[k], mat[m] = mk, from[m++] = k;
    }
    if (m == 0)
        return 0;
    /* every index first, then their entries: the reads' misses overlap */
    uint64_t at[GAME_MAX_MOVES];
    const game_tb_build_ops *fast = game_tb_build(ops);
    if (fast->index_many)
        fast->index_many(t->g, tb_index_need(t->index, mat[0]), with, m, at);  /* every loaded table's index is made */
    else
        for (int j = 0; j < m; j++)
            at[j] = ops->index(t->g, tb_index_need(t->index, mat[j]), &with[j]);
    for (int j = 0; j < m; j++) {
        const tb_file *f = &t->slots[mat[j]]->f;
        if (at[j] >= f->h.entries)  /* tb_probe says which table */
            return tb_probe(t, &with[j], &v[from[j]], err, errlen) < 0 ? -1 : util_error(err, errlen, "a state has no table entry");
        if (f->data)
            __builtin_prefetch(f->data + at[j] * f->data_bytes);
    }
    for (int j = 0; j < m; j++) {
        tb_entry e = tb_file_entry(&t->slots[mat[j]]->f, at[j]);
        if (e == TB_ENTRY_BAD) {  /* tb_probe says which table */
            if (tb_probe(t, &with[j], &v[from[j]], err, errlen) < 0)
                return -1;
            return util_error(err, errlen, "a table entry does not decode");
        }
        v[from[j]] = tb_value_of(e);
        found[from[j]] = 1;
    }
    return 0;
}

int tb_probe_many(tb_set *t, const game_state *s, int n, tb_value *v, int *failed, char *err, size_t errlen)
{
    int found[GAME_MAX_MOVES];
    *failed = 0;
    if (tb_probe_each(t, s, n, v, found, err, errlen) != 0)
        return -1;
    for (int k = 0; k < n; k++)
        if (!found[k]) {
            *failed = k;
            return 0;
        }
    return 1;
}

