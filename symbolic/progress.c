/* symbolic/progress.c - a long run's state between two iterations, in one
 * file: a text header (the board, the start, the algorithm, the side under
 * way and how far it is, the series so far), then BuDDy's own text form of
 * each set the run needs to go on.  Written to a temporary name and
 * renamed: a run stopped at any point keeps the last save whole. */
#include "internal.h"
#include "../util/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "pnsolve bdd progress 2"  /* 2: algorithms 2 and 4 save White's run alone */

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

int sym_progress_save(const char *path, const sym_progress *g, char *err, size_t errlen)
{
    util_file out;
    if (util_file_create(&out, path, "w", err, errlen) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "%s\n", MAGIC);
    put_run(f, g);
    fprintf(f, "side %d step %d start %d bdds %d\n", g->side, g->step, g->start, g->nbdd);
    put_series(f, 1, &g->series[1]);
    put_series(f, 0, &g->series[0]);
    int ok = 1;
    for (int i = 0; i < g->nbdd && ok; i++)
        ok = bdd_save(f, g->bdd[i]) == 0;
    if (util_file_commit(&out, ok, err, errlen) != 0)
        return -1;
    return ok ? 0 : util_error(err, errlen, "%s: BuDDy could not write a set", path);
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
    if (!fgets(line, sizeof line, f) || strncmp(line, MAGIC "\n", sizeof MAGIC) != 0)
        util_error(err, errlen, "%s: not a saved bdd run", path);
    else if (!fgets(have, sizeof have, f) || strcmp(have, want) != 0)
        util_error(err, errlen, "%s: the save of another run (board, start or algorithm): remove it or save elsewhere",
                   path);
    else if (fscanf(f, "side %d step %d start %d bdds %d", &g->side, &g->step, &g->start, &g->nbdd) != 4 ||
             (g->side != 0 && g->side != 1) || g->nbdd < 0 || g->nbdd > SYM_PROGRESS_BDDS ||
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
    fclose(f);
    return rc;
}
