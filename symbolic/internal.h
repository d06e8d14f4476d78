/* symbolic/internal.h - private to symbolic/: Othello's states and
 * transition relation as BDDs (relation.c) for the immediate wins
 * (immediate.c) and van Dijk's algorithms (reach.c, solve.c).  Every BDD returned is
 * referenced: the caller releases it. */
#ifndef PNSOLVE_SYMBOLIC_INTERNAL_H
#define PNSOLVE_SYMBOLIC_INTERNAL_H

#include "symbolic.h"

#include <bdd.h>

/* One part of the transition relation: a disc put on one square by one
 * side, or one side's pass, over the variables it changes (cur, next). */
typedef struct {
    BDD rel;
    BDD whole;                    /* rel with every square it leaves as it is (a pass: its guard alone) */
    BDD cur, next;                /* the changed variables, as sets */
    bddPair *to_cur;              /* the renaming of the next copies back (images) */
    int player;                   /* 0 Black, 1 White */
    int pass;
} sym_part;

typedef struct {
    int w, h, parts;
    sym_part *part;        /* a move on each square by Black, then by White, then the two passes */
    BDD current;           /* the variables of a state */
    BDD next;              /* their next-state copies */
    bddPair *to_next;      /* and the renaming into them */
    bddPair *swap;         /* each disc's colour and the side to move exchanged */
} sym_rel;

/* Parts to use, or'ed: the squares' moves, the passes, of either side. */
enum { SYM_PLACES = 1, SYM_PASSES = 2, SYM_BLACK = 4, SYM_WHITE = 8, SYM_ALL = 15 };

/* Starts BuDDy for a w x h board (node_limit as sym_immediate_wins): 0, or
 * -1 with err; bdd_done() ends it. */
int sym_bdd_start(int w, int h, int node_limit, char *err, size_t errlen);
/* -1 with err when BuDDy's node limit was reached since it started, else 0. */
int sym_bdd_failed(char *err, size_t errlen);
/* The variables of a state: each square's occupied and white, the side to move. */
BDD sym_current_vars(void);
/* The states of a board: an empty square's colour held at 0. */
BDD sym_valid_states(void);
/* The states over (no move for either side) with more discs of p (1 White). */
BDD sym_won(int p);
/* The states with exactly n discs. */
BDD sym_discs_exactly(int n);
/* Starts BuDDy and builds the relation of a w x h board: 0, or -1 with err. */
int sym_rel_open(sym_rel *r, int w, int h, int node_limit, char *err, size_t errlen);
/* Frees the relation and stops BuDDy. */
void sym_rel_close(sym_rel *r);
/* The state of board (sq = row * w + column: -1, 0 Black, 1 White). */
BDD sym_rel_start(const sym_rel *r, const int *board, int white_to_move);
/* The successors of the states of set by the parts which selects. */
BDD sym_rel_image(const sym_rel *r, BDD set, int which);
/* The states with a successor in set by the parts which selects. */
BDD sym_rel_preimage(const sym_rel *r, BDD set, int which);
/* The states of set with the colours exchanged: every disc's and the
 * side to move's (a state from which White can force a win becomes one
 * from which Black can). */
BDD sym_rel_swap(const sym_rel *r, BDD set);
/* The states reachable from start (algorithm 1), the reached set's nodes
 * after each image in s. */
BDD sym_reachable_set(const sym_rel *r, BDD start, sym_series *s);
/* Adds set's size to the series s. */
void sym_note(sym_series *s, BDD set);
/* The progress hook's chance (sym_set_progress): after an iteration whose
 * set has set_nodes nodes, or between a step's parts (-1). */
void sym_tick_now(int set_nodes);
/* BDD nodes of all the parts together. */
int sym_rel_nodes(const sym_rel *r);
/* Whether player p has a move, over the current state's variables. */
BDD sym_has_move(int p);
/* a op b, a and b released. */
BDD sym_join(BDD a, BDD b, int op);
/* A disc of player p on sq (next: in the successor). */
BDD sym_disc(int sq, int p, int next);
/* The variables: occupied, white (next: the successor's copy), side to move. */
int sym_occ_var(int sq, int next);
int sym_white_var(int sq, int next);
int sym_turn_var(int next);

/* A run's state between two iterations of algorithms 2-5 (progress.c). */
#define SYM_PROGRESS_BDDS 3
typedef struct {
    int w, h, algo, keep, white, board[64];  /* the run: a save is taken up by the same run only */
    int side;              /* the side under way: 1 White (done first), 0 Black */
    int step;              /* its rounds done (fixpoint) or the disc count of its next layer (sweep) */
    int start;             /* sym_result.start so far */
    sym_series series[2];  /* each side's, finished or so far */
    int nbdd;
    BDD bdd[SYM_PROGRESS_BDDS];  /* fixpoint: won, fresh; sweep: the last layer's set, the union kept; then
                                    White's whole set when kept and Black is under way */
} sym_progress;
/* Writes g to path (temporary name, then renamed): 0, or -1 with err. */
int sym_progress_save(const char *path, const sym_progress *g, char *err, size_t errlen);
/* Reads the save at path of the run g names (its run fields set): 1 with
 * the rest of g filled (its sets referenced), 0 when path does not exist,
 * -1 with err (another run's save, damaged, not a regular file). */
int sym_progress_load(const char *path, sym_progress *g, char *err, size_t errlen);

#endif
