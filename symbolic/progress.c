/* symbolic/progress.c - a long run's state between two iterations, in one
 * file: a text header (the board, the start, the algorithm, the side under
 * way and how far it is, the series so far), then BuDDy's own text form of
 * each set the run needs to go on.  Written to a temporary name and
 * renamed: a run stopped at any point keeps the last save whole. */
#include "internal.h"
#include "../util/util.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* 2: algorithms 2 and 4 save White's run alone; 3: a last line "blake2b
 * HEX" over the bytes before it, checked before anything is taken up (a
 * header or a node line edited would resume to another answer) */
#define MAGIC "pnsolve bdd progress 3"
#define TRAILER_LEN (8 + 64 + 1)  /* "blake2b " HEX "\n" */

static void put_series(FILE *f, int side, const sym_series *s)
{
    fprintf(f, "series %d %d %d %.17g", side, s->iterations, s->peak_nodes, s->states);
    for (int i = 0; i < s->iterations && i < SYM_MAX_ITERATIONS; i++)
        fprintf(f, " %d", s->nodes_at[i]);
    fputc('\n', f);
}

static int get_series(FILE *f, int side, sym_series *s)
{
    int got;
    *s = (sym_series){ 0 };
    if (fscanf(f, " series %d %d %d %lg", &got, &s->iterations, &s->peak_nodes, &s->states) != 4 || got != side ||
        s->iterations < 0)
        return -1;
    for (int i = 0; i < s->iterations && i < SYM_MAX_ITERATIONS; i++)
        if (fscanf(f, "%d", &s->nodes_at[i]) != 1)
            return -1;
    return 0;
}

/* The part of the header that names the run: a save is taken up only by
 * the same run. */
static void put_run(FILE *f, const sym_progress *g)
{
    fprintf(f, "run %dx%d algo %d keep %d white %d board", g->w, g->h, g->algo, g->keep, g->white);
    for (int i = 0; i < g->w * g->h; i++)
        fprintf(f, " %d", g->board[i]);
    fputc('\n', f);
}

/* A stream that hashes what it passes on to the file under it. */
typedef struct {
    FILE *to;
    crypto_generichash_state st;
} hashing;

static ssize_t hashing_write(void *cookie, const char *buf, size_t len)
{
    hashing *h = cookie;
    crypto_generichash_update(&h->st, (const unsigned char *)buf, len);
    return fwrite(buf, 1, len, h->to) == len ? (ssize_t)len : -1;
}

static void hex_of(const unsigned char *d, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int sym_progress_save(const char *path, const sym_progress *g, char *err, size_t errlen)
{
    util_file out;
    if (util_file_create(&out, path, "w", err, errlen) != 0)
        return -1;
    hashing h = { .to = out.f };
    crypto_generichash_init(&h.st, NULL, 0, 32);
    FILE *f = fopencookie(&h, "w", (cookie_io_functions_t){ .write = hashing_write });
    if (!f)
        return util_file_commit(&out, 0, NULL, 0), util_error(err, errlen, "out of memory");
    fprintf(f, "%s\n", MAGIC);
    put_run(f, g);
    fprintf(f, "side %d step %d start %d bdds %d\n", g->side, g->step, g->start, g->nbdd);
    put_series(f, 1, &g->series[1]);
    put_series(f, 0, &g->series[0]);
    int ok = 1;
    for (int i = 0; i < g->nbdd && ok; i++)
        ok = bdd_save(f, g->bdd[i]) == 0;
    ok = fclose(f) == 0 && ok;
    unsigned char d[32];
    char hex[65];
    crypto_generichash_final(&h.st, d, sizeof d);
    hex_of(d, sizeof d, hex);
    ok = ok && fprintf(out.f, "blake2b %s\n", hex) == TRAILER_LEN;
    if (util_file_commit(&out, ok, err, errlen) != 0)
        return -1;
    return ok ? 0 : util_error(err, errlen, "%s: BuDDy could not write a set", path);
}

/* Whether f ends in a trailer whose hash is that of the bytes before it;
 * *body their length.  f is left at its start. */
static int checksum_holds(FILE *f, long *body)
{
    char tail[TRAILER_LEN + 1] = "", hex[65];
    if (fseek(f, 0, SEEK_END) != 0 || (*body = ftell(f) - TRAILER_LEN) < 0 || fseek(f, *body, SEEK_SET) != 0 ||
        fread(tail, 1, TRAILER_LEN, f) != TRAILER_LEN || strncmp(tail, "blake2b ", 8) != 0 || tail[TRAILER_LEN - 1] != '\n')
        return rewind(f), 0;
    rewind(f);
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    unsigned char buf[1 << 16], d[32];
    for (long left = *body; left > 0;) {
        size_t n = fread(buf, 1, left < (long)sizeof buf ? (size_t)left : sizeof buf, f);
        if (n == 0)
            return rewind(f), 0;
        crypto_generichash_update(&st, buf, n);
        left -= (long)n;
    }
    crypto_generichash_final(&st, d, sizeof d);
    hex_of(d, sizeof d, hex);
    rewind(f);
    return memcmp(tail + 8, hex, 64) == 0;
}

int sym_progress_load(const char *path, sym_progress *g, char *err, size_t errlen)
{
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    char line[200], want[1200], have[1200];
    /* the run it names, against this one */
    FILE *m = fmemopen(want, sizeof want, "w");
    if (!m) {
        fclose(f);
        return util_error(err, errlen, "out of memory");
    }
    put_run(m, g);
    fclose(m);
    int rc = -1;
    long body = 0;
    if (!fgets(line, sizeof line, f) || strncmp(line, "pnsolve bdd progress ", 21) != 0)
        util_error(err, errlen, "%s: not a saved bdd run", path);
    else if (strncmp(line, MAGIC "\n", sizeof MAGIC) != 0)
        util_error(err, errlen, "%s: a save of an older pnsolve, without a checksum: remove it to start again", path);
    else if (!checksum_holds(f, &body) || !fgets(line, sizeof line, f))
        util_error(err, errlen, "%s: damaged (its BLAKE2b is not the one its last line names)", path);
    else if (!fgets(have, sizeof have, f) || strcmp(have, want) != 0)
        util_error(err, errlen, "%s: the save of another run (board, start or algorithm): remove it or save elsewhere",
                   path);
    else if (fscanf(f, "side %d step %d start %d bdds %d", &g->side, &g->step, &g->start, &g->nbdd) != 4 ||
             (g->side != 0 && g->side != 1) || g->step < 0 || g->nbdd < 0 || g->nbdd > SYM_PROGRESS_BDDS ||
             get_series(f, 1, &g->series[1]) != 0 || get_series(f, 0, &g->series[0]) != 0)
        util_error(err, errlen, "%s: damaged header", path);
    else
        rc = 1;
    for (int i = 0; i < g->nbdd && rc == 1; i++) {
        g->bdd[i] = bddfalse;
        if (bdd_load(f, &g->bdd[i]) != 0) {
            for (int j = 0; j < i; j++)
                bdd_delref(g->bdd[j]);
            rc = util_error(err, errlen, "%s: set %d of %d damaged", path, i + 1, g->nbdd);
        } else {
            bdd_addref(g->bdd[i]);
        }
    }
    /* the sets end where the trailer begins: nothing unread between */
    if (rc == 1 && (fscanf(f, " ") != 0 || ftell(f) != body)) {
        for (int j = 0; j < g->nbdd; j++)
            bdd_delref(g->bdd[j]);
        rc = util_error(err, errlen, "%s: damaged (more after its sets)", path);
    }
    fclose(f);
    return rc;
}
