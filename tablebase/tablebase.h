/* tablebase/tablebase.h - endgame tables by retrograde analysis: build,
 * probe, verify, statistics.  Game-independent: it sees games only through
 * games/game.h and its game_tb_ops.
 *
 * Values are for the side to move: win, draw or loss, and the distance in
 * plies to the end of the game under optimal play (the winner minimising,
 * the loser maximising; a win with the next move has distance 1).
 */
#ifndef PNSOLVE_TABLEBASE_H
#define PNSOLVE_TABLEBASE_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"

typedef enum { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 } tb_wdl;

typedef struct {
    tb_wdl wdl;
    int distance;  /* 0 for a draw */
} tb_value;

/* --- state indices --------------------------------------------------------
 * A game whose positions have several states each (Ostle: rule 8 forbids
 * one move) numbers each material's states through an index of its
 * positions' counts (game_tb_index), which tablebase/ makes, keeps and
 * passes to every game_tb_ops operation that numbers states.  For other
 * games the view is empty and making it costs nothing. */

typedef struct tb_index tb_index;

/* g's indices, kept in files beside the tables of dir when large (NULL:
 * made in memory only); NULL when out of memory. */
tb_index *tb_index_open(const game *g, const char *dir);
/* Frees x and every index it made (NULL: nothing). */
void tb_index_close(tb_index *x);
/* Makes material mat's index if x has none, and returns the view to pass to
 * g's table operations (NULL when out of memory).  May take minutes: it maps
 * the index file when it checks, else counts every position of mat on every
 * core (the nine-piece 5x5 Ostle table: about 4 minutes on two cores) and
 * writes the file.  Thread-safe. */
const game_tb_index *tb_index_need(tb_index *x, int mat);
/* tb_index_need of each of mats[0..n): the view, or NULL. */
const game_tb_index *tb_index_needs(tb_index *x, const int *mats, int n);

/* --- probing ------------------------------------------------------------- */

typedef struct tb_set tb_set;

/* Opens the tables of g in dir; files are mapped on first use.  NULL only
 * when out of memory. */
tb_set *tb_open(const game *g, const char *dir);
/* As tb_open, but the state indices are made from the rules, never read
 * from the index files beside the tables (a check that trusts nothing on
 * disk but the values). */
tb_set *tb_open_fresh(const game *g, const char *dir);
/* The state indices t's tables are read through (tb_index_need). */
tb_index *tb_set_index(tb_set *t);
/* Value of live state s: 1 found, 0 no table for its material, -1 a table
 * file is missing its pieces or corrupt (err names the file).  Thread-safe. */
int tb_probe(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen);
/* tb_probe of each live state s[0..n), n at most GAME_MAX_MOVES: found[k]
 * 1 (v[k] set) or 0 (no table for its material), the entries of those with
 * tables fetched together rather than one miss after another; 0, or -1 on
 * a table error (err).  Thread-safe. */
int tb_probe_each(tb_set *t, const game_state *s, int n, tb_value *v, int *found, char *err, size_t errlen);
/* A best move of live state s by the tables (the winner's fastest, the
 * loser's slowest, a drawing one in a draw; the first such in move order),
 * with s's value: 1 found, 0 when s or one of its children has no table,
 * -1 a table error (err). */
int tb_best_move(tb_set *t, const game_state *s, game_move *best, tb_value *v, char *err, size_t errlen);
/* A legal move and its value for the side that makes it. */
typedef struct {
    game_move move;
    int found;       /* 0: the position it leads to has no table (value unset) */
    tb_value value;  /* a move into a position lost in d plies is a win in d + 1; one that
                      * ends the game, a win or loss in 1 (a draw: distance 0) */
} tb_move_value;
/* The value of every legal move of live state s, best first, as Fathom's
 * root probe gives them: wins fastest first, then draws, then losses
 * slowest first, moves without a table last, ties in move order.  The
 * number of moves (out holds GAME_MAX_MOVES), or -1 with err (a table
 * error).  Thread-safe. */
int tb_probe_moves(tb_set *t, const game_state *s, tb_move_value *out, char *err, size_t errlen);
/* From now on a compressed table is decoded whole into memory (a byte per
 * entry) when it is first loaded: random probes then cost a memory read, not
 * a block decode (a search over the 4.8 G-entry nine-piece Ostle table: 16 k
 * nodes/s without, 118 k with), at the table's size in memory. */
void tb_set_resident(tb_set *t);
/* As tb_set_resident, but each table decoded into "<table file>.dec" beside
 * it (made once, checked by its checksum on every mapping) and mapped from
 * there: one copy in the page cache for every process on the machine;
 * where that file cannot be made or mapped, into memory as above. */
void tb_set_resident_shared(tb_set *t);
/* Sets the cache of decoded blocks that each thread probing t's compressed
 * tables keeps to about `bytes` (a power of two of 32 KB blocks, at least
 * one; 4 MB until set), from the thread's next probe of t on: a search
 * probing compressed six-piece Jungle tables decoded a block for every
 * second probe with 4 MB and every sixth with 512 MB.  A setting of t
 * alone: a thread that probes two sets of other sizes remakes its cache
 * as it turns from one to the other. */
void tb_set_cache_size(tb_set *t, size_t bytes);
/* Loads the table of material mat now: 1 loaded, 0 absent, -1 bad (err). */
int tb_load(tb_set *t, int mat, char *err, size_t errlen);
/* Treats material mat as absent from now on (to check a search against the
 * table it does not see); 0, or -1 if mat was already loaded. */
int tb_withhold(tb_set *t, int mat);
/* A table's identity for proofs: BLAKE2b-256 of its values in index order,
 * each as two little-endian bytes (0 draw, 2d+1 win in d, 2d loss in d), so
 * that it does not change when the file is encoded again. */
#define TB_HASH_BYTES 32
#define TB_HASH_HEX (2 * TB_HASH_BYTES + 1)
/* The hash of material mat's table as hex (computed once per set): 1, 0 if
 * the table is absent, -1 if it is bad (err). */
int tb_hash(tb_set *t, int mat, char hex[TB_HASH_HEX], char *err, size_t errlen);
/* Hashes the tables of mats[0..n) in t on up to `threads` threads (<= 0:
 * all cores), one table a thread, for the tb_hash calls that follow;
 * absent or bad tables are left for those calls to report. */
void tb_hash_ahead(tb_set *t, const int *mats, int n, int threads);
/* From now on tb_hash keeps each table's hash in "<table file>.b2" beside
 * it (where the directory can be written) and takes it from there while
 * the table file's header, which holds its checksums, is unchanged: a proof
 * writer names six six-piece Jungle tables in seconds, not minutes.  A
 * checker does not call this: it hashes the values it reads. */
void tb_set_hash_files(tb_set *t);
/* Unmaps every table and frees t; NULL is allowed. */
void tb_close(tb_set *t);

/* A random live position of table material mat of t's game g that is its
 * own canonical entry (not a symmetric twin), drawn with the stream *rng
 * (util_random); 0, or -1 after 1000 draws found none. */
int tb_draw_position(tb_set *t, const game *g, int mat, uint64_t *rng, game_state *s);

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

struct tb_testing;  /* private: tablebase/tb_testing.h */

typedef struct {
    int threads;              /* <= 0: all cores */
    volatile int *stop;       /* set to stop (NULL ok): a table in its plies that saves
                                 (save_every, one process) finishes the ply and saves
                                 it first, else the table in progress stops at once */
    void (*progress)(const tb_progress *p, void *ctx);
    void *ctx;
    FILE *log;                /* one line per finished table, or NULL */
    const char *only;         /* NULL: every table; else only this material's and the
                                 ones its captures lead to */
    int compress;             /* 0: tables of 2^30 entries and more in compressed blocks,
                                 1: every table, -1: none */
    double save_every;        /* > 0: save a table's build between plies at most this
                                 often (seconds) beside its file, and go on from there
                                 when built again; 0: never */
    const tb_ranks *ranks;    /* NULL: this process alone; else the build is shared
                                 with the other ranks, each calling tb_build with the
                                 same arguments (threads: the fewest any rank has;
                                 saving between plies: off) */
    int64_t whole_below;      /* across ranks, tables of at most this many positions are dealt to the
                                 ranks whole, each built by one: 0 means 2^25, < 0 none
                                 (every table shared by all ranks) */
    const struct tb_testing *testing;  /* NULL; the tests' knobs (tablebase/tb_testing.h) */
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
    char values_hash[TB_HASH_HEX];  /* tb_hash's: BLAKE2b-256 of the values, a rebuild's identity */
} tb_stats;

/* The states of material mat counted by the game's census classes
 * (game_tb_ops.census) on threads threads (<= 0: every core) into counts:
 * 0, 1 if *stop ended it early (counts partial), -1 if g has no census. */
int tb_census(const game *g, int mat, int threads, volatile int *stop, uint64_t counts[GAME_CENSUS_MAX]);
/* File path of material mat's table in dir. */
void tb_path(const game *g, const char *dir, int mat, char *buf, size_t len);
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
    const struct tb_testing *testing;  /* NULL; the tests' knobs (tablebase/tb_testing.h) */
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

/* --- reachable states by layers, compactly ---------------------------------
 * For games with layer ranks (game_has_layers: Othello to 40 squares): every
 * state reachable from the start, found forward a layer (a number of empty
 * squares) at a time and saved as compact sets of ranks, about a byte a
 * state where layers.c's keys take 16 (tablebase/sweep.c). */

typedef struct {
    int empties;              /* of the states of this layer */
    uint64_t ranks;           /* the states up to the start's symmetries */
    uint64_t states, moving, passing, finished;  /* reachable; with a move that adds a piece; passing; over */
} tb_sweep_layer;

typedef struct {
    int threads;              /* <= 0: one per processor */
    uint64_t memory;          /* bytes of the next layer's bitmap: more passes over a layer when smaller */
    uint64_t max_sets;        /* bytes two adjacent layers' sets may take (0: no limit): past it the
                                 sweep stops with an error rather than run out of memory later */
    volatile int *stop;       /* set to stop: the layer under way is dropped */
    FILE *log;                /* a line per layer (NULL ok) */
} tb_sweep_options;

/* Finds the layers of g's reachable states from the start's down, saving
 * each into dir as it completes (one found there is read instead), their
 * counts into out[0..cap) and their number into *layers: 0, 1 when *stop
 * ended it (the layers done are kept), or -1 with err. */
int tb_sweep(const game *g, const char *dir, const tb_sweep_options *o, tb_sweep_layer *out, int cap, int *layers,
             char *err, size_t errlen);

/* --- strong solutions by layers -------------------------------------------
 * For games with layer ranks (Othello to 40 squares): every state reachable
 * from the start (one per class of the start's symmetries) with its exact
 * final score for the side to move, by retrograde analysis over the layers
 * tb_sweep finds (tablebase/layers.c): a byte a state beside the sets. */

typedef struct tb_layers tb_layers;

typedef struct {
    int empties;              /* of the states of this layer */
    uint64_t states, moving, passing, finished;  /* reachable; with a move that adds a piece; passing; over */
    uint64_t wins, draws, losses;                /* for the side to move */
} tb_layer_stats;

/* The file of the start's layer's scores in dir (one file a layer). */
void tb_layers_path(const game *g, const char *dir, char *buf, size_t len);
/* Builds g's strong solution into dir: the layers (tb_sweep with o), then
 * their scores from the full board up, each layer saved as it is done (a
 * later build resumes); refuses before scoring when the sets and a byte a
 * state would pass max_bytes (0: no limit).  0, 1 when *o->stop ended it,
 * or -1 with err. */
int tb_layers_build(const game *g, const char *dir, const tb_sweep_options *o, uint64_t max_bytes, char *err,
                    size_t errlen);
/* Opens the solution of g in dir (read whole, every checksum checked):
 * NULL with err (missing, incomplete, damaged, another game's). */
tb_layers *tb_layers_open(const game *g, const char *dir, char *err, size_t errlen);
/* Frees t (NULL allowed). */
void tb_layers_close(tb_layers *t);
/* The exact score of state s for the side to move: 1 with *score, 0 when
 * s is not reachable from the start (not in the table). */
int tb_layers_probe(const tb_layers *t, const game_state *s, int *score);
/* Layers, the first with the most empty squares. */
int tb_layers_count(const tb_layers *t);
/* The states layer i keeps: one per class of the start's symmetries. */
uint64_t tb_layers_size(const tb_layers *t, int i);
/* Calls fn with each state layer i keeps, in rank order, its score and the
 * number of reachable states it stands for (its symmetric images). */
void tb_layers_each(const tb_layers *t, int i, void (*fn)(void *ctx, const game_state *s, int score, int images),
                    void *ctx);
/* Statistics of layer i, every reachable state counted. */
void tb_layers_stats(const tb_layers *t, int i, tb_layer_stats *st);
/* Re-derives every state's score from its children's stored scores (and
 * checks that every child is there) and each layer's counts on threads
 * threads: the number of wrong states and counts. */
uint64_t tb_layers_verify(const tb_layers *t, int threads);

/* --- reachability -------------------------------------------------------- */

#define TB_REACH_MATERIALS 64
#define TB_REACH_LEVELS 4096
#define TB_REACH_WITNESSES 4

typedef struct {
    int level;                /* the level being expanded: plies from the start */
    uint64_t frontier;        /* its states */
    uint64_t expanded;        /* of which expanded so far */
    uint64_t reached;         /* states reached so far, this level's finds included */
    double seconds;           /* since the search started, earlier runs included */
} tb_reach_progress;

typedef struct {
    int threads;              /* <= 0: all cores */
    volatile int *stop;       /* set to stop at the next segment (a checkpoint is written) */
    const char *checkpoint;   /* resumed from if it exists, written every checkpoint_seconds
                                 and on stop; NULL: none */
    double checkpoint_seconds;
    void (*progress)(const tb_reach_progress *p, void *ctx);
    void *ctx;
    FILE *log;                /* one line per level, or NULL */
    FILE *unreached;          /* every state not reached, one per line in the game's notation, or NULL */
} tb_reach_options;

typedef struct {
    int mat;
    uint64_t reached;         /* states (twins are never reached: index() names the entry) */
    uint64_t unreached;       /* states not reached, twins left out */
    uint64_t witness[TB_REACH_WITNESSES];  /* the first unreached states' indices */
    int n_witness;
    /* unreached states that a move of their own material leads to from a
     * reached state: 0, or the search missed them (a check of the search,
     * backwards: the unreached states are closed under such predecessors) */
    uint64_t fed;
} tb_reach_material;

typedef struct {
    int materials;            /* the start's material and every one its captures lead to */
    tb_reach_material mat[TB_REACH_MATERIALS];
    int levels;               /* the greatest distance in plies from the start to a state */
    uint64_t at_level[TB_REACH_LEVELS];  /* states first reached at each distance */
    int far_set, far_mat;     /* a state at the greatest distance */
    uint64_t far_index;
    double seconds;
} tb_reach_result;

/* Every state of the tables reached from live state start by legal moves,
 * breadth first (large materials' state indices read from dir or written
 * there, as tb_open does): 0 with *res filled, 1 when *o->stop ended it (the
 * checkpoint, if any, written), -1 with err. */
int tb_reach(const game *g, const char *dir, const game_state *start, const tb_reach_options *o,
             tb_reach_result *res, char *err, size_t errlen);

#endif
