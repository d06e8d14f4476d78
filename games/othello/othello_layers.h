/* games/othello/othello_layers.h - private to games/: perfect ranks of the
 * Othello states with a given number of discs (game_layer_ops), folded by
 * the symmetries of the start. */
#ifndef PNSOLVE_OTHELLO_LAYERS_H
#define PNSOLVE_OTHELLO_LAYERS_H

#include <stdint.h>

typedef struct othello_layers othello_layers;

/* The ranks of a W x H board whose start has Black on black and White on
 * white (8x8 bitboards); NULL when out of memory. */
othello_layers *othello_layers_new(int w, int h, uint64_t black, uint64_t white);
void othello_layers_free(othello_layers *x);
/* The number of ranks of the states with e empty squares (0 when they do
 * not fit 64 bits: boards of more than 40 squares). */
uint64_t othello_layers_size(const othello_layers *x, int empties);
/* The least rank among the images of (black, white, side) under the start's
 * symmetries, and in *images how many distinct states have it. */
uint64_t othello_layers_rank(const othello_layers *x, uint64_t black, uint64_t white, int side, int *images);
/* The state of rank r among those with e empty squares. */
void othello_layers_unrank(const othello_layers *x, int empties, uint64_t r, uint64_t *black, uint64_t *white, int *side);

#endif
