/* tblayers/tblayers.h - strong solutions by layers for games with
 * layer ranks (Othello to 40 squares): the states reachable from the start
 * found a layer at a time (tb_sweep), then scored from the full board up
 * (tb_layers_build), and checked (tb_layers_verify).  The files and their
 * reading are tbfile.h's; a program probes them through tablebase.h. */
#ifndef PNSOLVE_TBLAYERS_H
#define PNSOLVE_TBLAYERS_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"
#include "../tbfile/tbfile.h"

/* --- reachable states by layers, compactly ---------------------------------
 * For games with layer ranks (game_has_layers: Othello to 40 squares): every
 * state reachable from the start, found forward a layer (a number of empty
 * squares) at a time and saved as compact sets of ranks, about a byte a
 * state where layers.c's keys take 16 (tblayers/sweep.c). */

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
 * tb_sweep finds (tblayers/layers.c): a byte a state beside the sets. */

/* Builds g's strong solution into dir: the layers (tb_sweep with o), then
 * their scores from the full board up, each layer saved as it is done (a
 * later build resumes); refuses before scoring when the sets and a byte a
 * state would pass max_bytes (0: no limit).  0, 1 when *o->stop ended it,
 * or -1 with err. */
int tb_layers_build(const game *g, const char *dir, const tb_sweep_options *o, uint64_t max_bytes, char *err,
                    size_t errlen);
/* Re-derives every state's score from its children's stored scores (and
 * checks that every child is there) and each layer's counts on threads
 * threads: the number of wrong states and counts. */
uint64_t tb_layers_verify(const tb_layers *t, int threads);

#endif
