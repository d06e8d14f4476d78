/* tbbuild/tbbuild.h - building the win/draw/loss tables by retrograde
 * analysis (on threads, or shared by MPI ranks through tb_ranks), their
 * compression, census and statistics, and their verification from one
 * ply of look-ahead.  Game-independent: it sees games only through
 * games/game.h and its game_tb_ops; it reads the smaller tables through
 * the probe side (tablebase.h) and writes the files through tbfile.h. */
#ifndef PNSOLVE_TBBUILD_H
#define PNSOLVE_TBBUILD_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"
#include "../tablebase/tablebase.h"

/* --- building ------------------------------------------------------------ */

/* Processes that build tables together (MPI ranks: cli/tb_mpi.c), seen only
 * through two collective calls that every rank makes in the same order.  A
 * table's index is cut into blocks dealt round-robin to the ranks; each
 * rank keeps its blocks' cells (about 1/size of the table), resolves its
 * frontier and sends the predecessor updates to their owners in batches
 * (transposition-driven scheduling); rank 0 writes the file. */
typedef enum { TB_SUM, TB_MAX, TB_MIN } tb_reduce_op;
typedef struct tb_ranks {
    int rank, size;
    void *ctx;
    /* Sends words send[at[p] .. at[p+1]) to each rank p (itself included) and
     * receives rank p's words for this one at (*recv)[from[p] .. from[p+1]),
     * *recv grown with realloc to *cap words as needed: 0, or -1. */
    int (*alltoall)(void *ctx, const uint64_t *send, const uint64_t *at, uint64_t **recv, uint64_t *cap,
                    uint64_t *from);
    /* Replaces v[0..n) by its elementwise op over every rank: 0, or -1. */
    int (*allreduce)(void *ctx, uint64_t *v, int n, tb_reduce_op op);
} tb_ranks;

typedef struct {
    const char *material;     /* name of the table being built */
    int table_no, tables;     /* 1-based position in this run */
    const char *phase;        /* "init", "plies", "write" */
    int ply;
    uint64_t done, size;      /* positions initialised or resolved so far */
    double seconds;           /* since the run started */
    double eta;               /* estimated seconds left in the run, < 0 unknown */
} tb_progress;

struct tb_testing;  /* private: tbbuild/tb_testing.h */

typedef struct {
    int threads;              /* <= 0: all cores */
    volatile int *stop;       /* set to stop (NULL ok): the table in progress stops
                                 within seconds, saved where its passes stopped when it
                                 saves (save_every; across ranks, a stop on any rank
                                 stops them all, each saving its share) */
    void (*progress)(const tb_progress *p, void *ctx);
    void *ctx;
    FILE *log;                /* one line per finished table, or NULL */
    const char *only;         /* NULL: every table; else only this material's and the
                                 ones its captures lead to */
    int compress;             /* 0: tables of 2^30 entries and more in compressed blocks,
                                 1: every table, -1: none */
    double save_every;        /* > 0: save a table's build between plies at most this
                                 often (seconds) beside its file, and go on from there
                                 when built again (across ranks: each rank's share and
                                 a manifest; the same ranks and threads resume); 0: never */
    size_t smaller_cache;     /* 0: the compressed smaller tables the captures read are
                                 decoded whole into memory; else probed compressed through
                                 a cache of decoded blocks of about this many bytes a thread */
    const tb_ranks *ranks;    /* NULL: this process alone; else the build is shared
                                 with the other ranks, each calling tb_build with the
                                 same arguments (threads: the fewest any rank has;
                                 saving between plies: off) */
    int64_t whole_below;      /* across ranks, tables of at most this many positions are dealt to the
                                 ranks whole, each built by one: 0 means 2^25, < 0 none
                                 (every table shared by all ranks) */
    const struct tb_testing *testing;  /* NULL; the tests' knobs (tbbuild/tb_testing.h) */
} tb_build_options;

/* Builds every table with at most max_pieces pieces that dir lacks, in
 * dependency order; each file is written to a temporary name and renamed when
 * complete.  0 on success, 1 when *o->stop ended it early (finished tables
 * are kept, the one in progress as its save), -1 with err on failure. */
int tb_build(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err, size_t errlen);

/* Rewrites every uncompressed table of g in dir in compressed blocks, each
 * through a temporary file renamed when complete (values unchanged, checked
 * before the rename); stops between tables when *stop is set.  The number
 * converted, or -1 with err; log gets one line per table (NULL ok). */
long tb_compress(const game *g, const char *dir, volatile int *stop, FILE *log, char *err, size_t errlen);

/* --- checking and statistics ---------------------------------------------- */

#define TB_STATS_LONGEST 16
typedef struct {
    char material[32];
    uint64_t positions, wins, draws, losses;
    int max_distance;
    uint64_t win_at[256], loss_at[256];  /* positions by distance (capped at 255) */
    /* The first TB_STATS_LONGEST entries (in index order, twins left out)
     * whose value is the table's longest win, and how many there are. */
    uint64_t longest[TB_STATS_LONGEST];
    game_state longest_state[TB_STATS_LONGEST];  /* the state of each */
    int n_longest;
    uint64_t longest_wins;
    char values_hash[TB_HASH_HEX];  /* tablebase.h's tb_hash's: BLAKE2b-256 of the values, a rebuild's identity */
} tb_stats;

/* The states of material mat counted by the game's census classes
 * (game_tb_ops.census) on threads threads (<= 0: every core) into counts:
 * 0, 1 if *stop ended it early (counts partial), -1 if g has no census. */
int tb_census(const game *g, int mat, int threads, volatile int *stop, uint64_t counts[GAME_CENSUS_MAX]);
/* Statistics of one table file: 0, or -1 with err naming the problem. */
int tb_table_stats(const game *g, const char *dir, int mat, tb_stats *st, char *err, size_t errlen);
/* Re-derives every value of every table in dir from one ply of look-ahead
 * and checks checksums; writes a report; returns the number of wrong
 * entries (0: all good) or -1 with err (e.g. a missing smaller table). */
long tb_verify(const game *g, const char *dir, int threads, FILE *report, char *err, size_t errlen);
/* A watcher of a long verification: progress(material, entries checked,
 * entries of the table, ctx), from the checking threads at most twice a
 * second (NULL: none); and its stop.  A table's verification saves how far
 * it got beside the table (".verify", every minute and when stopped) and
 * goes on from there when verified again, if the table and the smaller
 * tables it reads are the same files. */
typedef struct {
    void (*progress)(const char *material, uint64_t done, uint64_t entries, void *ctx);
    void *ctx;
    volatile int *stop;       /* set to stop: progress saved, the call returns (NULL ok) */
    const struct tb_testing *testing;  /* NULL; the tests' knobs (tbbuild/tb_testing.h) */
} tb_verify_watch;
/* tb_verify, watched (NULL: as tb_verify). */
long tb_verify_watched(const game *g, const char *dir, int threads, FILE *report, const tb_verify_watch *watch,
                       char *err, size_t errlen);
/* tb_verify for the table of mat alone (watched, or NULL): the smaller
 * tables it reads are checked by their checksums, not re-derived. */
long tb_verify_table(const game *g, const char *dir, int mat, int threads, FILE *report, const tb_verify_watch *watch,
                     char *err, size_t errlen);
/* tb_verify for the tables of mats[0..n) and every table they depend on
 * through captures, each once, with indices made from the rules
 * (tb_open_fresh); a missing table is an error; report may be NULL. */
long tb_verify_materials(const game *g, const char *dir, const int *mats, int n, int threads, FILE *report,
                         char *err, size_t errlen);

#endif
