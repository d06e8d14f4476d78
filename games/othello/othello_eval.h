/* games/othello/othello_eval.h - private to games/: the shape of an Othello board
 * (the masks the endgame solver and the evaluation need, for any size up to
 * 8x8) and a fitted linear evaluation that orders the solver's moves.
 *
 * The evaluation never decides a value: the solver only sorts moves by it,
 * so a wrong weight costs nodes, never correctness (a test runs the solver
 * with the evaluation replaced by noise). */
#ifndef PNSOLVE_OTHELLO_EVAL_H
#define PNSOLVE_OTHELLO_EVAL_H

#include "../game.h"

#include <stdint.h>

/* Patterns: groups of squares (an edge with its X-squares, a corner's 3x3
 * block) whose discs, read as a base-3 number, index a fitted weight
 * (othello_pattern.c).  Instances of one class are each other's images
 * under the board's symmetries and share its weights. */
#define OTHELLO_PATTERN_MAX_SQUARES 10
#define OTHELLO_PATTERN_CLASSES 3
#define OTHELLO_PATTERN_INSTANCES 8

typedef struct {
    uint64_t mask;        /* its squares */
    int cls;
    uint16_t *canonical;  /* index as extracted (pext order) -> the class's index */
    int16_t *weight;      /* the class's weights by the extracted index */
} othello_pattern;

typedef struct {
    int classes, weights_per_class[OTHELLO_PATTERN_CLASSES];
    int n;
    othello_pattern instance[OTHELLO_PATTERN_INSTANCES];
    int loaded;           /* weights in place */
} othello_patterns;

/* The patterns of a W x H board, without weights. */
void othello_patterns_init(othello_patterns *P, int W, int H);
void othello_patterns_free(othello_patterns *P);
/* Each instance's class index (canonical order) for p to move against o,
 * into idx[P->n]: what a fit counts. */
void othello_patterns_index(const othello_patterns *P, uint64_t p, uint64_t o, int *idx);
/* Lays out class_weights[c][canonical index] per instance; -1 when out of memory. */
int othello_patterns_load(othello_patterns *P, const int16_t *const *class_weights);
/* The sum of the loaded weights, for p to move against o. */
int othello_patterns_eval(const othello_patterns *P, uint64_t p, uint64_t o);

typedef struct {
    uint64_t board;
    int squares;
    uint64_t corners;    /* the four corners */
    uint64_t xsq;        /* the squares diagonally next to a corner */
    uint64_t csq;        /* the rim squares next to a corner */
    uint64_t edge;       /* the other rim squares */
    uint64_t region[4];  /* the quadrants, for the parity order */
    /* per line direction (row, column, two diagonals): the squares with no
     * board square next to them on one side or the other along it (for the
     * stable discs) */
    uint64_t rim[4];
    const struct othello_pattern_fit *fit;  /* this board's pattern fit, or NULL */
    const othello_patterns *patterns;  /* its patterns, weights loaded */
} othello_shape;

/* Fills s for a W x H board in the top-left corner of the bitboard, with
 * the board's pattern fit where there is one. */
void othello_shape_init(othello_shape *s, int W, int H);

/* Discs of o that no sequence of moves can flip (a subset: enough for a
 * bound), given p the other side's discs. */
uint64_t othello_stable(const othello_shape *s, uint64_t p, uint64_t o);

/* The features of a position for the side to move with discs p (o: the
 * other's), each from p's view; the evaluation is their weighted sum. */
enum {
    OTHELLO_F_CORNERS,    /* corner discs, p's minus o's */
    OTHELLO_F_XSQ,        /* X-square discs next to an empty corner, p's minus o's */
    OTHELLO_F_CSQ,        /* C-square discs next to an empty corner, p's minus o's */
    OTHELLO_F_EDGE,       /* other rim discs, p's minus o's */
    OTHELLO_F_DISCS,      /* all discs, p's minus o's */
    OTHELLO_F_MOBILITY,   /* p's legal moves */
    OTHELLO_F_OMOBILITY,  /* o's legal moves (were o to move) */
    OTHELLO_F_FRONTIER,   /* empty squares next to o's discs (p's potential moves) */
    OTHELLO_F_OFRONTIER,  /* empty squares next to p's discs */
    OTHELLO_F_STABLE,     /* p's stable discs */
    OTHELLO_F_OSTABLE,    /* o's stable discs */
    OTHELLO_F_PARITY,     /* 1 if the empty squares are odd (p would play last), else 0 */
    OTHELLO_F_ONE,        /* 1 */
    OTHELLO_FEATURES
};

/* A pattern fit of one board (games/othello/othello_pattern_weights.c, written by
 * bench/fit/othello_eval.c --patterns): used from min_empties empty squares
 * up, with its own weights of the features beside the patterns'. */
typedef struct othello_pattern_fit {
    int width, height, min_empties, classes;
    int weights[OTHELLO_PATTERN_CLASSES];  /* per class, how many (checked against the patterns) */
    int32_t linear[OTHELLO_FEATURES];
    const int16_t *const *classes_weights;  /* per class, by canonical index */
} othello_pattern_fit;
extern const othello_pattern_fit othello_pattern_fits[];
extern const int othello_pattern_fit_count;

/* Fills f[OTHELLO_FEATURES] for p to move against o. */
void othello_features(const othello_shape *s, uint64_t p, uint64_t o, int f[OTHELLO_FEATURES]);

/* Weights per number of empty squares (the stage), in 1/OTHELLO_EVAL_ONE
 * of a disc; stages beyond the last fitted one use the last
 * (games/othello/othello_weights.c, written by bench/fit/othello_eval.c). */
#define OTHELLO_EVAL_ONE 256
#define OTHELLO_STAGES 33
extern const int32_t othello_weights[OTHELLO_STAGES][OTHELLO_FEATURES];

/* The expected final score for p, in 1/OTHELLO_EVAL_ONE of a disc. */
int othello_eval(const othello_shape *s, uint64_t p, uint64_t o);

/* Sets where the solver x orders moves by the evaluation (from eval_min
 * empty squares) and, where noise is not 0, replaces the evaluation by
 * noise from that seed: tests show that the order never changes a value. */
void othello_solver_order(game_solver *x, int eval_min, uint64_t noise);

/* Sets from how many empty squares a node of x may share its moves out
 * among idle threads (tests lower it: many splits, nested ones too). */
void othello_solver_split_min(game_solver *x, int empties);

#endif
