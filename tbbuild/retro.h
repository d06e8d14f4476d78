/* tbbuild/retro.h - private to tbbuild/: the retrograde analysis of one
 * table (retro.c), driven table by table by build.c. */
#ifndef PNSOLVE_TB_RETRO_H
#define PNSOLVE_TB_RETRO_H

#include "exchange.h"
#include "tbbuild.h"
#include "../tbfile/tbfile.h"

#include <Judy.h>
#include <pthread.h>

typedef struct tb_builder {
    const game *g;
    const game_tb_ops *ops;
    const game_tb_build_ops *fast;  /* game_tb_build(ops): its fast paths, read in the hot loops */
    const game_tb_index *ix;  /* the state indices of every table of the run (tb_index_need) */
    int mat, threads, ply;
    uint64_t n, words;
    int short_max;           /* longest distance in a cell's byte (<= 0: the most it holds); longer ones in val_long */
    uint8_t *c;              /* one byte per position (retro.c, "Cells") */
    Pvoid_t val_long;        /* JudyL: index -> tb_entry of a LONG_WIN / LONG_LOSS cell */
    /* pending[d]: 1 win, 2 loss, 3 both: some position's value is known to
     * be at distance d before any frontier reaches it (ply d scans for it). */
    uint8_t *pending;
    int max_pending;
    tb_set *smaller;
    uint64_t *in, *out;      /* the frontier bitmaps a pass reads (and clears) and sets */
    uint64_t resolved;       /* positions set in out by the pass */
    int owners;              /* of index ranges, one per thread (exchange.h) */
    tb_exchange *ex;
    const tb_ranks *ranks;   /* NULL: this process alone; else the ranks sharing the table */
    tb_part part;            /* the blocks of the index this process holds */
    uint64_t next_block;     /* the first owned frontier block no sender has claimed */
    uint64_t cursor[TB_MAX_OWNERS], cursor_end[TB_MAX_OWNERS];  /* each sender's words left in its block */
    pthread_mutex_t lock;
    int failed;
    int halted;              /* another rank stopped (across ranks) */
    char err[512];
    /* progress */
    const tb_build_options *opt;
    tb_progress prog;
    uint64_t done;
    double t0, last_report;
    double t_init, t_plies;        /* seconds in each phase of the last table */
    double ply_t0, last_ply;       /* when the ply under way began; how long the one before took (0: none) */
    double run_total, run_before;  /* positions in the whole run, before this table */
    /* saving between plies (retro_save.c) */
    const char *save_path;         /* NULL: never saved */
    uint64_t deps_id;              /* names the smaller tables the captures read */
    double last_save;
    int saved_ply;                 /* the ply of the last save, -1: none yet */
    int finish_ply;                /* a stop asked for waits for the ply's end, which is saved */
    int stop_said;                 /* that wait was logged */
} tb_builder;

/* Builds the values of table b->mat (b->n positions) in b->c: 0, 1 when
 * stopped (nothing kept), -1 with err. */
int tb_retro_build(tb_builder *b, char *err, size_t errlen);
/* The value of index i after tb_retro_build (ctx is the builder; across
 * ranks, i one of its own blocks). */
tb_entry tb_retro_value(const void *ctx, uint64_t i);
/* Across ranks, after tb_retro_build: rank 0 writes the table to path
 * (tb_file_write) with every rank's blocks sent to it in rounds, the others
 * send theirs; every rank calls it: 0 when written, -1 with err. */
int tb_retro_write_ranked(const tb_builder *b, const char *path, int compress, char *err, size_t errlen);
/* Saves b's state after ply b->ply (the cells, the frontiers wins and
 * losses that ply b->ply + 1 reads, the pending distances, the long
 * entries) to path through a temporary file: 0, or -1 with err. */
int tb_retro_save(const tb_builder *b, const uint64_t *wins, const uint64_t *losses, const char *path, char *err,
                  size_t errlen);
/* Reads a state saved for this table (b->g, b->prog.material, b->n,
 * b->short_max, b->deps_id) into the allocated cells and frontiers: 1
 * read (b->ply is its ply), 0 there is none, -1 with err (other table,
 * other smaller tables, damaged). */
int tb_retro_load(tb_builder *b, uint64_t *wins, uint64_t *losses, const char *path, char *err, size_t errlen);
/* Frees the cells and long distances of the table just built. */
void tb_retro_free(tb_builder *b);

#endif
