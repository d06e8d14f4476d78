/* pns/pns.h - proof-number search: best-first PNS and df-pn over any game of
 * games/game.h, safe against the Graph History Interaction problem, asking
 * endgame tables (tablebase/) where they know the answer.
 *
 * A search answers one binary question for the side to move at the root
 * (the prover): PNS_WIN "can it force a win?" (a draw, including a
 * repetition, fails) or PNS_ADVANTAGE "can it force at least a draw?" (a
 * draw succeeds).  pns_value() asks both and gives the three-valued result.
 * A repetition is a position that is already on the path from the root; it
 * is a draw (RULES.md).
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
#define PNS_PROOF_EXACT_MAX 14  /* the most empty squares of an 'exact' proof leaf */

typedef enum { PNS_DFPN, PNS_BEST_FIRST } pns_algo;
/* PNS_SCORE: "can the prover finish at least score_target ahead?" (the
 * game's final score from the prover's side; no tables are probed) */
typedef enum { PNS_WIN, PNS_ADVANTAGE, PNS_SCORE } pns_question;
/* SAFE: a result that depends on the path is reused only where the earlier
 * positions it needs are on the path (README, "GHI").
 * NAIVE: every result is stored as a property of the position (shows GHI). */
typedef enum { PNS_GHI_SAFE, PNS_GHI_NAIVE } pns_ghi;
typedef enum { PNS_UNKNOWN, PNS_PROVEN, PNS_DISPROVEN } pns_status;

typedef struct {
    uint64_t nodes;
    double seconds;
    uint32_t pn, dn;           /* at the root */
    double table_fill;         /* share of the transposition table in use, 0..1 */
    size_t bytes;              /* memory in use by the search */
    int target;                /* PNS_SCORE: the target of the question being searched */
} pns_progress;

typedef struct {
    pns_algo algo;
    pns_question question;
    int prover;                /* the player asked about; -1: the side to move at the root */
    int score_target;          /* for PNS_SCORE */
    int exact_empties;         /* PNS_SCORE in games with an exact solver (game_ops.solver_score):
                                * decide positions with at most this many empty squares by it
                                * (0: never) */
    int proof_exact_empties;   /* proofs of PNS_SCORE: positions with at most this many empty
                                * squares are 'exact' leaves that the checker searches itself
                                * (0: the tree goes on to the game's end) */
    pns_ghi ghi;
    size_t memory;             /* bytes for the table (df-pn) or tree (PNS); 0: 256 MB */
    double epsilon;            /* df-pn 1+epsilon trick; 0: plain df-pn */
    int mobility;              /* initial pn/dn from the number of moves (else 1/1) */
    int weak;                  /* df-pn: weak PNS sums (max + open children - 1) */
    uint64_t max_nodes;        /* 0: no limit */
    double max_seconds;        /* 0: no limit */
    tb_set *tb;                /* NULL: no table probing */
    volatile int *stop;        /* set asynchronously to stop (NULL ok) */
    double progress_every;     /* seconds between progress calls; 0: 2 s */
    const char *checkpoint;    /* df-pn: save the tables here now and then and at the end (NULL: never) */
    double checkpoint_every;   /* seconds between saves; 0: 600 */
    const char *resume;        /* df-pn: start from the tables saved in this file (NULL: fresh) */
    void (*progress)(const pns_progress *p, void *ctx);
    void *ctx;
} pns_options;

typedef struct {
    pns_status status;
    const char *stopped_by;    /* "nodes", "time", "memory", "interrupt" or NULL */
    uint32_t pn, dn;           /* root proof and disproof numbers */
    uint64_t nodes;            /* positions expanded */
    uint64_t endgame_nodes;    /* positions visited by the game's exact solver */
    double seconds;
    size_t peak_bytes;         /* largest memory use of table and tree */
    int pv_len;                /* principal line (moves from the root) */
    game_move pv[PNS_MAX_PV];
    uint64_t path_dependent;   /* solved results not stored because they hit the path */
    char error[256];           /* a table file failed: status is UNKNOWN */
} pns_result;

/* Default options: df-pn, win question, safe GHI, 256 MB, epsilon 0.25. */
void pns_defaults(pns_options *o);

/* Answers o->question for the side to move in s. */
void pns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);

/* Three-valued value for the side to move: +1 win, 0 draw, -1 loss, or 2 when
 * a question stayed open; asks the win question then the advantage question
 * (o->question is ignored).  win and adv receive both searches (NULL ok). */
int pns_value(const game *g, const game_state *s, const pns_options *o, pns_result *win, pns_result *adv);

/* Exact final score for the side to move under perfect play (Othello: disc
 * difference, empties to the winner), by df-pn PNS_SCORE questions between
 * lo and hi (the score's bounds) in one table; 0 with *score and r (with the
 * principal line), or -1 when a search stayed open or a proof failed.  With
 * proof not NULL, the two bounds' solution trees ("at least the score"
 * proven, "at least the next possible score" disproven) are written to it
 * from the same table. */
int pns_score(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score, pns_result *r,
              FILE *proof);

/* --- checking the search against the tables ---------------------------- */

typedef struct {
    uint64_t positions, agree, disagree, unknown;
    uint64_t nodes;
    double seconds;
} pns_validation;

/* The thesis's validation: draws count random live positions with `pieces`
 * pieces from the tables in dir (seeded by seed, spread over the materials),
 * answers both questions for each by search with the table of its own
 * material withheld (smaller tables allowed), and compares with the table.
 * A disagreement is printed on log (NULL ok).  0, or -1 with err when a
 * table is missing or bad. */
int pns_validate(const game *g, const char *dir, int pieces, uint64_t count, uint64_t seed, const pns_options *o,
                 pns_validation *v, FILE *log, char *err, size_t errlen);

/* --- proofs ------------------------------------------------------------- */

/* Searches o->question and, if it is solved, writes the solution tree to out
 * in the format of the README (every defence of the losing side, one winning
 * move of the winner, the reason at each leaf); returns 0, or -1 with r set
 * when the question stayed open or a write failed. */
int pns_write_proof(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r);

/* Checks a proof file from the rules (and tables in tb_dir) alone; returns 0
 * when it is sound, else -1 with a one-line reason naming the line in err.
 * summary gets "proven win for White ..." (may be NULL). */
int pns_verify_proof(FILE *in, const char *tb_dir, char *summary, size_t slen, char *err, size_t errlen);

#endif
