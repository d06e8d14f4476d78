/* tbbuild/verify.c - independent re-derivation of every stored value from
 * one ply of look-ahead, and per-table statistics. */
#include "tbbuild.h"
#include "../tbfile/tbfile.h"
#include "tb_testing.h"
#include "../util/util.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const game *g;
    const game_tb_ops *ops;
    const game_tb_index *ix;
    int mat;
    const tb_file *f;
    tb_set *tables;
    pthread_mutex_t lock;
    long wrong;
    uint64_t first_wrong;
    tb_entry stored, derived;
    int failed;
    char err[512];
    /* progress: entries checked of this table, reported at most twice a second */
    const tb_verify_watch *watch;
    const char *name;
    uint64_t done, entries;
    double last;
    uint64_t base;           /* the first index of the segment under way */
    int saved_at_stop;       /* the progress at the stop is in the save file */
} checker;

/* A verification's progress, saved beside its table so that a stopped one
 * goes on from where it was: the header checksums of the table and of the
 * smaller tables its captures read name what was checked (other files
 * would give other answers), done the prefix of indices checked, and the
 * wrong entries found in it what the report says at the end. */
#define VERIFY_MAGIC "PNSVERI1"
#define VERIFY_SEGMENT ((uint64_t)1 << 22)  /* checked between two looks at the stop */
#define VERIFY_SAVE_SECONDS 60.0

typedef struct {
    char magic[8];
    uint64_t table, deps, entries, done, first_wrong;
    int64_t wrong;
    uint16_t stored, derived;
    uint32_t pad;
    uint64_t checksum;       /* of everything before it */
} verify_state;

/* The value a position must have given its children's stored values. */
static int derive(checker *c, const game_state *s, tb_entry *out)
{
    game_move moves[GAME_MAX_MOVES];
    int n = game_moves(c->g, s, moves), mover = game_to_move(c->g, s);
    int best_win = 0, any_draw = 0, worst_loss = 0;
    for (int m = 0; m < n; m++) {
        game_state t = *s;
        game_play(c->g, &t, moves[m]);
        tb_value v;
        int cm = c->ops->material_of(c->g, &t);
        if (cm < 0) {
            game_result r = game_result_of(c->g, &t);
            v.wdl = (tb_wdl)-game_outcome_for(r, mover);
            v.distance = 0;  /* seen from the child: the side to move there */
        } else if (cm == c->mat) {
            tb_entry e = tb_file_entry(c->f, c->ops->index(c->g, c->ix, &t));
            v = (tb_value){ .wdl = (tb_wdl)tb_entry_wdl(e), .distance = tb_entry_distance(e) };
        } else {
            int rc = tb_probe(c->tables, &t, &v, c->err, sizeof c->err);
            if (rc != 1) {
                if (rc == 0) {
                    char name[32];
                    c->ops->material_name(c->g, cm, name, sizeof name);
                    snprintf(c->err, sizeof c->err, "table %s is missing (needed by captures)", name);
                }
                return -1;
            }
        }
        if (v.wdl == TB_LOSS) {
            if (!best_win || v.distance + 1 < best_win)
                best_win = v.distance + 1;
        } else if (v.wdl == TB_DRAW) {
            any_draw = 1;
        } else if (v.distance + 1 > worst_loss) {
            worst_loss = v.distance + 1;
        }
    }
    *out = best_win ? TB_WIN_IN(best_win) : (any_draw || n == 0) ? 0 : TB_LOSS_IN(worst_loss);
    return 0;
}

static void check_range(void *ctx, uint64_t first, uint64_t end)
{
    checker *c = ctx;
    first += c->base;
    end += c->base;
    long wrong = 0;
    uint64_t where = 0;
    tb_entry stored = 0, derived = 0;
    for (uint64_t i = first; i < end && !c->failed; i++) {
        game_state s;
        c->ops->unindex(c->g, c->ix, c->mat, i, &s);
        uint64_t j = c->ops->index(c->g, c->ix, &s);
        tb_entry want, have = tb_file_entry(c->f, i);
        if (j != i) {
            want = tb_file_entry(c->f, j);  /* a twin holds its twin's value */
        } else if (derive(c, &s, &want) != 0) {
            pthread_mutex_lock(&c->lock);
            c->failed = 1;
            pthread_mutex_unlock(&c->lock);
            return;
        }
        if (want != have && wrong++ == 0) {
            where = i;
            stored = have;
            derived = want;
        }
    }
    pthread_mutex_lock(&c->lock);
    c->done += end - first;
    int watched = c->watch && c->watch->progress;
    double now = watched ? util_clock() : 0;
    if (watched && now - c->last >= 0.5) {
        c->last = now;
        c->watch->progress(c->name, c->done, c->entries, c->watch->ctx);
    }
    if (wrong && (!c->wrong || where < c->first_wrong)) {
        c->first_wrong = where;
        c->stored = stored;
        c->derived = derived;
    }
    c->wrong += wrong;
    pthread_mutex_unlock(&c->lock);
}

static void describe(tb_entry e, char *buf, size_t len)
{
    if (e == 0)
        snprintf(buf, len, "draw");
    else
        snprintf(buf, len, "%s %d", tb_entry_wdl(e) > 0 ? "win" : "loss", tb_entry_distance(e));
}

static void state_path(const char *table, char *buf, size_t len) { snprintf(buf, len, "%s.verify", table); }

/* The saved progress of c's table into c, when there is one for these
 * files; what else was there is said in the report and dropped.  0, or -1
 * when path is not a regular file (then it is neither read nor replaced). */
static int state_load(checker *c, const char *path, uint64_t table, uint64_t deps, FILE *report)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    FILE *in = S_ISREG(st.st_mode) ? util_fopen_regular(path) : NULL;
    if (!in) {
        if (report)
            fprintf(report, "%s: %s is not a regular file: its progress is not saved\n", c->name, path);
        return -1;
    }
    verify_state v;
    int read = fread(&v, sizeof v, 1, in) == 1 && fgetc(in) == EOF;
    fclose(in);
    int sound = read && memcmp(v.magic, VERIFY_MAGIC, 8) == 0 &&
                v.checksum == tb_checksum(&v, offsetof(verify_state, checksum)) && v.entries == c->entries &&
                v.done <= v.entries && v.wrong >= 0 && (uint64_t)v.wrong <= v.done;
    if (sound && v.table == table && v.deps == deps) {
        c->done = v.done;
        c->wrong = (long)v.wrong;
        c->first_wrong = v.first_wrong;
        c->stored = v.stored;
        c->derived = v.derived;
        if (report)
            fprintf(report, "%s: going on from its verification saved after %llu of %llu positions\n", c->name,
                    (unsigned long long)v.done, (unsigned long long)v.entries);
    } else if (report) {
        fprintf(report, "%s: its saved verification is %s; starting again\n", c->name,
                sound ? "of other files (the table or a smaller one it reads was rebuilt)" : "damaged");
    }
    return 0;
}

/* Saves c's progress to path: 0, or -1 with err. */
static int state_save(const checker *c, const char *path, uint64_t table, uint64_t deps, char *err, size_t errlen)
{
    verify_state v;
    memset(&v, 0, sizeof v);
    memcpy(v.magic, VERIFY_MAGIC, 8);
    v.table = table;
    v.deps = deps;
    v.entries = c->entries;
    v.done = c->done;
    v.wrong = c->wrong;
    v.first_wrong = c->first_wrong;
    v.stored = c->stored;
    v.derived = c->derived;
    v.checksum = tb_checksum(&v, offsetof(verify_state, checksum));
    util_file out;
    if (util_file_create(&out, path, "wb", err, errlen) != 0)
        return -1;
    return util_file_commit(&out, fwrite(&v, sizeof v, 1, out.f) == 1, err, errlen);
}

/* Checks the entries of c's table from c->done on, a segment at a time,
 * saving the progress to path (NULL: never) every minute and when stopped
 * (a save that fails is said in the report, and no other is tried): 0 when
 * it reached the end, 1 stopped, -1 with err. */
static int check_segments(checker *c, int threads, const char *path, uint64_t table, uint64_t deps, FILE *report,
                          char *err, size_t errlen)
{
    volatile int *stop = c->watch ? c->watch->stop : NULL;
    uint64_t stop_after = c->watch && c->watch->testing ? c->watch->testing->stop_after : 0;
    double last_save = util_clock();
    while (c->done < c->entries) {
        c->base = c->done;
        uint64_t n = c->entries - c->done < VERIFY_SEGMENT ? c->entries - c->done : VERIFY_SEGMENT;
        if (stop_after > c->done && stop_after - c->done < n)
            n = stop_after - c->done;  /* the test's stop falls exactly there */
        util_parallel(threads, n, 0, check_range, c);  /* adds n to c->done */
        if (c->failed)
            return util_error(err, errlen, "%s: %s", c->name, c->err);
        int stopped = (stop && *stop) || (stop_after && c->done >= stop_after);
        if (path && c->done < c->entries && (stopped || util_clock() - last_save >= VERIFY_SAVE_SECONDS)) {
            char why[600];
            if (state_save(c, path, table, deps, why, sizeof why) != 0) {
                if (report)
                    fprintf(report, "%s: its progress could not be saved (%s); going on without\n", c->name, why);
                path = NULL;
            } else {
                c->saved_at_stop = stopped;
            }
            last_save = util_clock();
        }
        if (stopped && c->done < c->entries)
            return 1;
    }
    if (path)
        unlink(path);
    return 0;
}

/* Checks the table of mat in dir against its children (tables holds the
 * smaller ones): the number of wrong entries, or -1 with err when a table it
 * needs is missing; *found is set when the file exists, *stopped when the
 * watch's stop ended it (its progress saved, its count partial). */
static long verify_one(const game *g, const char *dir, int mat, int threads, tb_set *tables, FILE *report,
                       const tb_verify_watch *watch, int *found, int *stopped, char *err, size_t errlen)
{
    *stopped = 0;
    const game_tb_ops *ops = game_tables(g);
    char path[4200], name[32];
    tb_file f;
    tb_path(g, dir, mat, path, sizeof path);
    ops->material_name(g, mat, name, sizeof name);
    *found = 0;
    if (tb_file_open(g, tb_set_index(tables), path, mat, 1, &f, err, errlen) < 0) {
        if (report)
            fprintf(report, "%s: BAD: %s\n", name, err);
        *found = 1;
        return 1;
    }
    if (!f.map)
        return 0;
    *found = 1;
    if (tb_file_decode_all(&f) != 0) {  /* children are looked up at random */
        if (report)
            fprintf(report, "%s: BAD: a compressed block does not decode (or out of memory)\n", name);
        tb_file_close(&f);
        return 1;
    }
    checker c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.ops = ops;
    c.ix = tb_index_need(tb_set_index(tables), mat);  /* made by tb_file_open */
    c.mat = mat;
    c.f = &f;
    c.tables = tables;
    c.watch = watch;
    c.name = name;
    c.entries = f.h.entries;
    pthread_mutex_init(&c.lock, NULL);
    uint64_t entries = f.h.entries, table = f.h.header_checksum, deps = tb_deps_id(g, dir, mat);
    char saved[4300];
    state_path(path, saved, sizeof saved);
    int own = state_load(&c, saved, table, deps, report) == 0;
    int rc = check_segments(&c, threads, own ? saved : NULL, table, deps, report, err, errlen);
    pthread_mutex_destroy(&c.lock);
    tb_file_close(&f);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        *stopped = 1;
        if (report)
            fprintf(report, "%s: stopped after %llu of %llu positions (%ld wrong so far)%s\n", name,
                    (unsigned long long)c.done, (unsigned long long)entries, c.wrong,
                    c.saved_at_stop                     ? ", saved; verify again to go on"
                    : own && access(saved, F_OK) == 0 ? ", not saved (an earlier save is kept: verify again to go on from it)"
                                                        : "");
        return c.wrong;
    }
    if (!report) {
        /* nothing to say */
    } else if (c.wrong) {
        char a[32], b[32];
        describe(c.stored, a, sizeof a);
        describe(c.derived, b, sizeof b);
        fprintf(report, "%s: %ld WRONG of %llu (first at index %llu: stored %s, children say %s)\n", name, c.wrong,
                (unsigned long long)entries, (unsigned long long)c.first_wrong, a, b);
    } else {
        fprintf(report, "%s: %llu positions, checksum ok, every value agrees with its children\n", name,
                (unsigned long long)entries);
        fflush(report);
    }
    return c.wrong;
}

long tb_verify(const game *g, const char *dir, int threads, FILE *report, char *err, size_t errlen)
{
    return tb_verify_watched(g, dir, threads, report, NULL, err, errlen);
}

long tb_verify_watched(const game *g, const char *dir, int threads, FILE *report, const tb_verify_watch *watch,
                       char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return util_error(err, errlen, "%s has no endgame tables", g->name);
    int mats[4096], count = ops->materials(g, 64, mats, 4096), found = 0;
    long total = 0;
    tb_set *tables = tb_open_lazy(g, dir);
    if (!tables)
        return util_error(err, errlen, "out of memory");
    tb_set_resident(tables);
    int stopped = 0;
    for (int i = 0; i < count && !stopped; i++) {
        int here;
        long wrong = verify_one(g, dir, mats[i], threads, tables, report, watch, &here, &stopped, err, errlen);
        if (wrong < 0) {
            tb_close(tables);
            return -1;
        }
        found += here;
        total += wrong;
    }
    tb_close(tables);
    if (!found && !total)
        return util_error(err, errlen, "no tables of %s in %s", g->name, dir);
    return total;
}

long tb_verify_table(const game *g, const char *dir, int mat, int threads, FILE *report, const tb_verify_watch *watch,
                     char *err, size_t errlen)
{
    tb_set *tables = tb_open_lazy(g, dir);
    if (!tables)
        return util_error(err, errlen, "out of memory");
    tb_set_resident(tables);
    int found, stopped;
    long wrong = verify_one(g, dir, mat, threads, tables, report, watch, &found, &stopped, err, errlen);
    tb_close(tables);
    if (wrong >= 0 && !found) {
        char path[4200];
        tb_path(g, dir, mat, path, sizeof path);
        return util_error(err, errlen, "%s: no such table", path);
    }
    return wrong;
}

long tb_verify_materials(const game *g, const char *dir, const int *mats, int n_mats, int threads, FILE *report,
                         char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return util_error(err, errlen, "%s has no endgame tables", g->name);
    /* checked deepest first */
    enum { CAP = 4096 };
    int want[CAP], n = tb_materials_with_deps(g, mats, n_mats, want, CAP);
    tb_set *tables = tb_open_fresh(g, dir);
    if (!tables)
        return util_error(err, errlen, "out of memory");
    tb_set_resident(tables);
    long total = 0;
    for (int i = n - 1; i >= 0 && total >= 0; i--) {
        int found, stopped;
        long wrong = verify_one(g, dir, want[i], threads, tables, report, NULL, &found, &stopped, err, errlen);
        if (wrong >= 0 && !found) {
            char name[32];
            ops->material_name(g, want[i], name, sizeof name);
            wrong = util_error(err, errlen, "table %s is missing", name);
        }
        total = wrong < 0 ? -1 : total + wrong;
    }
    tb_close(tables);
    return total;
}

/* Whether index i holds a symmetric image of a smaller index's state. */
/* Whether index i holds a symmetric image of a smaller index's state; its
 * state into *s. */
static int is_twin(const game *g, const game_tb_index *ix, int mat, uint64_t i, game_state *s)
{
    game_tables(g)->unindex(g, ix, mat, i, s);
    return game_tables(g)->index(g, ix, s) != i;
}

static int table_stats(const game *g, tb_index *x, const char *path, int mat, tb_stats *st, char *err, size_t errlen);

int tb_table_stats(const game *g, const char *dir, int mat, tb_stats *st, char *err, size_t errlen)
{
    char path[4200];
    tb_path(g, dir, mat, path, sizeof path);
    tb_index *x = tb_index_open(g, dir);
    if (!x)
        return util_error(err, errlen, "out of memory");
    int rc = table_stats(g, x, path, mat, st, err, errlen);
    tb_index_close(x);
    return rc;
}

static int table_stats(const game *g, tb_index *x, const char *path, int mat, tb_stats *st, char *err, size_t errlen)
{
    tb_file f;
    if (tb_file_open(g, x, path, mat, 1, &f, err, errlen) < 0)
        return -1;
    if (!f.map)
        return util_error(err, errlen, "%s: no such table", path);
    const game_tb_index *ix = tb_index_need(x, mat);
    memset(st, 0, sizeof *st);
    snprintf(st->material, sizeof st->material, "%s", f.h.material);
    st->positions = f.h.entries;
    st->wins = f.h.wins;
    st->draws = f.h.draws;
    st->losses = f.h.losses;
    st->max_distance = (int)f.h.max_distance;
    int longest = 0;
    for (uint64_t i = 0; i < f.h.entries; i++) {
        tb_entry e = tb_file_entry(&f, i);
        if (e == TB_ENTRY_BAD) {
            tb_file_close(&f);
            return util_error(err, errlen, "%s: a compressed block does not decode", path);
        }
        int wdl = tb_entry_wdl(e), distance = tb_entry_distance(e), d = distance > 255 ? 255 : distance;
        if (wdl > 0)
            st->win_at[d]++;
        else if (wdl < 0)
            st->loss_at[d]++;
        if (wdl > 0 && distance > longest)
            longest = distance;
    }
    /* again, for the longest wins alone: a twin check on every win would
     * cost an unindex each */
    for (uint64_t i = 0; longest && i < f.h.entries; i++) {
        tb_entry e = tb_file_entry(&f, i);
        game_state s;
        if (tb_entry_wdl(e) > 0 && tb_entry_distance(e) == longest && !is_twin(g, ix, mat, i, &s)) {
            st->longest_wins++;
            if (st->n_longest < TB_STATS_LONGEST) {
                st->longest_state[st->n_longest] = s;
                st->longest[st->n_longest++] = i;
            }
        }
    }
    unsigned char hash[TB_HASH_BYTES];
    int hashed = tb_file_hash(&f, hash) == 0;
    tb_file_close(&f);
    if (!hashed)
        return util_error(err, errlen, "%s: a compressed block does not decode", path);
    tb_hash_text(hash, st->values_hash);
    return 0;
}
