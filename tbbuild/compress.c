/* tbbuild/compress.c - `tb compress`: existing uncompressed tables
 * rewritten in compressed blocks (blocks.c). */
#include "tbbuild.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static tb_entry file_entry(const void *f, uint64_t i) { return tb_file_entry(f, i); }

/* The first index where two files' values differ, or entries if none. */
static uint64_t first_difference(const tb_file *a, const tb_file *b)
{
    for (uint64_t i = 0; i < a->h.entries; i++)
        if (tb_file_entry(a, i) != tb_file_entry(b, i))
            return i;
    return a->h.entries;
}

/* Compresses the table of mat: 1 done, 0 nothing to do, -1 with err. */
static int compress_one(const game *g, tb_index *x, const char *dir, int mat, FILE *log, char *err, size_t errlen)
{
    char path[4200], tmp[4300];
    tb_file raw, packed;
    tb_path(g, dir, mat, path, sizeof path);
    if (tb_file_open(g, x, path, mat, 1, &raw, err, errlen) < 0)
        return -1;
    if (!raw.map || raw.h.version != TB_VERSION_RAW) {
        tb_file_close(&raw);
        return 0;
    }
    /* Written beside it and read back before it replaces the original. */
    snprintf(tmp, sizeof tmp, "%s.packed", path);
    double t = util_clock();
    int rc = tb_file_write(g, tmp, mat, file_entry, &raw, raw.h.entries, 1, util_default_threads(), err, errlen);
    if (rc == 0 && (rc = tb_file_open(g, x, tmp, mat, 1, &packed, err, errlen)) == 0) {
        uint64_t at = first_difference(&raw, &packed);
        if (at != raw.h.entries)
            rc = util_error(err, errlen, "%s: the compressed copy differs at index %llu", path, (unsigned long long)at);
        tb_file_close(&packed);
    }
    size_t before = raw.map_len;
    tb_file_close(&raw);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = util_error(err, errlen, "%s: cannot replace it", path);
    if (rc != 0) {
        unlink(tmp);
        return -1;
    }
    struct stat st;
    if (log) {
        fprintf(log, "compressed %s: %zu -> %lld bytes, %.2f s\n", path, before,
                stat(path, &st) == 0 ? (long long)st.st_size : -1LL, util_clock() - t);
        fflush(log);
    }
    return 1;
}

long tb_compress(const game *g, const char *dir, volatile int *stop, FILE *log, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return util_error(err, errlen, "%s has no endgame tables", g->name);
    int lock = tb_dir_lock(dir, err, errlen);
    if (lock < 0)
        return -1;
    tb_dir_remove_leftovers(dir, log);
    tb_index *x = tb_index_open(g, dir);
    if (!x) {
        close(lock);
        return util_error(err, errlen, "out of memory");
    }
    int mats[4096], n = ops->materials(g, 64, mats, 4096);
    long done = 0;
    for (int i = 0; i < n && !(stop && *stop); i++) {
        int rc = compress_one(g, x, dir, mats[i], log, err, errlen);
        if (rc < 0) {
            done = -1;
            break;
        }
        done += rc;
    }
    tb_index_close(x);
    close(lock);
    return done;
}
