/* games/othello/othello_bits.h - private to games/: Othello bitboard primitives
 * shared by the rules (othello.c) and the exact endgame solver
 * (othello_solve.c).
 *
 * Every board lives in the top-left corner of an 8x8 bitboard (square =
 * row*8 + col, row 0 at the top).  Squares off the board are never occupied,
 * so they stop every line like an empty square. */
#ifndef PNSOLVE_OTHELLO_BITS_H
#define PNSOLVE_OTHELLO_BITS_H

#include <stdint.h>

#define OTHELLO_INNER_COLS 0x7e7e7e7e7e7e7e7eULL

/* Squares where the player with discs p may play against o (Kogge-Stone
 * fill in the four line directions, both ways).  The plain form;
 * othello_legal is the vector form where the machine has one (tests compare
 * the two). */
static inline uint64_t othello_legal_plain(uint64_t p, uint64_t o, uint64_t board)
{
    static const int shift[4] = { 1, 8, 9, 7 };
    const uint64_t omask[4] = { o & OTHELLO_INNER_COLS, o, o & OTHELLO_INNER_COLS, o & OTHELLO_INNER_COLS };
    uint64_t empty = ~(p | o) & board, moves = 0;
    for (int i = 0; i < 4; i++) {
        int s = shift[i];
        uint64_t m = omask[i];
        uint64_t f = (p << s) & m, b = (p >> s) & m;
        f |= (f << s) & m; b |= (b >> s) & m;
        uint64_t m2 = m & (m << s), m3 = m & (m >> s);
        f |= (f << (2 * s)) & m2; b |= (b >> (2 * s)) & m3;
        f |= (f << (2 * s)) & m2; b |= (b >> (2 * s)) & m3;
        moves |= (f << s) | (b >> s);
    }
    return moves & empty;
}

#if defined(__AVX2__)
#include <immintrin.h>
#define OTHELLO_LEGAL_VECTOR 1
/* The four directions as the lanes of one vector: the solver's move order
 * asks this of every child (FFO #40-44 in 0.85 of the time). */
static inline uint64_t othello_legal(uint64_t p, uint64_t o, uint64_t board)
{
    const __m256i shift = _mm256_set_epi64x(7, 9, 8, 1), shift2 = _mm256_add_epi64(shift, shift);
    const long long oi = (long long)(o & OTHELLO_INNER_COLS);
    const __m256i m = _mm256_set_epi64x(oi, oi, (long long)o, oi), P = _mm256_set1_epi64x((long long)p);
    const __m256i m2 = _mm256_and_si256(m, _mm256_sllv_epi64(m, shift)), m3 = _mm256_and_si256(m, _mm256_srlv_epi64(m, shift));
    __m256i f = _mm256_and_si256(_mm256_sllv_epi64(P, shift), m), b = _mm256_and_si256(_mm256_srlv_epi64(P, shift), m);
    f = _mm256_or_si256(f, _mm256_and_si256(_mm256_sllv_epi64(f, shift), m));
    b = _mm256_or_si256(b, _mm256_and_si256(_mm256_srlv_epi64(b, shift), m));
    f = _mm256_or_si256(f, _mm256_and_si256(_mm256_sllv_epi64(f, shift2), m2));
    b = _mm256_or_si256(b, _mm256_and_si256(_mm256_srlv_epi64(b, shift2), m3));
    f = _mm256_or_si256(f, _mm256_and_si256(_mm256_sllv_epi64(f, shift2), m2));
    b = _mm256_or_si256(b, _mm256_and_si256(_mm256_srlv_epi64(b, shift2), m3));
    const __m256i mv = _mm256_or_si256(_mm256_sllv_epi64(f, shift), _mm256_srlv_epi64(b, shift));
    const __m128i h = _mm_or_si128(_mm256_castsi256_si128(mv), _mm256_extracti128_si256(mv, 1));
    return (uint64_t)(_mm_cvtsi128_si64(h) | _mm_extract_epi64(h, 1)) & ~(p | o) & board;
}
#else
static inline uint64_t othello_legal(uint64_t p, uint64_t o, uint64_t board) { return othello_legal_plain(p, o, board); }
#endif

/* The squares next to the discs of x (off-board squares included: mask
 * with the board). */
static inline uint64_t othello_neighbours(uint64_t x)
{
    const uint64_t not_a = 0xfefefefefefefefeULL, not_h = 0x7f7f7f7f7f7f7f7fULL;
    return ((x << 1 | x << 9 | x >> 7) & not_a) | ((x >> 1 | x >> 9 | x << 7) & not_h) | x << 8 | x >> 8;
}

/* The rays from each square in the 8 directions: [0..3] towards higher
 * square numbers (east, south-west, south, south-east), [4..7] towards lower
 * ones; built once by othello_rays_init. */
extern uint64_t othello_rays[64][8];
/* The up to 8 squares around each square: a move there flips something
 * only if one of them holds an opponent's disc. */
extern uint64_t othello_around[64];
/* Fills othello_rays; idempotent, called before any game is used. */
void othello_rays_init(void);

/* Discs of o that a disc of p placed on the empty square sq turns over:
 * along each ray the first square that is not o's ends the line, and the
 * line flips when p holds it.  The plain form; othello_flips is the
 * vector form where the machine has one (tests compare the two). */
static inline uint64_t othello_flips_plain(uint64_t p, uint64_t o, unsigned sq)
{
    const uint64_t *ray = othello_rays[sq];
    uint64_t all = 0;
    for (int d = 0; d < 4; d++) {  /* the first non-o square is the lowest */
        uint64_t stop = ray[d] & ~o, b = stop & (0 - stop);
        if (b & p)
            all |= ray[d] & (b - 1);
    }
    for (int d = 4; d < 8; d++) {  /* ... or the highest */
        uint64_t stop = ray[d] & ~o;
        if (stop) {
            uint64_t b = 1ULL << (63 - __builtin_clzll(stop));
            if (b & p)
                all |= ray[d] & ~((b << 1) - 1);
        }
    }
    return all;
}

#if defined(__AVX512VL__) && defined(__AVX512CD__)
#include <immintrin.h>
#define OTHELLO_FLIPS_VECTOR 1
/* The eight rays at once, without branches: the endgame solver spends most
 * of its time here, and the plain form's branch on each ray mispredicts. */
static inline uint64_t othello_flips(uint64_t p, uint64_t o, unsigned sq)
{
    const __m256i P = _mm256_set1_epi64x((long long)p), O = _mm256_set1_epi64x((long long)o);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i up = _mm256_loadu_si256((const __m256i *)othello_rays[sq]);
    const __m256i down = _mm256_loadu_si256((const __m256i *)(othello_rays[sq] + 4));
    __m256i stop = _mm256_andnot_si256(O, up);
    __m256i end = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));  /* lowest */
    __m256i all = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(end, P),
                                         _mm256_and_si256(up, _mm256_sub_epi64(end, _mm256_set1_epi64x(1))));
    stop = _mm256_andnot_si256(O, down);
    end = _mm256_srlv_epi64(_mm256_set1_epi64x(INT64_MIN), _mm256_lzcnt_epi64(stop));  /* highest, 0 if none */
    all = _mm256_or_si256(all, _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(end, P),
                                                      _mm256_and_si256(down, _mm256_sub_epi64(zero, _mm256_slli_epi64(end, 1)))));
    __m128i h = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
    return (uint64_t)(_mm_cvtsi128_si64(h) | _mm_extract_epi64(h, 1));
}
#else
static inline uint64_t othello_flips(uint64_t p, uint64_t o, unsigned sq) { return othello_flips_plain(p, o, sq); }
#endif

/* The image of a bitboard under symmetry k of the W x H board: bit 0
 * mirrors the columns, bit 1 the rows, bit 2 swaps rows and columns (square
 * boards only).  Not for hot loops: a square at a time. */
static inline uint64_t othello_transform(uint64_t b, int k, int W, int H)
{
    uint64_t out = 0;
    for (; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), r = sq / 8, c = sq % 8;
        if (k & 1) c = W - 1 - c;
        if (k & 2) r = H - 1 - r;
        if (k & 4) { int t = r; r = c; c = t; }
        out |= 1ULL << (r * 8 + c);
    }
    return out;
}

#endif
