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
    double run_total, run_before;  /* positions in the whole run, before this table */
    /* saves (retro_save.c): between plies, and where a stop finds the passes */
    const char *save_path;         /* NULL: never saved */
    uint64_t deps_id;              /* names the smaller tables the captures read */
    double last_save;
    int save_on_stop;              /* a stop asked for is saved where the passes stopped */
    int at;                        /* where the passes are: RETRO_* (0: between plies) */
    uint64_t init_from;            /* the first pass goes on from this index (a save made in it) */
    uint64_t init_end;             /* the first index the first pass left undone when stopped */
    uint64_t ply_found;            /* positions the ply under way resolved before its save */
    char saved_at[80];             /* where the last save was made ("after ply 3"), "": none yet */
    unsigned save_gen;             /* across ranks: the generation of the last whole save (0: none) */
} tb_builder;

/* Where a build's passes are (tb_builder.at), as saves record it: a stop
 * inside the first pass or a ply's passes is saved there, and a build that
 * loads it goes on with the rest of that pass. */
enum { RETRO_PLY_END = 0, RETRO_INIT = 1, RETRO_WINS = 2, RETRO_LOSSES = 3 };

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
/* Saves b's state at b->at in ply b->ply (the cells, the three frontiers
 * wins, losses and new_wins, the pending distances, the long entries) to
 * path through a temporary file: 0, or -1 with err. */
int tb_retro_save(const tb_builder *b, const uint64_t *wins, const uint64_t *losses, const uint64_t *new_wins,
                  const char *path, char *err, size_t errlen);
/* Reads a state saved for this table (b->g, b->prog.material, b->n,
 * b->short_max, b->deps_id) into the allocated cells and frontiers: 1
 * read (b->ply, b->at and the rest as saved), 0 there is none, -1 with err
 * (other table, other smaller tables, damaged, an older format). */
int tb_retro_load(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path, char *err,
                  size_t errlen);
/* Across ranks, every rank calls them: each writes (reads) its own share
 * of the state beside path, and a manifest rank 0 writes once every share
 * is whole names the save (retro_save.c).  0 (load: 1 read, 0 none), or -1
 * with err. */
int tb_retro_save_ranked(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path,
                         char *err, size_t errlen);
int tb_retro_load_ranked(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path,
                         char *err, size_t errlen);
/* Removes the save at path once the table is written (across ranks: this
 * rank's share, and rank 0 the manifest). */
void tb_retro_save_remove(const tb_builder *b, const char *path);
/* Where b's passes are, in words for a log ("after ply 3", "in ply 4,
 * part way through its losses"), into buf. */
void tb_retro_where(const tb_builder *b, char *buf, size_t len);
/* Frees the cells and long distances of the table just built. */
void tb_retro_free(tb_builder *b);

#endif
