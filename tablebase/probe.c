/* tablebase/probe.c - the probing API: tables mapped on first use. */
#include "tb_internal.h"
#include "../util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int state;  /* 0 not tried, 1 loaded, 2 absent, 3 bad */
    tb_file f;
    char err[300];
    char hash[TB_HASH_HEX];  /* "" until asked for */
} slot;

struct tb_set {
    const game *g;
    tb_index *index;  /* the state indices its tables are read through */
    char dir[4096];
    pthread_mutex_t lock;
    int resident;  /* compressed tables are decoded whole when loaded: 1 into memory, 2 through a shared file */
    int hash_files;  /* tb_hash keeps each hash in "<table file>.b2" */
    unsigned cache_log2;  /* its probing threads' caches of decoded blocks (tb_set_cache_size) */
    slot *slots[TB_MAX_MATERIALS];
};

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

tb_set *tb_open(const game *g, const char *dir) { return open_set(g, dir, 1); }

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
    if (mat < 0 || mat >= TB_MAX_MATERIALS)
        return 0;
    slot *s = get_slot(t, mat);
    if (!s)
        return util_error(err, errlen, "out of memory");
    if (s->state == 3)
        return util_error(err, errlen, "%s", s->err);
    return s->state == 1;
}

int tb_probe(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen)
{
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
    *v = tb_decode(e);
    return 1;
}

int tb_probe_each(tb_set *t, const game_state *s, int n, tb_value *v, int *found, char *err, size_t errlen)
{
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
        v[from[j]] = tb_decode(e);
        found[from[j]] = 1;
    }
    return 0;
}

/* The value of the position after a move, for the player who made it. */
static int child_value(tb_set *t, const game_state *c, int mover, tb_value *v, char *err, size_t errlen)
{
    game_result r = game_result_of(t->g, c);
    if (r != GAME_ONGOING) {
        v->wdl = (tb_wdl)game_outcome_for(r, mover);
        v->distance = 0;
        return 1;
    }
    int rc = tb_probe(t, c, v, err, errlen);
    if (rc == 1 && game_to_move(t->g, c) != mover)
        v->wdl = (tb_wdl)-v->wdl;
    return rc;
}

/* A move's rank, lower first: wins by distance, draws, losses by distance
 * down, unknown last. */
static long move_rank(const tb_move_value *m)
{
    if (!m->found)
        return 3L << 40;
    return m->value.wdl == TB_WIN ? m->value.distance : m->value.wdl == TB_DRAW ? 1L << 40
                                                                                 : (2L << 40) - m->value.distance;
}

int tb_probe_moves(tb_set *t, const game_state *s, tb_move_value *out, char *err, size_t errlen)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(t->g, s, mv), mover = game_to_move(t->g, s);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(t->g, &c, mv[i]);
        tb_move_value *m = &out[i];
        m->move = mv[i];
        int rc = child_value(t, &c, mover, &m->value, err, errlen);
        if (rc < 0)
            return -1;
        m->found = rc == 1;
        if (m->found && m->value.wdl != TB_DRAW)
            m->value.distance++;  /* the move itself */
    }
    for (int i = 1; i < n; i++)  /* an insertion sort: stable, and a position has few moves */
        for (int j = i; j > 0 && move_rank(&out[j - 1]) > move_rank(&out[j]); j--) {
            tb_move_value x = out[j];
            out[j] = out[j - 1], out[j - 1] = x;
        }
    return n;
}

int tb_best_move(tb_set *t, const game_state *s, game_move *best, tb_value *v, char *err, size_t errlen)
{
    int rc = tb_probe(t, s, v, err, errlen);
    if (rc != 1)
        return rc;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(t->g, s, mv), mover = game_to_move(t->g, s);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(t->g, &c, mv[i]);
        tb_value cv;
        if ((rc = child_value(t, &c, mover, &cv, err, errlen)) != 1)
            return rc;
        /* the child's distance is one ply shorter than s's along a best move */
        if (cv.wdl == v->wdl && (v->wdl == TB_DRAW || cv.distance == v->distance - 1)) {
            *best = mv[i];
            return 1;
        }
    }
    return util_error(err, errlen, "the tables disagree with themselves: no move keeps the value of a state");
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

/* A hash file: its magic, the table file's header as it was hashed (its
 * checksums name the stored entries), the hash. */
#define HASH_FILE_MAGIC "PNTBHASH"
#define HASH_FILE_BYTES (8 + sizeof(tb_header) + TB_HASH_BYTES)

static void hash_file_path(const tb_set *t, int mat, char *path, size_t len)
{
    char table[4200];
    tb_path(t->g, t->dir, mat, table, sizeof table);
    snprintf(path, len, "%s.b2", table);
}

/* The hash kept beside table f into h: 0, or -1 when there is none for
 * this very file. */
static int hash_file_read(const tb_set *t, int mat, const tb_file *f, unsigned char h[TB_HASH_BYTES])
{
    char path[4300];
    hash_file_path(t, mat, path, sizeof path);
    FILE *in = util_open_input(path, 0, NULL, 0);
    if (!in)
        return -1;
    unsigned char b[HASH_FILE_BYTES + 1];
    size_t n = fread(b, 1, sizeof b, in);
    fclose(in);
    if (n != HASH_FILE_BYTES || memcmp(b, HASH_FILE_MAGIC, 8) != 0 || memcmp(b + 8, f->map, sizeof(tb_header)) != 0)
        return -1;
    memcpy(h, b + 8 + sizeof(tb_header), TB_HASH_BYTES);
    return 0;
}

/* Keeps h beside table f; where it cannot (a read-only directory), the
 * next run hashes the table again. */
static void hash_file_write(const tb_set *t, int mat, const tb_file *f, const unsigned char h[TB_HASH_BYTES])
{
    char path[4300];
    hash_file_path(t, mat, path, sizeof path);
    util_file out;
    if (util_file_create(&out, path, "wb", NULL, 0) != 0)
        return;
    int ok = fwrite(HASH_FILE_MAGIC, 1, 8, out.f) == 8 && fwrite(f->map, 1, sizeof(tb_header), out.f) == sizeof(tb_header) &&
             fwrite(h, 1, TB_HASH_BYTES, out.f) == TB_HASH_BYTES;
    util_file_commit(&out, ok, NULL, 0);
}

int tb_hash(tb_set *t, int mat, char hex[TB_HASH_HEX], char *err, size_t errlen)
{
    int rc = tb_load(t, mat, err, errlen);
    if (rc <= 0)
        return rc;
    slot *s = t->slots[mat];
    pthread_mutex_lock(&t->lock);
    int known = s->hash[0] != 0;
    pthread_mutex_unlock(&t->lock);
    if (!known) {
        /* outside the lock (a six-piece table takes half a minute), so that
         * tb_hash_ahead's threads hash their tables at once; a table two
         * threads ask for is hashed twice, to the same answer */
        unsigned char h[TB_HASH_BYTES];
        char text[TB_HASH_HEX];
        if (!t->hash_files || hash_file_read(t, mat, &s->f, h) != 0) {
            if (tb_file_hash(&s->f, h) != 0)
                return util_error(err, errlen, "table %s: a compressed block does not decode", s->f.h.material);
            if (t->hash_files)
                hash_file_write(t, mat, &s->f, h);
        }
        tb_hash_text(h, text);
        pthread_mutex_lock(&t->lock);
        memcpy(s->hash, text, TB_HASH_HEX);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_lock(&t->lock);
    memcpy(hex, s->hash, TB_HASH_HEX);
    pthread_mutex_unlock(&t->lock);
    return 1;
}

typedef struct {
    tb_set *t;
    const int *mats;
} hash_ahead;

static void hash_some(void *ctx, uint64_t first, uint64_t end)
{
    hash_ahead *a = ctx;
    char hex[TB_HASH_HEX], err[300];
    for (uint64_t i = first; i < end; i++)
        tb_hash(a->t, a->mats[i], hex, err, sizeof err);  /* its caller's tb_hash says what went wrong */
}

void tb_hash_ahead(tb_set *t, const int *mats, int n, int threads)
{
    hash_ahead a = { t, mats };
    if (n > 0)
        util_parallel(threads, (uint64_t)n, 1, hash_some, &a);
}
