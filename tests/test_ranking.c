/* tests/test_ranking.c - Lehmer ranking: inverse, range, symmetry, order. */
#include "ref.h"
#include "suites.h"
#include "../ranking/ranking.h"

#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 0x2545F4914F6CDD1DULL;

/* Reference geometry from docs/rules.md's wording, not from ranking.c. */
static int ref_location(int file, int rank)
{
    static const char *const columns[7] = { "a7a6a5a4a3a2a1", "b7b6b5b4b3b2b1", "c7c6c5c4c3c2c1", "d6d5d4d3d2",
                                            "e7e6e5e4e3e2e1", "f7f6f5f4f3f2f1", "g7g6g5g4g3g2g1" };
    int loc = 0;
    for (int c = 0; c < 7; c++)
        for (const char *s = columns[c]; *s; s += 2, loc++)
            if (s[0] == 'a' + file && s[1] == '0' + rank)
                return loc;
    return -1;
}

static void test_locations(void)
{
    for (int sq = 0; sq < 49; sq++)
        CU_ASSERT_EQUAL(rank_location(sq), ref_location(sq % 7, sq / 7 + 1));
    for (int loc = 0; loc < 47; loc++)
        CU_ASSERT_EQUAL(rank_location(rank_square(loc)), loc);
}

/* Thesis figure 5.1: R a5, r a4, T b3 has loc (2, 3, 11) and loc_index
 * (2, 2, 9); with the first digit's radix 26 (mirror reduction) the rank is
 * 2 + 2*26 + 9*26*46. */
static void test_thesis_example(void)
{
    rank_position p = { .n = 3, .side = 0, .piece = { 0, 1, 4 } };
    p.loc[0] = (uint8_t)ref_location(0, 5);
    p.loc[1] = (uint8_t)ref_location(0, 4);
    p.loc[2] = (uint8_t)ref_location(1, 3);
    CU_ASSERT_EQUAL(p.loc[0], 2);
    CU_ASSERT_EQUAL(p.loc[1], 3);
    CU_ASSERT_EQUAL(p.loc[2], 11);
    CU_ASSERT_EQUAL(rank_index(&p), 2 + 2 * 26 + 9 * 26 * 46);
}

static void test_materials(void)
{
    rank_material m[256], d[8];
    char name[16];
    int n = rank_materials(8, m, 256), by_size[9] = { 0 };
    for (int i = 0; i < n; i++) {
        by_size[__builtin_popcount(m[i])]++;
        CU_ASSERT_EQUAL(rank_material_canonical(m[i]), m[i]);
        rank_material_name(m[i], name);
        rank_material back;
        CU_ASSERT_EQUAL(rank_material_parse(name, &back), 0);
        CU_ASSERT_EQUAL(back, m[i]);
        /* Dependencies have one piece less and come earlier. */
        int nd = rank_material_deps(m[i], d);
        for (int k = 0; k < nd; k++) {
            CU_ASSERT_EQUAL(__builtin_popcount(d[k]), __builtin_popcount(m[i]) - 1);
            int earlier = 0;
            for (int j = 0; j < i; j++)
                earlier |= m[j] == d[k];
            CU_ASSERT(earlier);
        }
    }
    /* Pairs of colour-swapped materials, counted by hand: 2 pieces: 16
     * materials (4 symmetric) -> 10; 3 pieces: 48 -> 24; 4: 68 (6 symmetric) -> 37. */
    CU_ASSERT_EQUAL(by_size[2], 10);
    CU_ASSERT_EQUAL(by_size[3], 24);
    CU_ASSERT_EQUAL(by_size[4], 37);
    CU_ASSERT_EQUAL(by_size[5], 28);
    rank_material bad;
    CU_ASSERT_EQUAL(rank_material_parse("rR", &bad), -1);  /* out of order */
    CU_ASSERT_EQUAL(rank_material_parse("RR", &bad), -1);
    CU_ASSERT_EQUAL(rank_material_parse("RD", &bad), -1);  /* one colour */
    CU_ASSERT_EQUAL(rank_material_parse("Rx", &bad), -1);
    rank_material_parse("RrDTe", &bad);
    rank_material_name(bad, name);
    CU_ASSERT_STRING_EQUAL(name, "RrDTe");
}

static void mirror(rank_position *p)
{
    for (int i = 0; i < p->n; i++) {
        int sq = rank_square(p->loc[i]);
        p->loc[i] = (uint8_t)rank_location(sq / 7 * 7 + 6 - sq % 7);
    }
}

static uint64_t canonical_index(rank_position p)
{
    rank_canonicalize(&p);
    return rank_index(&p);
}

static uint64_t squares_index(const rank_position *p)
{
    uint8_t sq[8];
    memset(sq, RANK_ABSENT, sizeof sq);
    for (int i = 0; i < p->n; i++)
        sq[p->piece[i]] = (uint8_t)rank_square(p->loc[i]);
    return rank_index_squares(sq, p->side);
}

/* Every index: the Lehmer code inverts, and a twin (a position whose mirror
 * is its canonical form) points at an index whose position is its mirror. */
static void check_index(rank_material m, uint64_t r, long *twins)
{
    rank_position p;
    rank_unindex(m, r, &p);
    CU_ASSERT_EQUAL(rank_index(&p), r);
    uint64_t c = canonical_index(p);
    CU_ASSERT_EQUAL(squares_index(&p), c);
    if (c != r) {
        rank_position q = p, t;
        mirror(&q);
        rank_unindex(m, c, &t);
        CU_ASSERT(memcmp(q.loc, t.loc, (size_t)q.n) == 0 && q.side == t.side);
        CU_ASSERT_EQUAL(rank_square(p.loc[0]) % 7, 3);  /* only file-d first pieces have twins */
        (*twins)++;
    }
}

static void test_inverse_small(void)
{
    rank_material m[256];
    int n = rank_materials(3, m, 256);
    long twins = 0, total = 0;
    for (int i = 0; i < n; i++) {
        uint64_t size = rank_size(m[i]);
        total += (long)size;
        for (uint64_t r = 0; r < size; r++)
            check_index(m[i], r, &twins);
    }
    CU_ASSERT(twins > 0 && twins < total / 10);
}

static void test_inverse_random(void)
{
    rank_material m[256];
    int n = rank_materials(8, m, 256);
    long twins = 0;
    for (int k = 0; k < 2000000; k++) {
        rank_material mat = m[ref_rand(&seed) % (unsigned)n];
        if (__builtin_popcount(mat) < 4)
            continue;
        check_index(mat, ref_rand(&seed) % rank_size(mat), &twins);
    }
}

/* A random placement of a random piece set and side; 0 if a colour is missing. */
static int random_position(rank_position *p)
{
    uint64_t used = 0;
    memset(p, 0, sizeof *p);
    for (int q = 0; q < 8; q++) {
        if (ref_rand(&seed) % 2)
            continue;
        int loc;
        do loc = (int)(ref_rand(&seed) % 47); while (used >> loc & 1);
        used |= 1ULL << loc;
        p->piece[p->n] = (uint8_t)q;
        p->loc[p->n++] = (uint8_t)loc;
    }
    p->side = (int)(ref_rand(&seed) % 2);
    rank_material m = rank_material_of(p);
    return (m & 0x55) && (m & 0xAA);
}

/* Random positions of any material: in range, and the same entry as their
 * mirror, their colour swap and both. */
static void test_symmetry(void)
{
    for (int k = 0; k < 1000000; k++) {
        rank_position p;
        if (!random_position(&p))
            continue;
        rank_material mat = rank_material_of(&p);
        uint64_t r = canonical_index(p);
        CU_ASSERT(r < rank_size(rank_material_canonical(mat)));
        rank_position m1 = p, s = p, ms;
        mirror(&m1);
        for (int i = 0; i < s.n; i++) {  /* colour swap: ranks flipped, pieces change colour */
            int sq = rank_square(s.loc[i]);
            s.loc[i] = (uint8_t)rank_location((6 - sq / 7) * 7 + sq % 7);
            s.piece[i] ^= 1;
        }
        s.side ^= 1;
        for (int i = 1; i < s.n; i++)  /* keep pieces ascending */
            for (int j = i; j > 0 && s.piece[j - 1] > s.piece[j]; j--) {
                uint8_t t = s.piece[j]; s.piece[j] = s.piece[j - 1]; s.piece[j - 1] = t;
                t = s.loc[j]; s.loc[j] = s.loc[j - 1]; s.loc[j - 1] = t;
            }
        ms = s;
        mirror(&ms);
        CU_ASSERT_EQUAL(canonical_index(m1), r);
        CU_ASSERT_EQUAL(canonical_index(s), r);
        CU_ASSERT_EQUAL(canonical_index(ms), r);
        CU_ASSERT_EQUAL(squares_index(&ms), r);
    }
}

/* Incremental ranking of one-piece changes equals ranking from scratch. */
static void test_mover(void)
{
    long swap_paths = 0;
    for (int k = 0; k < 300000; k++) {
        rank_position p;
        if (!random_position(&p))
            continue;
        if (k % 2)
            rank_canonicalize(&p);  /* the builder's case; the rest: any position */
        uint64_t used = 0;
        for (int i = 0; i < p.n; i++)
            used |= 1ULL << p.loc[i];
        rank_mover mv;
        rank_mover_init(&mv, &p);
        if (k % 2) {  /* a canonical position: prepared from its index, the same mover */
            rank_mover from_index;
            rank_mover_unindex(&from_index, rank_material_of(&p), rank_index(&p));
            const rank_lehmer *x = &from_index.base, *y = &mv.base;
            const rank_position *a = &x->p, *b = &y->p;
            CU_ASSERT(a->n == b->n && a->side == b->side && memcmp(a->piece, b->piece, (size_t)p.n) == 0 &&
                      memcmp(a->loc, b->loc, (size_t)p.n) == 0 && x->code == y->code &&
                      memcmp(x->digit, y->digit, (size_t)p.n) == 0 &&
                      memcmp(x->before, y->before, (size_t)p.n * sizeof *y->before) == 0 &&
                      from_index.plain[0] == mv.plain[0] && from_index.plain[1] == mv.plain[1] &&
                      from_index.swapped == mv.swapped);
            for (int w = 0; w < 2 * mv.swapped; w++)
                CU_ASSERT(from_index.sw[w].code == mv.sw[w].code &&
                          memcmp(from_index.sw[w].p.loc, mv.sw[w].p.loc, (size_t)p.n) == 0);
        }
        for (int t = 0; t < 8; t++) {
            int i = (int)(ref_rand(&seed) % (unsigned)p.n), loc;
            do loc = (int)(ref_rand(&seed) % 47); while ((used >> loc & 1) && loc != p.loc[i]);
            int side = (int)(ref_rand(&seed) % 2);
            rank_position q = p;
            q.loc[i] = (uint8_t)loc;
            q.side = side;
            int folded = 0;
            CU_ASSERT_EQUAL(rank_mover_index(&mv, i, loc, side, &folded), canonical_index(q));
            uint8_t at = (uint8_t)loc;
            uint64_t batch;
            CU_ASSERT(rank_mover_indices(&mv, i, &at, 1, side, &batch) == folded && batch == canonical_index(q));
            /* a batch of every empty location: each as ranked alone */
            uint8_t all[RANK_LOCATIONS];
            uint64_t many[RANK_LOCATIONS];
            int k = 0, alone = 0;
            for (int l = 0; l < RANK_LOCATIONS && t == 0; l++)  /* once a position: it is slow */
                if (!(used >> l & 1))
                    all[k++] = (uint8_t)l;
            int batch_folded = rank_mover_indices(&mv, i, all, k, side, many), same = 1;
            for (int l = 0; l < k; l++)
                same &= many[l] == rank_mover_index(&mv, i, all[l], side, &alone);
            CU_ASSERT(same && batch_folded == alone);
            rank_position r = q, swapped = q;
            rank_canonicalize(&r);
            /* unfolded indices are plain Lehmer codes of q, or of q's colour
             * swap alone for a material that is its own swap: one to one */
            int self_swap = rank_material_swap(rank_material_of(&q)) == rank_material_of(&q);
            for (int j = 0; self_swap && j < q.n; j++) {  /* pieces in pairs: j's partner is j ^ 1 */
                int sq = rank_square(q.loc[j ^ 1]);
                swapped.loc[j] = (uint8_t)rank_location((6 - sq / 7) * 7 + sq % 7);
            }
            if (!folded && !(self_swap && side)) {
                CU_ASSERT(memcmp(r.loc, q.loc, (size_t)q.n) == 0 && r.side == q.side);
            } else if (!folded) {
                swap_paths++;
                CU_ASSERT(memcmp(r.loc, swapped.loc, (size_t)q.n) == 0 && r.side == 0);
            }
        }
    }
    CU_ASSERT(swap_paths > 1000);  /* the colour-swapped path was taken */
}

static void test_iterator(void)
{
    rank_material m;
    rank_material_parse("RrDTe", &m);
    uint64_t size = rank_size(m), first = size / 3, count = 200000;
    rank_iter it;
    rank_iter_start(&it, m, first, first + count);
    uint64_t seen = 0;
    rank_position last = it.pos;
    long wrong_changed = 0;
    do {
        rank_position p;
        rank_unindex(m, it.index, &p);
        CU_ASSERT(memcmp(p.loc, it.pos.loc, (size_t)p.n) == 0 && p.side == it.pos.side);
        for (int i = 0; i < p.n && it.changed != 0xFF; i++)  /* every piece that moved is named */
            wrong_changed += p.loc[i] != last.loc[i] && !(it.changed >> i & 1);
        last = p;
        seen++;
    } while (rank_iter_next(&it));
    CU_ASSERT_EQUAL(wrong_changed, 0);
    CU_ASSERT_EQUAL(seen, count);
    /* across the side boundary */
    rank_iter_start(&it, m, size / 2 - 2, size / 2 + 2);
    rank_iter_next(&it);
    rank_iter_next(&it);
    CU_ASSERT_EQUAL(it.pos.side, 1);
    CU_ASSERT_EQUAL(rank_index(&it.pos), size / 2);
}

/* --- Ostle index ---------------------------------------------------------- */

/* A position's image under symmetry k of a W x H board, by rows and columns
 * (the test's own geometry, not the index's). */
static uint32_t ostle_image(uint32_t set, int k, int W, int H)
{
    uint32_t out = 0;
    for (int sq = 0; sq < W * H; sq++)
        if (set >> sq & 1) {
            int row = sq / W, col = sq % W;
            if (k & 1) col = W - 1 - col;
            if (k & 2) row = H - 1 - row;
            out |= 1u << (k & 4 ? col * W + row : row * W + col);
        }
    return out;
}

/* The next larger set with as many elements (Gosper); past 32 bits: ~0. */
static uint32_t next_subset(uint32_t x)
{
    uint32_t c = x & (0u - x), r = x + c;
    return r == 0 ? ~0u : (((r ^ x) >> 2) / c) | r;
}

/* Every placement on small boards: the index is in range, the same for all
 * images, and the canonical indices (unindex then index gives the index
 * back) are exactly as many as the orbits counted by brute force. */
static void test_ostle_small(void)
{
    static const int dims[][4] = { { 3, 3, 2, 2 }, { 3, 3, 3, 2 }, { 4, 3, 2, 3 }, { 4, 4, 3, 3 }, { 3, 5, 2, 2 } };
    for (int d = 0; d < 5; d++) {
        int W = dims[d][0], H = dims[d][1], m = dims[d][2], o = dims[d][3], cells = W * H;
        rank_ostle r;
        CU_ASSERT_EQUAL_FATAL(rank_ostle_init(&r, W, H), 0);
        uint64_t size = rank_ostle_size(&r, m, o), orbits = 0, canonical = 0;
        uint8_t *seen = calloc(size, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
        int nsym = W == H ? 8 : 4;
        uint32_t last_a = ((1u << m) - 1) << (cells - m), last_b = ((1u << o) - 1) << (cells - o);
        for (int hole = 0; hole < cells; hole++)
            for (uint32_t a = (1u << m) - 1; a <= last_a; a = next_subset(a)) {
                if (a >> hole & 1)
                    continue;
                for (uint32_t b = (1u << o) - 1; b <= last_b; b = next_subset(b)) {
                    if ((b & a) || (b >> hole & 1))
                        continue;
                    uint64_t i = rank_ostle_index(&r, (unsigned)hole, a, b);
                    CU_ASSERT(i < size);
                    if (i >= size)
                        continue;
                    int least = 1;  /* is this placement its orbit's first in this loop order? */
                    for (int k = 1; k < nsym; k++) {
                        uint32_t h2 = ostle_image(1u << hole, k, W, H), a2 = ostle_image(a, k, W, H),
                                 b2 = ostle_image(b, k, W, H);
                        unsigned hk = (unsigned)__builtin_ctz(h2);
                        CU_ASSERT_EQUAL(rank_ostle_index(&r, hk, a2, b2), i);
                        if (hk < (unsigned)hole || (hk == (unsigned)hole && (a2 < a || (a2 == a && b2 < b))))
                            least = 0;
                    }
                    orbits += least;
                    seen[i] = 1;
                }
            }
        for (uint64_t i = 0; i < size; i++) {
            unsigned hole;
            uint32_t a, b;
            rank_ostle_unindex(&r, m, o, i, &hole, &a, &b);
            CU_ASSERT(__builtin_popcount(a) == m && __builtin_popcount(b) == o && !(a & b) && !((a | b) >> hole & 1));
            uint64_t j = rank_ostle_index(&r, hole, a, b);
            CU_ASSERT(j <= i);
            CU_ASSERT(seen[j]);  /* the index of some placement */
            canonical += j == i;
        }
        CU_ASSERT_EQUAL(canonical, orbits);
        free(seen);
    }
}

/* 5x5: six hole classes; a million random placements keep their index under
 * the eight symmetries, and unindex(index(p)) is an image of p. */
static void test_ostle_5x5(void)
{
    rank_ostle r;
    CU_ASSERT_EQUAL_FATAL(rank_ostle_init(&r, 5, 5), 0);
    CU_ASSERT_EQUAL(r.nclass, 6);
    CU_ASSERT_EQUAL(rank_ostle_size(&r, 5, 5), 6ULL * 42504 * 11628);  /* 6 C(24,5) C(19,5) */
    unsigned long long seed = 11;
    for (int t = 0; t < 1000000; t++) {
        int m = 4 + (int)(ref_rand(&seed) % 2), o = 4 + (int)(ref_rand(&seed) % 2);
        unsigned hole = (unsigned)(ref_rand(&seed) % 25);
        uint32_t a = 0, b = 0;
        while (__builtin_popcount(a) < m) {
            unsigned sq = (unsigned)(ref_rand(&seed) % 25);
            if (sq != hole) a |= 1u << sq;
        }
        while (__builtin_popcount(b) < o) {
            unsigned sq = (unsigned)(ref_rand(&seed) % 25);
            if (sq != hole && !(a >> sq & 1)) b |= 1u << sq;
        }
        uint64_t i = rank_ostle_index(&r, hole, a, b);
        CU_ASSERT(i < rank_ostle_size(&r, m, o));
        int k = (int)(ref_rand(&seed) % 8);
        CU_ASSERT_EQUAL(rank_ostle_index(&r, (unsigned)__builtin_ctz(ostle_image(1u << hole, k, 5, 5)),
                                         ostle_image(a, k, 5, 5), ostle_image(b, k, 5, 5)), i);
        unsigned h2;
        uint32_t a2, b2;
        rank_ostle_unindex(&r, m, o, i, &h2, &a2, &b2);
        int image = 0;
        for (int s = 0; s < 8; s++)
            image |= ostle_image(1u << hole, s, 5, 5) == 1u << h2 && ostle_image(a, s, 5, 5) == a2 &&
                     ostle_image(b, s, 5, 5) == b2;
        CU_ASSERT(image);
    }
}

void suite_ranking(void)
{
    CU_pSuite s = CU_add_suite("ranking", NULL, NULL);
    CU_add_test(s, "locations follow docs/rules.md", test_locations);
    CU_add_test(s, "thesis figure 5.1", test_thesis_example);
    CU_add_test(s, "materials, names, dependencies", test_materials);
    CU_add_test(s, "rank(unrank(r)) for every r up to 3 pieces", test_inverse_small);
    CU_add_test(s, "rank(unrank(r)) for two million random r", test_inverse_random);
    CU_add_test(s, "mirror and colour swap share an entry", test_symmetry);
    CU_add_test(s, "enumeration by increment", test_iterator);
    CU_add_test(s, "incremental ranking of one-piece changes", test_mover);
    CU_add_test(s, "Ostle index on small boards against brute-force orbits", test_ostle_small);
    CU_add_test(s, "Ostle index on 5x5: symmetries and round trips", test_ostle_5x5);
}
