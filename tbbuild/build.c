/* tbbuild/build.c - building every missing table of a game, smaller
 * first: the order, the directory lock, tables copied from another variant,
 * small tables side by side (across ranks: dealt to the ranks whole, each
 * built by one); retro.c works out each table's values.
 */
#include "retro.h"
#include "tb_testing.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMALL_TABLE ((uint64_t)1 << 25)  /* built side by side, one per thread */

static int make_dir(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; ; p++) {
        char c = *p;
        if (c == '/' || c == 0) {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return util_error(err, errlen, "%s: %s", path, strerror(errno));
            *p = c;
        }
        if (!c)
            return 0;
    }
}

/* Whether a new table of n entries is written in compressed blocks. */
static int compressed(const tb_build_options *o, uint64_t n)
{
    return o->compress > 0 || (o->compress == 0 && n >= TB_COMPRESS_MIN);
}

static tb_entry file_entry(const void *f, uint64_t i) { return tb_file_entry(f, i); }

/* Across ranks: the outcome every rank agrees on from each one's rc (-1
 * failed, 1 stopped, 0 done), err set where another rank failed. */
static int agree_rc(const tb_ranks *r, int rc, char *err, size_t errlen)
{
    if (!r)
        return rc;
    uint64_t v = rc < 0 ? 2 : rc > 0 ? 1 : 0;
    if (r->allreduce(r->ctx, &v, 1, TB_MAX) != 0)
        return util_error(err, errlen, "the ranks cannot agree (transport failed)");
    if (v == 2 && rc >= 0)
        return util_error(err, errlen, "stopped: another rank failed (its message says why)");
    return v == 2 ? -1 : (int)v;
}

/* Rank 0's rc, the same on every rank (alone: rc). */
static int rank0_rc(const tb_ranks *r, int rc)
{
    if (!r)
        return rc;
    uint64_t v = r->rank == 0 ? (uint64_t)(rc + 1) : 0;
    return r->allreduce(r->ctx, &v, 1, TB_SUM) != 0 ? -1 : (int)v - 1;
}

/* Writes mat's table from the table of material src of game `other` when
 * dir holds that file (its checksums checked): 1 copied, 0 no such file,
 * -1 with err. */
static int copy_table(const game *g, const game *other, const char *dir, int src, int mat, const char *path,
                      int threads, char *err, size_t errlen)
{
    char from[4200];
    tb_file f;
    tb_path(other, dir, src, from, sizeof from);
    tb_index *ox = tb_index_open(other, NULL);
    int rc = ox ? tb_file_open(other, ox, from, src, 1, &f, err, errlen) : util_error(err, errlen, "out of memory");
    if (rc == 0 && f.map) {
        rc = tb_file_write(g, path, mat, file_entry, &f, f.h.entries, f.h.version == TB_VERSION_BLOCKS, threads, err,
                           errlen) == 0 ? 1 : -1;
        tb_file_close(&f);
    }
    tb_index_close(ox);
    return rc;
}

/* Writes mat's table as a copy of one whose values the game says agree
 * with it, when dir holds that file: the same material in another variant
 * (same_table_as), or another material of this game (same_values_as).  1
 * copied (what from says where), 0 nothing to copy from, -1 with err. */
static int copy_same_table(const game *g, const char *dir, int mat, const char *path, int threads, char *from,
                           size_t fromlen, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    const game_tb_build_ops *fast = game_tb_build(ops);
    const char *other_name = fast->same_table_as ? fast->same_table_as(g, mat) : NULL;
    if (other_name) {
        game *other = game_open(other_name, NULL, err, errlen);
        if (!other)
            return -1;
        int rc = copy_table(g, other, dir, mat, mat, path, threads, err, errlen);
        game_close(other);
        snprintf(from, fromlen, "the same table as in %s", other_name);
        if (rc != 0)
            return rc;
    }
    int src = fast->same_values_as ? fast->same_values_as(g, mat) : -1;
    if (src < 0)
        return 0;
    char name[32];
    ops->material_name(g, src, name, sizeof name);
    snprintf(from, fromlen, "the values of %s", name);
    return copy_table(g, g, dir, src, mat, path, threads, err, errlen);
}

/* Builds (or copies) the table of material mat, number no of the run's
 * `tables`, with builder b: 0, 1 when stopped, -1 with err. */
static int make_table(tb_builder *b, const char *dir, int mat, int no, int tables, char *err, size_t errlen)
{
    const game *g = b->g;
    const tb_build_options *o = b->opt;
    char name[32], path[4200];
    b->ops->material_name(g, mat, name, sizeof name);
    tb_path(g, dir, mat, path, sizeof path);
    b->mat = mat;
    b->n = b->ops->size(g, b->ix, mat);
    b->done = 0;
    b->prog = (tb_progress){ .material = name, .table_no = no, .tables = tables, .size = b->n };
    double t = util_clock(), t_write = 0;
    char from[64] = "";
    int rc = !b->ranks || b->ranks->rank == 0 ? copy_same_table(g, dir, mat, path, b->threads, from, sizeof from, err, errlen) : 0;
    /* the other ranks do as rank 0 did: build, or not where it copied */
    int agreed = rank0_rc(b->ranks, rc);
    rc = agreed < 0 && rc >= 0 ? util_error(err, errlen, "%s: rank 0 could not copy it (its message says why)", name)
                               : agreed;
    if (rc > 0 && from[0] && o->log) {
        fprintf(o->log, "copied %s: %llu positions, %s, %.2f s\n", name, (unsigned long long)b->n, from,
                util_clock() - t);
        fflush(o->log);
    }
    char save[4300];
    snprintf(save, sizeof save, "%s.save", path);
    uint64_t probes0, decodes0;
    tb_cache_counts(&probes0, &decodes0);
    if (rc == 0) {
        b->save_path = o->save_every > 0 ? save : NULL;
        b->deps_id = tb_deps_id(g, dir, mat);
        rc = tb_retro_build(b, err, errlen);
        if (rc == 0 && o->stop && *o->stop && !b->ranks)  /* across ranks, stops are agreed within */
            rc = 1;
        if (rc == 0) {
            b->prog.phase = "write";
            t_write = util_clock();
            rc = b->ranks ? tb_retro_write_ranked(b, path, compressed(o, b->n), err, errlen)
                          : tb_file_write(g, path, mat, tb_retro_value, b, b->n, compressed(o, b->n), b->threads, err, errlen);
            t_write = util_clock() - t_write;
        }
        if (rc == 0 && b->save_path)
            tb_retro_save_remove(b, save);
        tb_retro_free(b);
        if (rc > 0 && b->saved_at[0] && o->log)
            fprintf(o->log, "%s: stopped; its build saved %s goes on from there when built again\n", name,
                    b->saved_at);
        if (rc == 0 && o->log) {
            fprintf(o->log, "built %s: %llu positions, %d plies, %.2f s (init %.2f, plies %.2f, write %.2f)", name,
                    (unsigned long long)b->n, b->ply, util_clock() - t, b->t_init, b->t_plies, t_write);
            uint64_t probes, decodes;
            tb_cache_counts(&probes, &decodes);
            if (o->smaller_cache && probes > probes0)  /* the threads that probed have ended: counted */
                fprintf(o->log, "; smaller tables' blocks: %llu probes, %llu decoded (%.2f%% hits)",
                        (unsigned long long)(probes - probes0), (unsigned long long)(decodes - decodes0),
                        100.0 * (1.0 - (double)(decodes - decodes0) / (double)(probes - probes0)));
            fprintf(o->log, "\n");
            fflush(o->log);
        }
    } else if (rc > 0) {
        unlink(save);  /* a build begun before it could be copied */
        rc = 0;
    }
    b->run_before += (double)b->n;
    return rc;
}

/* Tables todo[first, end) built side by side, each by one thread. */
typedef struct {
    const tb_builder *proto;
    const char *dir;
    const int *todo;
    int first, tables;
    pthread_mutex_t lock;
    int rc;
    char err[512];
} table_group;

/* Builds tables todo[first + i] for i in [lo, hi), each on this thread. */
static void group_tables(void *arg, uint64_t lo, uint64_t hi)
{
    table_group *gr = arg;
    for (uint64_t k = lo; k < hi; k++) {
        int i = gr->first + (int)k;
        pthread_mutex_lock(&gr->lock);
        int go = gr->rc == 0;
        pthread_mutex_unlock(&gr->lock);
        if (!go)
            return;
        tb_builder b = *gr->proto;
        tb_build_options quiet = *b.opt;
        quiet.progress = NULL;  /* one bar per finished table, below */
        b.opt = &quiet;
        b.threads = 1;
        pthread_mutex_init(&b.lock, NULL);
        char err[512], name[32];
        int rc = make_table(&b, gr->dir, gr->todo[i], i + 1, gr->tables, err, sizeof err);
        pthread_mutex_lock(&gr->lock);
        if (rc != 0 && gr->rc == 0) {
            gr->rc = rc;
            snprintf(gr->err, sizeof gr->err, "%s", rc < 0 ? err : "");
        } else if (rc == 0 && gr->proto->opt->progress) {
            b.ops->material_name(b.g, gr->todo[i], name, sizeof name);
            tb_progress p = { .material = name, .table_no = i + 1, .tables = gr->tables, .phase = "write",
                              .done = b.n, .size = b.n, .seconds = util_clock() - b.t0, .eta = -1 };
            gr->proto->opt->progress(&p, gr->proto->opt->ctx);
        }
        pthread_mutex_unlock(&gr->lock);
        pthread_mutex_destroy(&b.lock);
    }
}

/* Across ranks: tables todo[first, end) dealt to the ranks, each built
 * whole by one rank on its threads. */
static int make_dealt(tb_builder *b, const char *dir, const int *todo, int first, int end, int tables, char *err,
                      size_t errlen)
{
    tb_builder alone = *b;
    alone.ranks = NULL;
    pthread_mutex_init(&alone.lock, NULL);
    int rc = 0;
    for (int i = first + b->ranks->rank; i < end && rc == 0; i += b->ranks->size)
        rc = make_table(&alone, dir, todo[i], i + 1, tables, err, errlen);
    pthread_mutex_destroy(&alone.lock);
    for (int i = first; i < end; i++)
        b->run_before += (double)b->ops->size(b->g, b->ix, todo[i]);
    return agree_rc(b->ranks, rc, err, errlen);
}

static int make_group(tb_builder *b, const char *dir, const int *todo, int first, int end, int tables, char *err,
                      size_t errlen)
{
    table_group gr = { .proto = b, .dir = dir, .todo = todo, .first = first, .tables = tables };
    pthread_mutex_init(&gr.lock, NULL);
    util_parallel(b->threads, (uint64_t)(end - first), 1, group_tables, &gr);
    pthread_mutex_destroy(&gr.lock);
    for (int i = first; i < end; i++)
        b->run_before += (double)b->ops->size(b->g, b->ix, todo[i]);
    if (gr.rc < 0)
        snprintf(err, errlen, "%s", gr.err);
    return gr.rc;
}

static int build_locked(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err,
                        size_t errlen);

/* Whether mat's table is a copy of another of this game's (same_values_as). */
static int copy_of_another(const game *g, int mat)
{
    const game_tb_build_ops *fast = game_tb_build(game_tables(g));
    return fast->same_values_as && fast->same_values_as(g, mat) >= 0;
}

/* Puts the tables that copy another after the others with as many pieces
 * (in order otherwise): small tables are built side by side, and a copy
 * made beside the build of its source would find no file to copy. */
static void copies_last(const game *g, int *todo, int n)
{
    int out[4096];
    for (int i = 0; i < n;) {
        int j = i, k = 0, pieces = game_tables(g)->material_pieces(g, todo[i]);
        while (j < n && game_tables(g)->material_pieces(g, todo[j]) == pieces)
            j++;
        for (int pass = 0; pass < 2; pass++)
            for (int m = i; m < j; m++)
                if (copy_of_another(g, todo[m]) == pass)
                    out[k++] = todo[m];
        memcpy(todo + i, out, (size_t)k * sizeof *todo);
        i = j;
    }
}

/* Keeps of mats[0..n) the material named only and those its captures lead
 * to, directly or not; the new count, or -1 with err. */
static int keep_needed(const game *g, const char *only, int *mats, int n, char *err, size_t errlen)
{
    int want = game_tables(g)->material_parse(g, only), need[4096], listed = 0;
    for (int i = 0; i < n; i++)
        listed |= mats[i] == want;
    if (want < 0 || !listed)
        return util_error(err, errlen, "no table '%s' among those to build (a canonical material name within --pieces)", only);
    int nneed = tb_materials_with_deps(g, &want, 1, need, 4096), kept = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nneed; j++)
            if (mats[i] == need[j]) {
                mats[kept++] = mats[i];
                break;
            }
    return kept;
}

int tb_build(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return util_error(err, errlen, "%s has no endgame tables", g->name);
    if (agree_rc(o->ranks, make_dir(dir, err, errlen), err, errlen) != 0)
        return -1;
    /* One lock for all ranks, taken by rank 0 (a second lock on the same
     * machine would be refused by the first). */
    int lock = !o->ranks || o->ranks->rank == 0 ? tb_dir_lock(dir, err, errlen) : 0;
    if (agree_rc(o->ranks, lock < 0 ? -1 : 0, err, errlen) != 0) {
        if (lock >= 0 && o->ranks && o->ranks->rank == 0)
            close(lock);
        return -1;
    }
    if (!o->ranks || o->ranks->rank == 0)
        tb_dir_remove_leftovers(dir, o->log);
    int rc = build_locked(g, dir, max_pieces, o, err, errlen);
    if (!o->ranks || o->ranks->rank == 0)
        close(lock);
    return rc;
}

/* Moves a damaged table at path aside to path.damaged (kept for a look,
 * replacing an older one), so that it is built again: 0, or -1 with err. */
static int set_aside(const char *path, const char *why, FILE *log, char *err, size_t errlen)
{
    char aside[4300];
    snprintf(aside, sizeof aside, "%s.damaged", path);
    if (rename(path, aside) != 0)
        return util_error(err, errlen, "%s (it cannot be moved aside: %s)", why, strerror(errno));
    if (log) {
        fprintf(log, "%s; moved to %s, to be built again\n", why, aside);
        fflush(log);
    }
    return 0;
}

/* Of mats[0..count), those dir lacks into todo (their positions added to
 * *total): how many, or -1 with err (a file that is not a table of its
 * name, one too large).  A table whose bytes fail their checks is moved
 * aside and counted as lacking.  Rank 0 alone reads the files (they are
 * shared) and tells the others what it found. */
static int missing_tables(const game *g, const char *dir, tb_set *smaller, const game_tb_index *ix, const int *mats,
                          int count, const tb_build_options *o, int *todo, double *total, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    uint64_t lack[4096 / 64] = { 0 };  /* bit i: mats[i] is to be built */
    int rc = 0, reader = !o->ranks || o->ranks->rank == 0;
    for (int i = 0; i < count && rc == 0 && reader; i++) {
        char path[4200];
        tb_file f;
        tb_path(g, dir, mats[i], path, sizeof path);
        /* a table kept is checked whole: the ones built next read it */
        if (tb_file_open(g, tb_set_index(smaller), path, mats[i], 1, &f, err, errlen) < 0) {
            char why[600];
            snprintf(why, sizeof why, "%s", err);
            rc = f.damaged ? set_aside(path, why, o->log, err, errlen)
                           : util_error(err, errlen, "%s (remove it to build it again)", why);
            lack[i / 64] |= 1ULL << (i % 64);
        } else if (f.map) {
            tb_file_close(&f);
        } else {
            lack[i / 64] |= 1ULL << (i % 64);
        }
    }
    if (agree_rc(o->ranks, rc, err, errlen) != 0)
        return -1;
    if (o->ranks && o->ranks->allreduce(o->ranks->ctx, lack, (count + 63) / 64, TB_SUM) != 0)
        return util_error(err, errlen, "the ranks cannot agree (transport failed)");
    int ntodo = 0;
    for (int i = 0; i < count; i++) {
        if (!(lack[i / 64] >> (i % 64) & 1))
            continue;
        uint64_t size = ops->size(g, ix, mats[i]);
        if (size == 0) {
            char name[32];
            ops->material_name(g, mats[i], name, sizeof name);
            return util_error(err, errlen, "table %s cannot be indexed here (too large)", name);
        }
        todo[ntodo++] = mats[i];
        *total += (double)size;
    }
    return ntodo;
}

static int build_locked(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err,
                        size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    tb_set *smaller = tb_open_lazy(g, dir);
    if (!smaller)
        return util_error(err, errlen, "out of memory");
    if (o->smaller_cache)
        tb_set_cache_size(smaller, o->smaller_cache);  /* a rank's memory holds its share, not every table read */
    else
        tb_set_resident(smaller);
    int mats[4096];
    int count = ops->materials(g, max_pieces, mats, 4096);
    if (o->only && (count = keep_needed(g, o->only, mats, count, err, errlen)) < 0) {
        tb_close(smaller);
        return -1;
    }
    /* every table's state index, made or mapped now: the sizes need them;
     * across ranks rank 0 makes the files first and the others map them */
    const game_tb_index *ix = NULL;
    if (!o->ranks || o->ranks->rank == 0)
        ix = tb_index_needs(tb_set_index(smaller), mats, count);
    if (o->ranks && agree_rc(o->ranks, 0, err, errlen) == 0 && !ix)  /* rank 0 is done */
        ix = tb_index_needs(tb_set_index(smaller), mats, count);
    if (!ix)
        util_error(err, errlen, "out of memory for the state indices");
    if (agree_rc(o->ranks, ix ? 0 : -1, err, errlen) != 0) {
        tb_close(smaller);
        return -1;
    }
    /* Work out what is missing first, so progress can count it. */
    int todo[4096];
    double total = 0;
    int ntodo = missing_tables(g, dir, smaller, ix, mats, count, o, todo, &total, err, errlen);
    if (agree_rc(o->ranks, ntodo < 0 ? -1 : 0, err, errlen) != 0) {
        tb_close(smaller);
        return -1;
    }
    copies_last(g, todo, ntodo);
    tb_builder b;
    memset(&b, 0, sizeof b);
    b.g = g;
    b.ops = ops;
    b.fast = game_tb_build(ops);
    b.ix = ix;
    b.threads = o->threads > 0 ? o->threads : util_default_threads();
    b.ranks = o->ranks;
    if (b.ranks) {  /* the owners of a table's blocks are counted alike on every rank */
        uint64_t t = (uint64_t)b.threads;
        if (b.ranks->allreduce(b.ranks->ctx, &t, 1, TB_MIN) != 0) {
            tb_close(smaller);
            return util_error(err, errlen, "the ranks cannot agree (transport failed)");
        }
        b.threads = (int)t;
    }
    b.smaller = smaller;
    b.opt = o;
    int long_from = o->testing ? o->testing->long_from : 0;
    b.short_max = long_from > 1 ? long_from - 1 : 0;
    b.t0 = util_clock();
    b.run_total = total > 0 ? total : 1;
    pthread_mutex_init(&b.lock, NULL);
    int rc = 0;
    for (int i = 0; i < ntodo && rc == 0 && !(o->stop && *o->stop && !b.ranks);) {
        /* Small tables with as many pieces never read each other: they are
         * built side by side, one per thread (no thread waits at a ply's
         * barrier on a short frontier, no write contends), or across ranks
         * one per rank. */
        int j = i + 1;
        uint64_t small = b.ranks ? (o->whole_below ? (uint64_t)o->whole_below : SMALL_TABLE) : SMALL_TABLE;
        int deal = b.ranks && o->whole_below >= 0;
        if ((deal || (b.threads > 1 && !b.ranks)) && ops->size(g, ix, todo[i]) <= small)
            while (j < ntodo && ops->size(g, ix, todo[j]) <= small &&
                   ops->material_pieces(g, todo[j]) == ops->material_pieces(g, todo[i]) &&
                   copy_of_another(g, todo[j]) == copy_of_another(g, todo[i]))
                j++;
        /* Tables read only those their captures lead to; one decoded for
         * an earlier table would stay resident beside them (in the
         * ten-piece Ostle build, the eight-piece table: 0.7 GB). */
        int deps[4096], nd = 0, k = i;
        for (; k < j && nd <= 4096 - 16; k++)
            nd += ops->material_deps(g, todo[k], deps + nd);
        if (k == j)
            tb_release_others(b.smaller, deps, nd);
        rc = deal && j - i > 1 ? make_dealt(&b, dir, todo, i, j, ntodo, err, errlen)
             : j - i > 1          ? make_group(&b, dir, todo, i, j, ntodo, err, errlen)
                                  : make_table(&b, dir, todo[i], i + 1, ntodo, err, errlen);
        i = j;
    }
    pthread_mutex_destroy(&b.lock);
    tb_close(smaller);
    return rc < 0 ? -1 : rc > 0 || (o->stop && *o->stop && !b.ranks) ? 1 : 0;
}
