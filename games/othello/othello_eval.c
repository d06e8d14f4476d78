/* games/othello/othello_eval.c - the board's shape, its stable discs and the fitted
 * evaluation that orders the endgame solver's moves (othello_eval.h). */
#include "othello_eval.h"
#include "othello_bits.h"

#include <pthread.h>

static int on_board(int r, int c, int W, int H)
{
    return r >= 0 && r < H && c >= 0 && c < W;
}

/* Each fit's patterns, loaded once for every solver of its board. */
enum { FITS_MAX = 8 };
static othello_patterns fit_loaded[FITS_MAX];
static pthread_mutex_t fit_lock = PTHREAD_MUTEX_INITIALIZER;

static void fit_find(othello_shape *s, int W, int H)
{
    for (int i = 0; i < othello_pattern_fit_count && i < FITS_MAX; i++) {
        const othello_pattern_fit *f = &othello_pattern_fits[i];
        if (f->width != W || f->height != H)
            continue;
        pthread_mutex_lock(&fit_lock);
        othello_patterns *P = &fit_loaded[i];
        if (!P->loaded) {
            othello_patterns_init(P, W, H);
            int same = P->classes == f->classes;
            for (int c = 0; same && c < P->classes; c++)
                same = P->weights_per_class[c] == f->weights[c];
            if (!same || othello_patterns_load(P, f->classes_weights) != 0)
                othello_patterns_free(P);  /* a fit of other patterns: the features alone */
        }
        pthread_mutex_unlock(&fit_lock);
        if (P->loaded) {
            s->fit = f;
            s->patterns = P;
        }
        return;
    }
}

void othello_shape_init(othello_shape *s, int W, int H)
{
    static const int dr[4] = { 0, 1, 1, 1 }, dc[4] = { 1, 0, 1, -1 };
    *s = (othello_shape){ .squares = W * H };
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            uint64_t bit = 1ULL << (r * 8 + c);
            s->region[(r >= H / 2) * 2 + (c >= W / 2)] |= bit;
            int rim_r = r == 0 || r == H - 1, rim_c = c == 0 || c == W - 1;
            int near_r = r == 1 || r == H - 2, near_c = c == 1 || c == W - 2;
            if (rim_r && rim_c)
                s->corners |= bit;
            else if (near_r && near_c)
                s->xsq |= bit;
            else if ((rim_r && near_c) || (rim_c && near_r))
                s->csq |= bit;
            else if (rim_r || rim_c)
                s->edge |= bit;
        }
    for (int i = 0; i < 4; i++)
        s->board |= s->region[i];
    fit_find(s, W, H);
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++) {
                int has_prev = on_board(r - dr[d], c - dc[d], W, H), has_next = on_board(r + dr[d], c + dc[d], W, H);
                if (!has_prev || !has_next)
                    s->rim[d] |= 1ULL << (r * 8 + c);
            }
}

/* The squares of full lines along direction d of an 8x8 bitboard whose
 * empty squares are e: every square an empty one cannot reach along d, by a
 * fill of distances 1, 2 and 4 each way (squares off a smaller board count
 * as filled, so a board's line is full when its 8x8 line is). */
static uint64_t full_lines(uint64_t e, int d)
{
    /* shift per step, and the columns a shift up (down) by 1, 2 or 4 steps
     * may land on without wrapping round a row */
    static const int shift[4] = { 1, 8, 9, 7 };
    static const uint64_t up[4][3] = { { 0xfefefefefefefefeULL, 0xfcfcfcfcfcfcfcfcULL, 0xf0f0f0f0f0f0f0f0ULL },
                                       { ~0ULL, ~0ULL, ~0ULL },
                                       { 0xfefefefefefefefeULL, 0xfcfcfcfcfcfcfcfcULL, 0xf0f0f0f0f0f0f0f0ULL },
                                       { 0x7f7f7f7f7f7f7f7fULL, 0x3f3f3f3f3f3f3f3fULL, 0x0f0f0f0f0f0f0f0fULL } };
    static const uint64_t down[4][3] = { { 0x7f7f7f7f7f7f7f7fULL, 0x3f3f3f3f3f3f3f3fULL, 0x0f0f0f0f0f0f0f0fULL },
                                         { ~0ULL, ~0ULL, ~0ULL },
                                         { 0x7f7f7f7f7f7f7f7fULL, 0x3f3f3f3f3f3f3f3fULL, 0x0f0f0f0f0f0f0f0fULL },
                                         { 0xfefefefefefefefeULL, 0xfcfcfcfcfcfcfcfcULL, 0xf0f0f0f0f0f0f0f0ULL } };
    int s = shift[d];
    for (int k = 0; k < 3; k++, s *= 2)
        e |= ((e << s) & up[d][k]) | ((e >> s) & down[d][k]);
    return ~e;
}

/* A fixed point: a stable disc, along each of the four line directions, is
 * on a full line, or on the rim, or next to a stable disc of its own.
 * Fewer than all of them (a disc can also be safe between the other side's
 * stable discs), which is all a bound needs. */
uint64_t othello_stable(const othello_shape *s, uint64_t p, uint64_t o)
{
    const uint64_t not_a = 0xfefefefefefefefeULL, not_h = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t empty = s->board & ~(p | o), safe[4];
    for (int d = 0; d < 4; d++)
        safe[d] = s->rim[d] | full_lines(empty, d);
    uint64_t stable = o & safe[0] & safe[1] & safe[2] & safe[3], last;
    do {
        last = stable;
        uint64_t row = safe[0] | ((stable << 1) & not_a) | ((stable >> 1) & not_h);
        uint64_t col = safe[1] | stable << 8 | stable >> 8;
        uint64_t dia = safe[2] | ((stable << 9) & not_a) | ((stable >> 9) & not_h);
        uint64_t anti = safe[3] | ((stable << 7) & not_h) | ((stable >> 7) & not_a);
        stable |= o & row & col & dia & anti;
    } while (stable != last);
    return stable;
}

static int count(uint64_t x)
{
    return __builtin_popcountll(x);
}

void othello_features(const othello_shape *s, uint64_t p, uint64_t o, int f[OTHELLO_FEATURES])
{
    uint64_t empty = s->board & ~(p | o);
    /* X- and C-squares matter while their corner is empty */
    uint64_t open = othello_neighbours(s->corners & empty);
    f[OTHELLO_F_CORNERS] = count(p & s->corners) - count(o & s->corners);
    f[OTHELLO_F_XSQ] = count(p & s->xsq & open) - count(o & s->xsq & open);
    f[OTHELLO_F_CSQ] = count(p & s->csq & open) - count(o & s->csq & open);
    f[OTHELLO_F_EDGE] = count(p & s->edge) - count(o & s->edge);
    f[OTHELLO_F_DISCS] = count(p) - count(o);
    f[OTHELLO_F_MOBILITY] = count(othello_legal(p, o, s->board));
    f[OTHELLO_F_OMOBILITY] = count(othello_legal(o, p, s->board));
    f[OTHELLO_F_FRONTIER] = count(othello_neighbours(o) & empty);
    f[OTHELLO_F_OFRONTIER] = count(othello_neighbours(p) & empty);
    f[OTHELLO_F_STABLE] = count(othello_stable(s, o, p));
    f[OTHELLO_F_OSTABLE] = count(othello_stable(s, p, o));
    f[OTHELLO_F_PARITY] = count(empty) & 1;
    f[OTHELLO_F_ONE] = 1;
}

int othello_eval(const othello_shape *s, uint64_t p, uint64_t o)
{
    int f[OTHELLO_FEATURES], e = count(s->board & ~(p | o));
    const int32_t *w = othello_weights[e < OTHELLO_STAGES ? e : OTHELLO_STAGES - 1];
    othello_features(s, p, o, f);
    int v = 0;
    if (s->patterns && e >= s->fit->min_empties) {
        w = s->fit->linear;
        v = othello_patterns_eval(s->patterns, p, o);
    }
    for (int i = 0; i < OTHELLO_FEATURES; i++)
        v += w[i] * f[i];
    return v;
}
