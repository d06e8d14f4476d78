/* games/othello/othello_pattern.c - the pattern part of the evaluation that orders
 * the endgame solver's moves (othello_eval.h): the discs of a few groups of
 * squares (an edge with its two X-squares, a corner's 3x3 block) read as
 * one base-3 number that indexes a fitted weight.
 *
 * A group's instances are its images under the board's symmetries, each
 * listed in one canonical order, so that one class of weights serves them
 * all; a configuration and its image under the group's own reflection
 * share a weight too (fewer weights to fit, and the evaluation is the same
 * for every image of a position).  Reading the squares one by one in that
 * order costs a loop per instance; instead each instance has its own copy
 * of the class's weights laid out in the order a bit extraction (pext)
 * gathers its squares, so an instance costs two extractions and three
 * lookups. */
#include "othello_eval.h"

#include <stdlib.h>
#include <string.h>

#if defined(__BMI2__)
#include <immintrin.h>
static inline uint64_t gather(uint64_t x, uint64_t mask) { return _pext_u64(x, mask); }
#else
static inline uint64_t gather(uint64_t x, uint64_t mask)
{
    uint64_t r = 0;
    for (uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            r |= bit;
    return r;
}
#endif

/* base 3 of the binary digits: the ternary index of one side's discs */
static uint16_t ternary[1 << OTHELLO_PATTERN_MAX_SQUARES];

static void ternary_init(void)
{
    if (ternary[2])
        return;
    for (unsigned b = 0; b < 1u << OTHELLO_PATTERN_MAX_SQUARES; b++) {
        unsigned t = 0, pow = 1;
        for (unsigned v = b; v; v >>= 1, pow *= 3)
            t += (v & 1) * pow;
        ternary[b] = (uint16_t)t;
    }
}

static int pow3(int k)
{
    int v = 1;
    while (k--)
        v *= 3;
    return v;
}

/* The position in list sq[0..k) of each square of mask, lowest bit first:
 * where each extracted digit goes. */
static void digit_places(uint64_t mask, const int *sq, int k, int *place)
{
    int d = 0;
    for (int bit = 0; bit < 64; bit++)
        if (mask >> bit & 1)
            for (int i = 0; i < k; i++)
                if (sq[i] == bit)
                    place[d++] = i;
}

/* Adds the instance of class c whose squares are sq[0..k) in canonical
 * order, and mirror[0..k) in the order of the pattern's own reflection (an
 * edge read from its other end, a corner block transposed): a
 * configuration and its reflection are one weight, the smaller index. */
static void add_instance(othello_patterns *P, int c, const int *sq, const int *mirror, int k)
{
    othello_pattern *in = &P->instance[P->n++];
    in->cls = c;
    in->mask = 0;
    for (int i = 0; i < k; i++)
        in->mask |= 1ULL << sq[i];
    int place[OTHELLO_PATTERN_MAX_SQUARES], mplace[OTHELLO_PATTERN_MAX_SQUARES];
    digit_places(in->mask, sq, k, place);
    digit_places(in->mask, mirror, k, mplace);
    int n = pow3(k);
    in->canonical = malloc((size_t)n * sizeof *in->canonical);
    for (int t = 0; t < n; t++) {
        int v = t, idx = 0, midx = 0;
        for (int j = 0; j < k; j++, v /= 3) {
            idx += (v % 3) * pow3(k - 1 - place[j]);
            midx += (v % 3) * pow3(k - 1 - mplace[j]);
        }
        in->canonical[t] = (uint16_t)(idx < midx ? idx : midx);
    }
}

static int at(int r, int c) { return r * 8 + c; }

void othello_patterns_init(othello_patterns *P, int W, int H)
{
    ternary_init();
    memset(P, 0, sizeof *P);
    int sq[OTHELLO_PATTERN_MAX_SQUARES], mirror[OTHELLO_PATTERN_MAX_SQUARES];
    if (W >= 4 && H >= 4 && W + 2 <= OTHELLO_PATTERN_MAX_SQUARES && H + 2 <= OTHELLO_PATTERN_MAX_SQUARES) {
        /* an edge and the X-squares of its corners: rows first, then columns
         * (the same class where the board is square) */
        int rows = P->classes++;
        P->weights_per_class[rows] = pow3(W + 2);
        for (int side = 0; side < 2; side++) {
            int r = side ? H - 1 : 0, x = side ? H - 2 : 1;
            for (int c = 0; c < W; c++)
                sq[c] = at(r, c), mirror[c] = at(r, W - 1 - c);
            sq[W] = mirror[W + 1] = at(x, 1), sq[W + 1] = mirror[W] = at(x, W - 2);
            add_instance(P, rows, sq, mirror, W + 2);
        }
        int cols = rows;
        if (W != H) {
            cols = P->classes++;
            P->weights_per_class[cols] = pow3(H + 2);
        }
        for (int side = 0; side < 2; side++) {
            int c = side ? W - 1 : 0, x = side ? W - 2 : 1;
            for (int r = 0; r < H; r++)
                sq[r] = at(r, c), mirror[r] = at(H - 1 - r, c);
            sq[H] = mirror[H + 1] = at(1, x), sq[H + 1] = mirror[H] = at(H - 2, x);
            add_instance(P, cols, sq, mirror, H + 2);
        }
    }
    if (W >= 3 && H >= 3) {  /* a corner's 3x3 block, from the corner outwards */
        int corner = P->classes++;
        P->weights_per_class[corner] = pow3(9);
        for (int k = 0; k < 4; k++) {
            int down = k & 1, right = k >> 1;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    sq[i * 3 + j] = at(down ? H - 1 - i : i, right ? W - 1 - j : j);
                    mirror[j * 3 + i] = sq[i * 3 + j];
                }
            add_instance(P, corner, sq, mirror, 9);
        }
    }
}

void othello_patterns_free(othello_patterns *P)
{
    for (int i = 0; i < P->n; i++) {
        free(P->instance[i].canonical);
        free(P->instance[i].weight);
    }
    memset(P, 0, sizeof *P);
}

/* The extracted (not canonical) index of instance in for p to move. */
static inline unsigned extracted(const othello_pattern *in, uint64_t p, uint64_t o)
{
    return ternary[gather(p, in->mask)] + 2u * ternary[gather(o, in->mask)];
}

void othello_patterns_index(const othello_patterns *P, uint64_t p, uint64_t o, int *idx)
{
    for (int i = 0; i < P->n; i++)
        idx[i] = P->instance[i].canonical[extracted(&P->instance[i], p, o)];
}

int othello_patterns_load(othello_patterns *P, const int16_t *const *class_weights)
{
    for (int i = 0; i < P->n; i++) {
        othello_pattern *in = &P->instance[i];
        int n = P->weights_per_class[in->cls];
        free(in->weight);
        if (!(in->weight = malloc((size_t)n * sizeof *in->weight)))
            return -1;
        for (int t = 0; t < n; t++)
            in->weight[t] = class_weights[in->cls][in->canonical[t]];
    }
    P->loaded = 1;
    return 0;
}

int othello_patterns_eval(const othello_patterns *P, uint64_t p, uint64_t o)
{
    int v = 0;
    for (int i = 0; i < P->n; i++)
        v += P->instance[i].weight[extracted(&P->instance[i], p, o)];
    return v;
}
