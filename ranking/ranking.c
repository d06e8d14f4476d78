/* ranking/ranking.c - Lehmer codes over the 47 locations (thesis chapter 5). */
#include "ranking.h"

#include <string.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define WHITE_PIECES 0x55u
#define BLACK_PIECES 0xAAu

static const char piece_letters[] = "RrDdTtEe";

/* Location geometry, derived once from the numbering of docs/rules.md. */
static struct {
    int ready;
    int8_t loc_of_square[49];
    int8_t square_of_loc[47];
    uint8_t flip[47];    /* rank r -> 8 - r (colour swap) */
    uint8_t mirror[47];  /* file f -> 6 - f */
    uint8_t file[47];
    uint8_t canonical[256];  /* is_canonical(m), tabled: it is on every index */
    uint8_t flip_of_square[49];  /* location of the colour-swapped square */
    /* Per material and side to move: whether its representative is the colour
     * swap (a non-canonical material, or a symmetric one with Black to move),
     * and the input piece behind each output piece once swapped. */
    uint8_t swap[256][2];
    uint8_t count[256];
    uint8_t pieces[256][8];  /* the pieces of each material, ascending */
    uint8_t order[256][2][8];
    uint8_t mirror_or_same[2][47];
} geo;

static const uint64_t lehmer_weight[9] = {
    1ULL, 26ULL, 26ULL * 46, 26ULL * 46 * 45, 26ULL * 46 * 45 * 44, 26ULL * 46 * 45 * 44 * 43,
    26ULL * 46 * 45 * 44 * 43 * 42, 26ULL * 46 * 45 * 44 * 43 * 42 * 41, 26ULL * 46 * 45 * 44 * 43 * 42 * 41 * 40,
};

static int compute_location(int square)
{
    int file = square % 7, rank = square / 7 + 1;
    if (file < 3)
        return file * 7 + (7 - rank);
    if (file == 3)
        return rank == 1 || rank == 7 ? -1 : 21 + (6 - rank);
    return 26 + (file - 4) * 7 + (7 - rank);
}

static int compute_canonical(rank_material m);

/* Idempotent and race-free in effect: every thread writes the same bytes. */
static void geo_init(void)
{
    if (__atomic_load_n(&geo.ready, __ATOMIC_ACQUIRE))
        return;
    for (unsigned m = 0; m < 256; m++) {
        geo.canonical[m] = (uint8_t)compute_canonical(m);
        geo.count[m] = (uint8_t)__builtin_popcount(m);
        for (int q = 0, n = 0; q < 8; q++)
            if (m >> q & 1)
                geo.pieces[m][n++] = (uint8_t)q;
        for (int side = 0; side < 2; side++) {
            int swap = !geo.canonical[m] || (rank_material_swap(m) == m && side);
            geo.swap[m][side] = (uint8_t)swap;
            int n = 0;
            for (int q = 0; q < 8; q++)
                if (m >> (swap ? q ^ 1 : q) & 1)
                    geo.order[m][side][n++] = (uint8_t)(swap ? q ^ 1 : q);
        }
    }
    for (int sq = 0; sq < 49; sq++) {
        int loc = compute_location(sq);
        geo.loc_of_square[sq] = (int8_t)loc;
        if (loc >= 0)
            geo.square_of_loc[loc] = (int8_t)sq;
    }
    for (int loc = 0; loc < 47; loc++) {
        int sq = geo.square_of_loc[loc], file = sq % 7, rank = sq / 7;
        geo.file[loc] = (uint8_t)file;
        geo.flip[loc] = (uint8_t)compute_location((6 - rank) * 7 + file);
        geo.mirror[loc] = (uint8_t)compute_location(rank * 7 + (6 - file));
    }
    for (int loc = 0; loc < 47; loc++) {
        geo.mirror_or_same[0][loc] = (uint8_t)loc;
        geo.mirror_or_same[1][loc] = geo.mirror[loc];
    }
    for (int sq = 0; sq < 49; sq++)
        geo.flip_of_square[sq] = (uint8_t)compute_location((6 - sq / 7) * 7 + sq % 7);
    __atomic_store_n(&geo.ready, 1, __ATOMIC_RELEASE);
}

int rank_location(int square)
{
    geo_init();
    return (unsigned)square < 49 ? geo.loc_of_square[square] : -1;
}

int rank_square(int loc)
{
    geo_init();
    return geo.square_of_loc[loc];
}

/* The mirror rule: the first piece off file d must stand on files a-c.
 * Piece `moved` is read at location `at` instead (moved < 0: none), so the
 * incremental ranker can ask about a move without copying the position. */
static inline int mirror_needed(const uint8_t *loc, int n, int moved, unsigned at)
{
    for (int i = 0; i < n; i++) {
        int f = geo.file[i == moved ? at : loc[i]];
        if (f != 3)
            return f > 3;
    }
    return 0;
}

/* The mixed-radix Lehmer code of n locations, without the side. */
static inline uint64_t lehmer_code(const uint8_t *loc, int n)
{
    uint64_t used = 0, code = 0;
    for (int i = 0; i < n; i++) {
        code += (loc[i] - (unsigned)__builtin_popcountll(used & ((1ULL << loc[i]) - 1))) * lehmer_weight[i];
        used |= 1ULL << loc[i];
    }
    return code;
}

rank_material rank_material_swap(rank_material m)
{
    return ((m & WHITE_PIECES) << 1) | ((m & BLACK_PIECES) >> 1);
}

/* The stronger side is White: more pieces, or as many and the strongest
 * differing piece White's (the thesis's "duplicate" rule). */
static int compute_canonical(rank_material m)
{
    unsigned w = 0, b = 0;
    for (int s = 0; s < 4; s++) {
        w |= ((m >> (2 * s)) & 1u) << s;
        b |= ((m >> (2 * s + 1)) & 1u) << s;
    }
    int nw = __builtin_popcount(w), nb = __builtin_popcount(b);
    return nw > nb || (nw == nb && w >= b);
}

static inline int is_canonical(rank_material m)
{
    geo_init();
    return geo.canonical[m & 0xFF];
}

rank_material rank_material_canonical(rank_material m)
{
    return is_canonical(m) ? m : rank_material_swap(m);
}

int rank_material_symmetric(rank_material m) { return rank_material_swap(m) == m; }

void rank_material_name(rank_material m, char *buf)
{
    int n = 0;
    for (int p = 0; p < 8; p++)
        if (m >> p & 1)
            buf[n++] = piece_letters[p];
    buf[n] = 0;
}

int rank_material_parse(const char *name, rank_material *m)
{
    rank_material r = 0;
    int last = -1;
    for (; *name; name++) {
        const char *l = strchr(piece_letters, *name);
        if (!l)
            return -1;
        int p = (int)(l - piece_letters);
        if (p <= last)  /* docs/rules.md order, each piece once */
            return -1;
        last = p;
        r |= 1u << p;
    }
    if (!(r & WHITE_PIECES) || !(r & BLACK_PIECES))
        return -1;
    *m = r;
    return 0;
}

int rank_materials(int max_pieces, rank_material *out, int cap)
{
    int n = 0;
    for (int pieces = 2; pieces <= max_pieces && pieces <= 8; pieces++)
        for (rank_material m = 1; m < 256; m++)
            if (__builtin_popcount(m) == pieces && (m & WHITE_PIECES) && (m & BLACK_PIECES) && is_canonical(m) && n < cap)
                out[n++] = m;
    return n;
}

int rank_material_deps(rank_material m, rank_material *out)
{
    int n = 0;
    for (int p = 0; p < 8; p++) {
        rank_material d = m & ~(1u << p);
        if (!(m >> p & 1) || !(d & WHITE_PIECES) || !(d & BLACK_PIECES))
            continue;
        d = rank_material_canonical(d);
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= out[i] == d;
        if (!seen)
            out[n++] = d;
    }
    return n;
}

static uint64_t positions_per_side(int n)
{
    uint64_t size = RANK_HALF_LOCATIONS;
    for (int i = 1; i < n; i++)
        size *= (uint64_t)(RANK_LOCATIONS - i);
    return size;
}

uint64_t rank_size(rank_material m)
{
    return positions_per_side(__builtin_popcount(m)) * (rank_material_symmetric(m) ? 1 : 2);
}

rank_material rank_material_of(const rank_position *p)
{
    rank_material m = 0;
    for (int i = 0; i < p->n; i++)
        m |= 1u << p->piece[i];
    return m;
}

static void sort_pieces(rank_position *p)
{
    for (int i = 1; i < p->n; i++)
        for (int j = i; j > 0 && p->piece[j - 1] > p->piece[j]; j--) {
            uint8_t t = p->piece[j]; p->piece[j] = p->piece[j - 1]; p->piece[j - 1] = t;
            t = p->loc[j]; p->loc[j] = p->loc[j - 1]; p->loc[j - 1] = t;
        }
}

void rank_canonicalize(rank_position *p)
{
    geo_init();
    if (geo.swap[rank_material_of(p)][p->side]) {
        for (int i = 0; i < p->n; i++) {
            p->piece[i] ^= 1;
            p->loc[i] = geo.flip[p->loc[i]];
        }
        p->side ^= 1;
        sort_pieces(p);
    }
    if (mirror_needed(p->loc, p->n, -1, 0))
        for (int j = 0; j < p->n; j++)
            p->loc[j] = geo.mirror[p->loc[j]];
}

/* rank_index_squares for n pieces, n a constant where it is inlined: the
 * locations stay in registers (with n a variable they went through memory
 * three times and each loop branched per piece), and the mirror rule is
 * worked out without a branch. */
static inline __attribute__((always_inline)) uint64_t index_of_n(const uint8_t square[8], int side, unsigned m,
                                                                  const int n)
{
    int swap = geo.swap[m][side];
    const uint8_t *order = geo.order[m][side];
    const uint8_t *to_loc = swap ? geo.flip_of_square : (const uint8_t *)geo.loc_of_square;
    unsigned loc[8];
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
        loc[i] = to_loc[square[order[i]]];
    /* the first piece off file d (locations 21-25) decides: on e-g (26 on), mirror */
    unsigned mirror = 0, decided = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        unsigned off_d = loc[i] - 21u >= 5u;
        mirror |= ~decided & off_d & (loc[i] >= 26u);
        decided |= off_d;
    }
    const uint8_t *map = geo.mirror_or_same[mirror];
    uint64_t used = 0, code = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        loc[i] = map[loc[i]];
        code += (loc[i] - (unsigned)__builtin_popcountll(used & ((1ULL << loc[i]) - 1))) * lehmer_weight[i];
        used |= 1ULL << loc[i];
    }
    return code + (uint64_t)(side ^ swap) * lehmer_weight[n];
}

uint64_t rank_index_squares(const uint8_t square[8], int side)
{
    geo_init();
    uint64_t x;
    memcpy(&x, square, 8);
    /* bit p of m: byte p is not RANK_ABSENT; scalar on purpose (the
     * vectorised byte loop was slower than the whole rest of the function) */
    x = ~x;
    x |= x >> 4;
    x |= x >> 2;
    x |= x >> 1;
    x &= 0x0101010101010101ULL;
    unsigned m = (unsigned)((x * 0x0102040810204080ULL) >> 56);
    switch (geo.count[m]) {
    case 2: return index_of_n(square, side, m, 2);
    case 3: return index_of_n(square, side, m, 3);
    case 4: return index_of_n(square, side, m, 4);
    case 5: return index_of_n(square, side, m, 5);
    case 6: return index_of_n(square, side, m, 6);
    case 7: return index_of_n(square, side, m, 7);
    case 8: return index_of_n(square, side, m, 8);
    default: return index_of_n(square, side, m, 1);
    }
}

uint64_t rank_index(const rank_position *p)
{
    return lehmer_code(p->loc, p->n) + (uint64_t)p->side * lehmer_weight[p->n];
}

/* The digit-th free location, given the locations in used. */
static inline unsigned digit_location(unsigned digit, uint64_t used)
{
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
    /* one deposit of the digit's bit into the free set (pdep is
     * microcoded, so slower than the loop, on Zen 1 and 2) */
    return (unsigned)__builtin_ctzll(_pdep_u64(1ULL << digit, ~used));
#else
    unsigned loc = digit;
    for (uint64_t u = used; u; u &= u - 1) {
        if ((unsigned)__builtin_ctzll(u) <= loc)
            loc++;
        else
            break;
    }
    return loc;
#endif
}

/* loc[i] = the digit[i]-th free location, given the earlier pieces. */
static void digits_to_locations(rank_position *p, const uint8_t *digit)
{
    uint64_t used = 0;
    for (int i = 0; i < p->n; i++) {
        p->loc[i] = (uint8_t)digit_location(digit[i], used);
        used |= 1ULL << p->loc[i];
    }
}

/* A table copy: counting into p->n made a store-to-load chain per piece. */
static void set_pieces(rank_position *p, rank_material m)
{
    geo_init();
    p->n = geo.count[m & 0xFF];
    memcpy(p->piece, geo.pieces[m & 0xFF], sizeof p->piece);
}

/* The side and digits of index for n pieces: digit i has radix 26 (i = 0)
 * or 47 - i.  n is a constant where it is inlined, so that every division
 * is by a constant, which the compiler turns into a multiplication. */
static inline __attribute__((always_inline)) void split_index_n(rank_position *p, uint64_t index, uint8_t *digit,
                                                                 const int n)
{
    uint64_t per_side = positions_per_side(n);
    p->side = index >= per_side;
    index -= p->side ? per_side : 0;
#pragma GCC unroll 8
    for (int i = n - 1; i > 0; i--) {
        digit[i] = (uint8_t)(index / lehmer_weight[i]);
        index %= lehmer_weight[i];
    }
    digit[0] = (uint8_t)index;
}

static void split_index(rank_position *p, uint64_t index, uint8_t *digit)
{
    switch (p->n) {
    case 2: split_index_n(p, index, digit, 2); break;
    case 3: split_index_n(p, index, digit, 3); break;
    case 4: split_index_n(p, index, digit, 4); break;
    case 5: split_index_n(p, index, digit, 5); break;
    case 6: split_index_n(p, index, digit, 6); break;
    case 7: split_index_n(p, index, digit, 7); break;
    case 8: split_index_n(p, index, digit, 8); break;
    default: split_index_n(p, index, digit, 1); break;
    }
}

void rank_unindex(rank_material m, uint64_t index, rank_position *p)
{
    uint8_t digit[RANK_MAX_PIECES];
    set_pieces(p, m);
    split_index(p, index, digit);
    digits_to_locations(p, digit);
}

void rank_iter_start(rank_iter *it, rank_material m, uint64_t first, uint64_t end)
{
    set_pieces(&it->pos, m);
    split_index(&it->pos, first, it->digit);
    digits_to_locations(&it->pos, it->digit);
    it->index = first;
    it->end = end;
    it->changed = 0xFF;
}

int rank_iter_next(rank_iter *it)
{
    if (++it->index >= it->end)
        return 0;
    rank_position *p = &it->pos;
    /* 25 steps in 26 only move the first piece on by one location (having
     * no earlier piece, its digit is its location): every other digit stays
     * when a piece standing on the location it enters takes the one it
     * leaves, and no other piece moves. */
    if (it->digit[0] + 1 < RANK_HALF_LOCATIONS) {
        unsigned from = it->digit[0]++, to = from + 1;
        p->loc[0] = (uint8_t)to;
        it->changed = 1;
        for (int j = 1; j < p->n; j++)
            if (p->loc[j] == to) {
                p->loc[j] = (uint8_t)from;
                it->changed |= (uint8_t)(1u << j);
                break;
            }
        return 1;
    }
    it->changed = 0xFF;
    int i = 0;
    for (; i < p->n; i++) {
        unsigned radix = i == 0 ? RANK_HALF_LOCATIONS : (unsigned)(RANK_LOCATIONS - i);
        if (++it->digit[i] < radix)
            break;
        it->digit[i] = 0;
    }
    if (i == p->n)
        p->side++;
    digits_to_locations(p, it->digit);
    return 1;
}

/* Locations 0-20 are files a-c, 21-25 file d, 26-46 files e-g. */
#define FILE_D_FIRST 21u
#define FILE_E_FIRST 26u

#define BYTES(x) (0x0101010101010101ULL * (x))

/* The mirror rule's facts of b's position (rank_lehmer), all pieces at
 * once: byte i of the word is piece i's location (below 128), and adding
 * 128 - k to it sets its top bit exactly when it is k or more. */
static void mirror_facts(rank_lehmer *b)
{
    const rank_position *p = &b->p;
    uint64_t loc, tops = p->n ? BYTES(0x80) >> (64 - 8 * p->n) : 0;
    memcpy(&loc, p->loc, sizeof loc);
    uint64_t on_d_or_right = (loc + BYTES(0x80 - FILE_D_FIRST)) & tops;
    uint64_t right = (loc + BYTES(0x80 - FILE_E_FIRST)) & tops;
    uint64_t off = (on_d_or_right ^ tops) | right;
    uint64_t first = off ? (uint64_t)__builtin_ctzll(off) : 63, rest = off & (off - 1);
    uint64_t second = rest ? (uint64_t)__builtin_ctzll(rest) : 63;
    b->first = (uint8_t)(off ? first >> 3 : (uint64_t)p->n);
    b->first_right = (uint8_t)(right >> first & 1);
    b->second_right = (uint8_t)(right >> second & 1);
}

/* The Lehmer code, digits and prefixes of b's position (what an
 * incremental rank starts from); n is its piece count, a constant where the
 * caller is unrolled per count. */
static inline __attribute__((always_inline)) void lehmer_digits_n(rank_lehmer *b, const int n)
{
    const rank_position *p = &b->p;
    uint64_t used = 0;
    b->code = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        b->before[i] = used;
        b->digit[i] = (uint8_t)(p->loc[i] - (unsigned)__builtin_popcountll(used & ((1ULL << p->loc[i]) - 1)));
        b->code += b->digit[i] * lehmer_weight[i];
        used |= 1ULL << p->loc[i];
    }
    b->occ = used;
}

/* mirror_needed of b's position with piece i on location at, from the
 * facts: a piece before the first one off file d changes nothing unless it
 * leaves file d; the first one decides unless it steps onto file d, where
 * the next one decides. */
static inline int moved_needs_mirror(const rank_lehmer *b, int i, unsigned at)
{
    if (i > b->first)
        return b->first_right;
    if (at - FILE_D_FIRST > FILE_E_FIRST - 1 - FILE_D_FIRST)
        return at >= FILE_E_FIRST;
    return i == b->first ? b->second_right : b->first_right;
}

/* The incremental path needs the base to be its own representative and
 * the moved position to need no colour swap for its side to move. */
static inline __attribute__((always_inline)) void mover_paths_n(rank_mover *mv, rank_material m, const int n)
{
    const rank_position *p = &mv->base.p;
    int canonical = !geo.swap[m][p->side] && !mv->base.first_right;
    for (int side = 0; side < 2; side++)
        mv->plain[side] = (uint8_t)(canonical && !geo.swap[m][side]);
    /* A canonical base of a material that is its own colour swap has White
     * to move; its pieces come in pairs (R r, D d, ...), so swapping the
     * colours puts piece i's partner i ^ 1 in its place, on the flipped
     * location. */
    mv->swapped = (uint8_t)(canonical && rank_material_swap(m) == m);
    for (int k = 0; k < 2 * mv->swapped; k++) {
        rank_lehmer *sw = &mv->sw[k];
        sw->p = *p;
        sw->p.side = 0;
#pragma GCC unroll 8
        for (int i = 0; i < n; i++) {
            unsigned loc = geo.flip[p->loc[i ^ 1]];
            sw->p.loc[i] = k ? geo.mirror[loc] : (uint8_t)loc;
        }
        lehmer_digits_n(sw, n);
        if (k == 0)
            mirror_facts(sw);  /* the mirror is decided on sw[0] */
    }
}

/* The digits, locations and occupancies of b from its index, n a constant
 * where it is inlined (as index_of_n): the locations' deposits unrolled. */
static inline __attribute__((always_inline)) void unindex_n(rank_lehmer *b, uint64_t index, const int n)
{
    rank_position *p = &b->p;
    split_index_n(p, index, b->digit, n);
    b->code = index - (p->side ? positions_per_side(n) : 0);
    uint64_t used = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        p->loc[i] = (uint8_t)digit_location(b->digit[i], used);
        b->before[i] = used;
        used |= 1ULL << p->loc[i];
    }
    b->occ = used;
}

static inline __attribute__((always_inline)) void mover_unindex_n(rank_mover *mv, rank_material m, uint64_t index,
                                                                   const int n)
{
    unindex_n(&mv->base, index, n);
    mirror_facts(&mv->base);
    mover_paths_n(mv, m, n);
}

void rank_mover_unindex(rank_mover *mv, rank_material m, uint64_t index)
{
    geo_init();
    set_pieces(&mv->base.p, m);
    switch (mv->base.p.n) {
    case 2: mover_unindex_n(mv, m, index, 2); break;
    case 3: mover_unindex_n(mv, m, index, 3); break;
    case 4: mover_unindex_n(mv, m, index, 4); break;
    case 5: mover_unindex_n(mv, m, index, 5); break;
    case 6: mover_unindex_n(mv, m, index, 6); break;
    case 7: mover_unindex_n(mv, m, index, 7); break;
    case 8: mover_unindex_n(mv, m, index, 8); break;
    default: mover_unindex_n(mv, m, index, 1); break;
    }
}

void rank_mover_init(rank_mover *mv, const rank_position *p)
{
    geo_init();
    mv->base.p = *p;
    lehmer_digits_n(&mv->base, p->n);
    mirror_facts(&mv->base);
    mover_paths_n(mv, rank_material_of(p), p->n);
}

/* The Lehmer code of b's position with piece i moved to location now (an
 * empty one, or its own): piece i's digit moves by the distance less the
 * earlier pieces passed, and each later piece passed shifts by one; a step
 * to a neighbour in its column passes none. */
static inline uint64_t lehmer_moved(const rank_lehmer *b, int i, unsigned now)
{
    unsigned old = b->p.loc[i];
    unsigned lo = now < old ? now : old, hi = now ^ old ^ lo;
    uint64_t between = ((1ULL << hi) - 1) & ~((2ULL << lo) - 1);
    int64_t s = now < old ? -1 : 1;
    int64_t d = (int64_t)now - (int64_t)old - s * __builtin_popcountll(b->before[i] & between);
    uint64_t code = b->code + (uint64_t)(d * (int64_t)lehmer_weight[i]);
    uint64_t passed = b->occ & ~b->before[i] & between;
    for (int j = i + 1; passed && j < b->p.n; j++)
        if (passed >> b->p.loc[j] & 1)
            code += (uint64_t)(s * (int64_t)lehmer_weight[j]);
    return code;
}

static inline uint64_t mover_index(const rank_mover *mv, int i, int loc, int side, int *folded)
{
    const rank_position *p = &mv->base.p;
    /* ... and the moved position still needing no mirror. */
    if (mv->plain[side] && !moved_needs_mirror(&mv->base, i, (unsigned)loc))
        return lehmer_moved(&mv->base, i, (unsigned)loc) + (uint64_t)side * lehmer_weight[p->n];
    /* Black to move in a table of a material that is its own colour swap:
     * the swapped base with the partner moved to the flipped location,
     * White to move (one to one over the placements: not a fold), or the
     * mirrored one where the moved position needs the mirror (a fold). */
    if (side && mv->swapped) {
        unsigned at = geo.flip[loc];
        int mirrored = moved_needs_mirror(&mv->sw[0], i ^ 1, at);
        const rank_lehmer *b = &mv->sw[mirrored];
        *folded += mirrored;
        return lehmer_moved(b, i ^ 1, mirrored ? geo.mirror[at] : at);
    }
    (*folded)++;
    rank_position q = *p;
    q.loc[i] = (uint8_t)loc;
    q.side = side;
    rank_canonicalize(&q);
    return rank_index(&q);
}

uint64_t rank_mover_index(const rank_mover *mv, int i, int loc, int side, int *folded)
{
    return mover_index(mv, i, loc, side, folded);
}

int rank_mover_indices(const rank_mover *mv, int i, const uint8_t *loc, int k, int side, uint64_t *out)
{
    const rank_lehmer *b = &mv->base;
    int folded = 0;
    if (mv->plain[side] && i > b->first) {
        /* behind the first piece off file d nothing can change the mirror */
        uint64_t add = (uint64_t)side * lehmer_weight[b->p.n];
        for (int t = 0; t < k; t++)
            out[t] = lehmer_moved(b, i, loc[t]) + add;
        return 0;
    }
    for (int t = 0; t < k; t++)
        out[t] = mover_index(mv, i, loc[t], side, &folded);
    return folded;
}
