/* tbreach/tbreach.h - the states of a game's tables reachable from a
 * position by legal moves, breadth first over the tables' state indices,
 * resumable from a checkpoint. */
#ifndef PNSOLVE_TBREACH_H
#define PNSOLVE_TBREACH_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"

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
