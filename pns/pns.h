/* pns/pns.h - proof-number search: best-first PNS and df-pn over any game of
 * games/game.h, safe against the Graph History Interaction problem, asking
 * endgame tables (tablebase/) where they know the answer.
 *
 * A search answers one binary question for the side to move at the root
 * (the prover): PNS_WIN "can it force a win?" (a draw, including a
 * repetition, fails) or PNS_ADVANTAGE "can it force at least a draw?" (a
 * draw succeeds).  pns_value() asks both and gives the three-valued result.
 * A repetition is a position that is already on the path from the root; it
 * is a draw (docs/rules.md).
 */
#ifndef PNSOLVE_PNS_H
#define PNSOLVE_PNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"
#include "../tablebase/tablebase.h"

#define PNS_INF 0x3fffffffu   /* proof or disproof number of a solved node */
#define PNS_MAX_PV 256
#define PNS_MAX_DEPTH 65536   /* plies of a search's path (and a proof writer's) */

typedef enum { PNS_DFPN, PNS_BEST_FIRST } pns_algo;
/* PNS_SCORE: "can the prover finish at least score_target ahead?" (the
 * game's final score from the prover's side; no tables are probed) */
typedef enum { PNS_WIN, PNS_ADVANTAGE, PNS_SCORE } pns_question;
/* SAFE: a result that depends on the path is reused only where the earlier
 * positions it needs are on the path (docs/search.md, "GHI").
 * NAIVE: every result is stored as a property of the position (shows GHI). */
typedef enum { PNS_GHI_SAFE, PNS_GHI_NAIVE } pns_ghi;
typedef enum { PNS_UNKNOWN, PNS_PROVEN, PNS_DISPROVEN } pns_status;

/* Initial pn/dn of a node met for the first time: 1/1; from its number
 * of moves (the prover to move: 1 / moves, else moves / 1); or those
 * scaled by the endgame solver's estimate of its score against the score
 * question's target (evaluation-function PNS, Winands and Schadd 2011),
 * mobility alone where the game has no estimate. */
typedef enum { PNS_INIT_ONE, PNS_INIT_MOBILITY, PNS_INIT_EVAL } pns_init;

typedef struct {
    uint64_t nodes;
    double seconds;
    uint32_t pn, dn;           /* at the root */
    double table_fill;         /* share of the transposition table in use, 0..1 */
    size_t bytes;              /* memory in use by the search */
    int target;                /* PNS_SCORE: the target of the question being searched */
    uint32_t sub_pn, sub_dn;   /* df-pn: the root's child being searched (the root's own numbers
                                * move only when a child returns: hours on a large board) */
    int has_bounds;            /* pns_score: the score's bounds so far, the root mover's */
    int score_lo, score_hi;
} pns_progress;

typedef struct dfpn pns_dfpn;  /* a df-pn search held open (below) */
typedef struct pns_child pns_child;
struct pns_result_s;

typedef struct {
    pns_algo algo;
    pns_question question;
    int prover;                /* the player asked about; -1: game_prover (the side to move at the root; a graph's player 0) */
    int score_target;          /* for PNS_SCORE */
    int exact_empties;         /* PNS_SCORE in games with an exact solver (game_ops.solver_score):
                                * decide positions with at most this many empty squares by it
                                * (0: never) */
    int proof_exact_empties;   /* proofs of PNS_SCORE: positions with at most this many empty
                                * squares are 'exact' leaves that the checker searches itself
                                * (0: the tree goes on to the game's end) */
    pns_ghi ghi;
    size_t memory;             /* bytes for the table (df-pn) or tree (PNS); 0: 256 MB */
    size_t proof_memory;       /* bytes a closed-set proof writer may read the table's graph
                                * into (beside the table); 0: as much as memory, at least 256 MB */
    double epsilon;            /* df-pn 1+epsilon trick; 0: plain df-pn */
    pns_init init;             /* initial pn/dn of a new node */
    int weak;                  /* df-pn: weak PNS sums (max + open children - 1) */
    uint64_t max_nodes;        /* 0: no limit */
    double max_seconds;        /* 0: no limit */
    double proof_seconds;      /* a proof writer's own limit, counted from the search's end
                                * (0: max_seconds alone) */
    tb_set *tb;                /* NULL: no table probing */
    tb_set *scores;            /* score questions: every reachable state's exact score (tb_open
                                * of a game with layers), read at each new leaf; NULL: none.
                                * Not for proofs: their leaves are checked without it */
    volatile int *stop;        /* set asynchronously to stop (NULL ok) */
    double progress_every;     /* seconds between progress calls; 0: 2 s */
    const char *checkpoint;    /* df-pn: save the tables here now and then and at the end (NULL: never) */
    double checkpoint_every;   /* seconds between saves; 0: 600 */
    const char *resume;        /* df-pn: start from the tables saved in this file (NULL: fresh) */
    int keep_solved;           /* df-pn: keep the solved entries the table evicts (in up to an
                                * eighth of memory more), for a proof writer */
    int threads;               /* df-pn's win and advantage questions: threads searching one
                                * shared table (<= 1: one, with today's exact node counts) */
    void (*progress)(const pns_progress *p, void *ctx);
    void *ctx;
    /* df-pn's one hook: NULL, or called by pns_solve (df-pn) and pns_score
     * once the question is answered, the root just searched (*answer its
     * numbers) and the table still open, to read what was solved and search
     * again in it (a proof writer: pwrite/); pns_score calls it for each of
     * the score's two bounds, that bound's question set.  0, or -1 (r->error
     * says why).  Setting it keeps the solved entries the table evicts
     * (keep_solved), so that what the search found stays findable. */
    int (*solved)(pns_dfpn *D, const game_state *root, const pns_child *answer, struct pns_result_s *r, void *ctx);
    void *solved_ctx;
    const void *solved_testing;  /* NULL; passed through to the hook's owner untouched (the tests'
                                  * knobs of pwrite/: pwrite/pwrite_testing.h) */
} pns_options;

/* How a proof writer wrote its proof: the search's result does not say. */
typedef struct {
    int closed;          /* a proof was written: 1 read off the table as a closed set, 0 by searching again */
    uint64_t repaired;   /* positions the closed set's writer searched again (those the table lost) */
    uint64_t read;       /* positions of the closed set the writer read off the table */
    uint64_t widened;    /* of those, claim side's positions read by the best move first, then by every move */
    uint64_t searched;   /* the tree writer: positions it searched again (the table had not kept their value) */
    uint64_t taken_back; /* the tree writer: lines written and taken back (subtrees that failed on its path) */
    char why[256];       /* a closed set was tried and did not hold the root: why (else empty) */
} pns_proof_report;

typedef struct pns_result_s {
    pns_status status;
    const char *stopped_by;    /* "nodes", "time", "memory", "interrupt" or NULL */
    uint32_t pn, dn;           /* root proof and disproof numbers */
    uint64_t nodes;            /* positions expanded */
    uint64_t endgame_nodes;    /* positions visited by the game's exact solver */
    int score_lo, score_hi;    /* pns_score: the score's bounds the answers gave, the last
                                * ones before a stop too (equal when found) */
    double seconds;
    size_t peak_bytes;         /* largest memory use of table and tree */
    int pv_len;                /* principal line (moves from the root) */
    game_move pv[PNS_MAX_PV];
    uint64_t path_dependent;   /* solved results not stored because they hit the path */
    uint64_t kept, kept_dropped; /* keep_solved: solved entries evicted and kept, and dropped (full) */
    pns_proof_report proof;    /* what the proof writer did (o->proof set), else zero */
    uint64_t tt_accesses;      /* several threads: shared-table bucket reads and stores, */
    uint64_t tt_contended;     /* and of those, the ones that met another thread's store */
    char error[256];           /* a table file failed: status is UNKNOWN */
} pns_result;

/* Default options: df-pn, win question, safe GHI, 256 MB, epsilon 0.25. */
void pns_defaults(pns_options *o);
/* Sets the options a score question is fastest with (the exact solver's
 * lines, initial numbers from the estimate), measured in docs/othello.md. */
void pns_score_defaults(pns_options *o);

/* Answers o->question for the side to move in s. */
void pns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);

/* Three-valued value for the side to move: +1 win, 0 draw, -1 loss, or 2 when
 * a question stayed open; asks the win question then the advantage question
 * (o->question is ignored).  win and adv receive both searches (NULL ok). */
int pns_value(const game *g, const game_state *s, const pns_options *o, pns_result *win, pns_result *adv);

/* Exact final score for the side to move under perfect play (Othello: disc
 * difference, empties to the winner), by df-pn PNS_SCORE questions between
 * lo and hi (the score's bounds) in one table; 0 with *score and r (with the
 * principal line), 1 with them when o->solved failed on a bound (r->error
 * says why), or -1 when a search stayed open.  With o->solved set, it is
 * called for the two bounds ("at least the score" proven, "at least the
 * next possible score" disproven) from the same table, before the line. */
int pns_score(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score, pns_result *r);

/* --- checking the search against the tables ---------------------------- */

typedef struct {
    uint64_t positions, agree, disagree, unknown;
    uint64_t wins_within, losses_within;  /* with within > 0: agreeing values decided inside it */
    uint64_t nodes;
    double seconds;
} pns_validation;

/* The thesis's validation: draws count random live positions with `pieces`
 * pieces from the tables in dir (seeded by seed, spread over the materials),
 * answers both questions for each by search with the table of its own
 * material withheld (smaller tables allowed), and compares with the table.
 * With o->question PNS_SCORE the score search (pns_score, between -1 and 1,
 * without tables) answers instead, its score against the table's value.
 * With within > 0 the search is the depth-bounded one instead, and the check
 * exact: the shortest win and the longest loss within `within` plies must be
 * the table's distance, and neither may exist where the table's is longer or
 * a draw.  A disagreement is printed on log (NULL ok).  0, or -1 with err
 * when a table is missing or bad. */
int pns_validate(const game *g, const char *dir, int pieces, uint64_t count, uint64_t seed, int within,
                 const pns_options *o, pns_validation *v, FILE *log, char *err, size_t errlen);

/* --- mate in N: depth-bounded search (puzzles) ------------------------------
 * "Does the side to move win within d plies whatever the defence?"  Results
 * are properties of the state, repetitions aside: a shortest win never
 * repeats a position, so from a root without history the shortest distance
 * is the game's own, the one the tables store (docs/puzzles.md). */

typedef struct pns_mate pns_mate;

/* A searcher over g with an exact-key table of about `bytes`, probing tb
 * where it has a table (NULL: none); NULL when out of memory. */
pns_mate *pns_mate_new(const game *g, tb_set *tb, size_t bytes);
/* Frees m; NULL is allowed. */
void pns_mate_free(pns_mate *m);
/* Searches stop with -1 (error "interrupted") once *stop is non-zero. */
void pns_mate_set_stop(pns_mate *m, volatile int *stop);
/* 1 if the side to move in s wins within d plies, 0 if not, -1 on a table
 * error or a stop (pns_mate_error). */
int pns_mate_win(pns_mate *m, const game_state *s, int d);
/* 1 if every move of the side to move in s loses within d plies, 0 if not, -1. */
int pns_mate_loss(pns_mate *m, const game_state *s, int d);
/* Shortest win of the side to move in s within max plies (odd), 0 if none, -1. */
int pns_mate_distance(pns_mate *m, const game_state *s, int max);
/* Shortest d <= max such that the side to move in s loses within d, 0 if none, -1. */
int pns_mate_loss_distance(pns_mate *m, const game_state *s, int max);
/* The exact value of s when the game is over there or a table knows it: 1
 * with *v, 0 unknown, -1 table error. */
int pns_mate_value(pns_mate *m, const game_state *s, tb_value *v);
/* Positions searched so far. */
uint64_t pns_mate_nodes(const pns_mate *m);
/* The game m searches. */
const game *pns_mate_game(const pns_mate *m);
/* Why the last call answered -1, or NULL. */
const char *pns_mate_error(const pns_mate *m);

/* --- what df-pn solved, for a proof writer (pwrite/) ----------------------
 * The o->solved hook receives the search held open.  Through the calls
 * below a writer reads what the search solved (a copy of a table entry,
 * never a pointer into it), follows a path of its own, and searches a
 * position again in the same table where the table has lost its value.
 * Nothing here writes a proof: the writers are pwrite/'s. */

/* A position met as a child: its numbers in the path context it was met
 * in, and the earlier positions of the path its solved value needs. */
struct pns_child {
    game_key key;
    uint32_t pn, dn;
    uint64_t refs;       /* bit i: the position i+1 plies above; PNS_REFS_FAR: further up */
    game_move move;
    int16_t tag;         /* solved: the furthest score target its value holds for */
};
#define PNS_REFS_FAR ((uint64_t)1 << 63)
#define PNS_REFS_KEYS 4  /* a path-dependent value is reused if it needs at most this many positions */

/* A table entry as the search stored it. */
typedef struct {
    uint32_t pn, dn;     /* 0/PNS_INF: proven, PNS_INF/0: disproven */
    int best;            /* index of the best move in the game's move order */
    int path_dependent;  /* solved on some path only (its value may hold there alone) */
} pns_entry;

/* While a writer searches again, what the search may take as holding the
 * claim: a position holds() says so, where the writer marked it
 * (pns_dfpn_mark), and every position of the path above depth base.  A
 * value that holds given those alone goes to keep() (with its best move),
 * not to the table, which stays true on its own. */
typedef struct {
    int (*holds)(void *ctx, game_key key);
    void (*keep)(void *ctx, game_key key, int best);
    void *ctx;
    int base;
} pns_assume;

/* The entry of key as an answer to D's current question: 1 with *e, 0 none. */
int pns_dfpn_entry(const pns_dfpn *D, game_key key, pns_entry *e);
/* Evaluates child state cs into c (leaf, repetition, table or fresh). */
void pns_dfpn_child(pns_dfpn *D, const game_state *cs, pns_child *c);
/* Searches s (whose key is self->key, at the path's depth) until it is
 * solved or the search stops; 1 when solved. */
int pns_dfpn_run(pns_dfpn *D, const game_state *s, pns_child *self);
/* A leaf's numbers (the game over, a repetition, a table, the solver): 1
 * with *pn and *dn, 0 when s is no leaf. */
int pns_dfpn_leaf(pns_dfpn *D, const game_state *s, uint32_t *pn, uint32_t *dn);
/* The path the writer follows: push and pop a position, its depth or -1. */
int pns_dfpn_path_push(pns_dfpn *D, game_key key);
void pns_dfpn_path_pop(pns_dfpn *D);
int pns_dfpn_path_find(const pns_dfpn *D, game_key key);
int pns_dfpn_depth(const pns_dfpn *D);
/* The keys named by refs of a position one below the path's end into need
 * (PNS_REFS_KEYS of room): their number, -1 when there are more or one is
 * further up. */
int pns_dfpn_refs_keys(const pns_dfpn *D, uint64_t refs, game_key *need);
/* The references of a node one below the path's end to the position at
 * path depth d; and to the positions need[0..n): 0, or -1 (refs untouched)
 * when one of them is not on the path. */
uint64_t pns_dfpn_refs_at(const pns_dfpn *D, int d);
int pns_dfpn_refs_of_keys(const pns_dfpn *D, const game_key *need, int n, uint64_t *refs);
/* A node's references seen from its parent (bit 0 was the parent). */
uint64_t pns_refs_up(uint64_t child_refs);
/* Counts a step of the writer's own work against the limits and the
 * progress calls: 1 when the search is to stop. */
int pns_dfpn_tick(pns_dfpn *D);
/* Keeps the table at its size from now on (pinned), first growing it
 * within the memory given until an eighth full; set_pinned pins or unpins
 * it as it stands and returns whether it was pinned. */
void pns_dfpn_pin(pns_dfpn *D);
int pns_dfpn_set_pinned(pns_dfpn *D, int pinned);
/* From now on D's searches take a (NULL: nothing) as holding. */
void pns_dfpn_assume(pns_dfpn *D, pns_assume *a);
/* Marks key's table entry for a's holds() to be asked (the mark goes with
 * the entry: a lost entry is searched again, never read wrong). */
void pns_dfpn_mark(pns_dfpn *D, game_key key);
/* The principal line of a solved root s into r->pv. */
void pns_dfpn_line(pns_dfpn *D, const game_state *root, pns_result *r);
/* Searches stop at clock time t from now on (util_clock; 0: no limit of this kind). */
void pns_dfpn_deadline(pns_dfpn *D, double t);
/* The search's game, options, prover; whether it stopped and why; its
 * error buffer (PNS_ERROR_MAX bytes), which a writer may fill. */
const game *pns_dfpn_game(const pns_dfpn *D);
const pns_options *pns_dfpn_options(const pns_dfpn *D);
int pns_dfpn_prover(const pns_dfpn *D);
int pns_dfpn_stopped(const pns_dfpn *D);
const char *pns_dfpn_stopped_by(const pns_dfpn *D);
void pns_dfpn_stop(pns_dfpn *D);
#define PNS_ERROR_MAX 256
char *pns_dfpn_error(pns_dfpn *D);
/* Whether D probes tables (the game has them and o->tb is set). */
int pns_dfpn_tables(const pns_dfpn *D);
/* The search's counts into r (nodes, time, memory with the kept entries). */
void pns_dfpn_report(const pns_dfpn *D, pns_result *r);
/* Does a draw answer o's question with yes?  (The invariant the search and
 * the checker both keep: a repetition is a draw, score 0.) */
int pns_draw_proves(const pns_options *o);

#endif
