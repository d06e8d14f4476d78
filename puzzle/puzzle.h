/* puzzle/puzzle.h - mate-in-N problems: one checked as a composer would
 * (the key, cooks, the main line and its duals, tries, motifs, a score), and
 * many composed from random positions of the tables or of random games.
 * Built on the depth-bounded mate search of pns/ (pns_mate_*). */
#ifndef PNSOLVE_PUZZLE_H
#define PNSOLVE_PUZZLE_H

#include "../pns/pns.h"

#define PUZZLE_MAX_TRIES 16
#define PUZZLE_MAX_DUALS 64
#define PUZZLE_MAX_COOKS 16

typedef enum { PUZZLE_UNIQUE_SHORTEST, PUZZLE_UNIQUE_STRICT } puzzle_unique;

/* Motifs of a puzzle beyond the key's own GAME_MOTIF_* flags. */
enum {
    PUZZLE_MOTIF_KO = 1u << 16,        /* a defence the forbidden move bars would last longer */
    PUZZLE_MOTIF_QUIET = 1u << 17,     /* the key neither captures nor approaches the den */
    PUZZLE_MOTIF_SACRIFICE = 1u << 18  /* the key offers a piece or pushes out its own */
};

typedef enum {
    PUZZLE_TRY_NO_WIN_IN_TIME, /* the attacker wins in no way within the stipulation */
    PUZZLE_TRY_SLOWER,         /* a win, but only in `distance` plies */
    PUZZLE_TRY_DRAW,
    PUZZLE_TRY_LOSS            /* the attacker loses */
} puzzle_try_outcome;

typedef struct {
    game_move move;         /* the try: a natural first move that is not the key */
    unsigned motifs;
    game_move refutation;   /* the defence that beats it (when has_refutation) */
    int has_refutation;
    puzzle_try_outcome outcome;
    int distance;           /* PUZZLE_TRY_SLOWER: plies of the attacker's win from the start */
} puzzle_try;

typedef struct {
    int ply;                /* 0-based ply of the main line it could replace */
    game_move move;
} puzzle_dual;

typedef struct {
    int n;                  /* the stipulation: win within n plies */
    int distance;           /* the attacker's shortest win, 0 if none within n */
    puzzle_unique unique;
    int sound;              /* 1 sound, 0 not (cooks or no win in exactly n), -1 undecided */
    game_move key;
    int ncooks;             /* other first moves that win (in time, or at all if strict) */
    game_move cooks[PUZZLE_MAX_COOKS];
    int line_len;           /* main line: longest defence, shortest attack */
    game_move line[PNS_MAX_PV];
    int nduals;
    puzzle_dual duals[PUZZLE_MAX_DUALS];
    int ntries;
    puzzle_try tries[PUZZLE_MAX_TRIES];
    unsigned motifs;        /* the key's GAME_MOTIF_* flags, PNS_MOTIF_* */
    double score;           /* interestingness (docs/puzzles.md) */
} puzzle_problem;

/* Checks "the side to move in s wins in n plies" as a problem: the exact
 * distance, the key and its uniqueness, cooks, the main line and its duals,
 * tries with their refutations, motifs and the score.  Strict uniqueness of
 * a first move that the tables do not decide asks df-pn with options o
 * (NULL: undecided).  0, or -1 with err on a table error or a stop. */
int puzzle_check(pns_mate *m, const game_state *s, int n, puzzle_unique unique, const pns_options *o,
                     puzzle_problem *p, char *err, size_t errlen);

#define PUZZLE_TRACK 1000000  /* distinct drawn positions remembered to tell a seen space */

/* What puzzle_find looks for. */
typedef struct {
    int n;                  /* the stipulation: wins in exactly n plies (odd) */
    puzzle_unique unique;
    unsigned motifs;        /* every one of these flags on the puzzle (0: any) */
    int side;               /* the player to move, -1 either */
    int pieces;             /* tables: pieces on the board (0: any the tables have) */
    int material;           /* tables: this material only (-1: any with `pieces`) */
    uint64_t count;         /* stop after this many puzzles */
    uint64_t max_samples;   /* stop after this many positions looked at (0: 1e9) */
    uint64_t seed;
    int playout_plies;      /* without tables: random games of up to this many plies */
    const pns_options *o;   /* for strict uniqueness beyond the tables (NULL ok) */
    volatile int *stop;
    /* called for each sound, new puzzle; return non-zero to stop */
    int (*found)(const game_state *s, const puzzle_problem *p, void *ctx);
    void *ctx;
    /* NULL, or set to the number of distinct positions drawn when the
     * search stopped because its draws no longer found new ones */
    uint64_t *exhausted;
} puzzle_search;

/* Draws random positions (seeded, reproducible) - from the tables of
 * m's tb set when the game has them for the material asked, else from random
 * games from the start - keeps those the side to move wins in exactly n,
 * checks them (puzzle_check), and passes each sound one whose symmetric
 * and colour-swapped images were not passed before to q->found.  Stops
 * when the space is seen: 20 D draws in a row found no position among the
 * D distinct ones drawn so far (the chance that one was never drawn is
 * then below D e^-20), tracked up to PUZZLE_TRACK distinct positions.
 * Returns the number of positions looked at, or -1 with err. */
int64_t puzzle_find(pns_mate *m, tb_set *tb, const puzzle_search *q, char *err, size_t errlen);

#endif
