/* games/jungle/jungle_tb.c - Jungle Checkers' endgame-table support through
 * ranking/: materials, indices, un-moves, and the first pass's moves out. */
#include "jungle_impl.h"
#include "../../ranking/ranking.h"

#include <pthread.h>
#include <string.h>

/* Canonical material of each piece set, and ranking's location of each
 * square and back, filled when a game opens: the builder asks for them for
 * every child of every position. */
static uint8_t canonical_of[256];
static int8_t location_of[49];
static uint8_t square_of[47];
static uint64_t steps_from[49];  /* the squares next to each: an un-move's loop reads it for every piece */

static void fill_tables(void)
{
    for (unsigned m = 0; m < 256; m++)
        canonical_of[m] = (uint8_t)rank_material_canonical(m);
    for (int sq = 0; sq < 49; sq++) {
        location_of[sq] = (int8_t)rank_location(sq);
        if (location_of[sq] >= 0)
            square_of[location_of[sq]] = (uint8_t)sq;
        steps_from[sq] = neighbours(1ULL << sq);
    }
}

/* Once per process: games open on several threads at once (the builder
 * copying a variant's tables side by side). */
void jungle_tb_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}

static int jtb_materials(const game *g, int max_pieces, int *out, int cap)
{
    (void)g;
    rank_material m[256];
    int n = rank_materials(max_pieces, m, 256);
    for (int i = 0; i < n && i < cap; i++)
        out[i] = (int)m[i];
    return n < cap ? n : cap;
}

static int jtb_material_deps(const game *g, int mat, int *out)
{
    (void)g;
    rank_material d[8];
    int n = rank_material_deps((rank_material)mat, d);
    for (int i = 0; i < n; i++)
        out[i] = (int)d[i];
    return n;
}

static int jtb_material_of(const game *g, const game_state *s)
{
    (void)g;
    if (ended_by_last_move(s))
        return -1;
    /* Bit q set iff piece q's byte is not JUNGLE_ABSENT: fold each byte of
     * the complement onto its low bit, then gather the eight low bits (the
     * multiplier's partial products never overlap, so nothing carries). */
    uint64_t x = ~s->w[2];
    x |= x >> 4;
    x |= x >> 2;
    x |= x >> 1;
    x &= 0x0101010101010101ULL;
    return canonical_of[(x * 0x0102040810204080ULL) >> 56];
}

static int jtb_material_pieces(const game *g, int mat) { (void)g; return __builtin_popcount((unsigned)mat); }

static void jtb_material_name(const game *g, int mat, char *buf, size_t len)
{
    (void)g;
    char name[16];
    rank_material_name((rank_material)mat, name);
    snprintf(buf, len, "%s", name);
}

static int jtb_material_parse(const game *g, const char *name)
{
    (void)g;
    rank_material m;
    if (strlen(name) > 8 || rank_material_parse(name, &m) != 0 || rank_material_canonical(m) != m)
        return -1;
    return (int)m;
}

static uint64_t jtb_size(const game *g, const game_tb_index *ix, int mat)
{
    (void)g, (void)ix;
    return rank_size((rank_material)mat);
}

static uint64_t jtb_index(const game *g, const game_tb_index *ix, const game_state *s)
{
    (void)g, (void)ix;
    uint8_t square[8];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* byte q of w[2] is piece q's square: one 8-byte store, which the
     * ranker's 8-byte load gets forwarded (eight byte stores are not, and
     * that stall was a quarter of the ranker's time in tb verify) */
    memcpy(square, &s->w[2], sizeof square);
#else
    for (int q = 0; q < 8; q++)
        square[q] = (uint8_t)sq_of(s, q);
#endif
    return rank_index_squares(square, (int)s->w[3]);
}

/* The game state of a ranked position. */
static void state_of(const rank_position *p, game_state *s)
{
    memset(s, 0, sizeof *s);
    s->w[2] = ~0ULL;
    for (int i = 0; i < p->n; i++) {
        unsigned sq = square_of[p->loc[i]];
        set_sq(s, p->piece[i], sq);
        s->w[p->piece[i] & 1] |= 1ULL << sq;
    }
    s->w[3] = (uint64_t)p->side;
}

static void jtb_unindex(const game *g, const game_tb_index *ix, int mat, uint64_t index, game_state *s)
{
    (void)g, (void)ix;
    rank_position p;
    rank_unindex((rank_material)mat, index, &p);
    state_of(&p, s);
}

/* Enumeration by the Lehmer increment: a twin needs its first piece on file
 * d (the mirror rule decides by the first piece off it), so only those pay
 * for an index.  The state follows the pieces the increment moved (most
 * steps move one or two) instead of being made again. */
static void jtb_each(const game *g, const game_tb_index *ix, int mat, uint64_t first, uint64_t end,
                     void (*fn)(void *ctx, uint64_t index, const game_state *s, int twin), void *ctx)
{
    if (first >= end)
        return;
    rank_iter it;
    rank_iter_start(&it, (rank_material)mat, first, end);
    game_state s;
    do {
        if (it.changed == 0xFF) {
            state_of(&it.pos, &s);
        } else {
            for (unsigned c = it.changed; c; c &= c - 1) {
                int i = __builtin_ctz(c), piece = it.pos.piece[i];
                unsigned from = sq_of(&s, piece), to = square_of[it.pos.loc[i]];
                s.w[piece & 1] ^= 1ULL << from | 1ULL << to;
                set_sq(&s, piece, to);
            }
        }
        int twin = square_of[it.pos.loc[0]] % 7 == 3 && jtb_index(g, ix, &s) != it.index;
        fn(ctx, it.index, &s, twin);
    } while (rank_iter_next(&it));
}

/* Indices of the positions where one piece of colour c of the ranked
 * position p (square sq[i] of piece i, occupied squares occ) stands on an
 * empty, non-den neighbour of its square and side is to move: the
 * predecessors (c the side that just moved) and the non-capturing children
 * (c the side to move).  Each differs from p by one piece: ranked
 * incrementally, then sorted and made distinct. */
static int one_step_indices(const rank_mover *mv, const unsigned *sq, uint64_t occ, int c, int side, uint64_t *out)
{
    const rank_position *p = &mv->base.p;
    uint64_t empty = ~occ & BOARD_MASK & ~(1ULL << DEN_WHITE | 1ULL << DEN_BLACK);
    int folded = 0, n = 0;
    for (int i = 0; i < p->n; i++) {
        if ((p->piece[i] & 1) != c)
            continue;
        uint8_t loc[4];
        int k = 0;
        for (uint64_t to = steps_from[sq[i]] & empty; to; to &= to - 1)
            loc[k++] = (uint8_t)location_of[__builtin_ctzll(to)];
        folded += rank_mover_indices(mv, i, loc, k, side, out + n);
        n += k;
    }
    if (!folded)
        return n;  /* distinct placements, no symmetry applied: distinct indices */
    for (int i = 1; i < n; i++) {  /* at most 16: insertion sort, then unique */
        /* the key held aside and the larger ones shifted up: a swap of
         * neighbours reads back what it just wrote (a stalled load) */
        uint64_t key = out[i];
        int j = i;
        for (; j > 0 && out[j - 1] > key; j--)
            out[j] = out[j - 1];
        out[j] = key;
    }
    int u = 0;
    for (int i = 0; i < n; i++)
        if (u == 0 || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
}

/* The ranked form of a state, with each piece's square. */
static void ranked_of_state(const game_state *s, rank_position *p, unsigned *sq)
{
    p->n = 0;
    p->side = (int)s->w[3];
    for (int q = 0; q < 8; q++) {
        unsigned at = sq_of(s, q);
        if (at != JUNGLE_ABSENT) {
            sq[p->n] = at;
            p->piece[p->n] = (uint8_t)q;
            p->loc[p->n++] = (uint8_t)location_of[at];
        }
    }
}

/* The squares and colour bitboards of a ranked position. */
static void squares_of_ranked(const rank_position *p, unsigned *sq, uint64_t colour[2])
{
    colour[0] = colour[1] = 0;
    for (int i = 0; i < p->n; i++) {
        sq[i] = square_of[p->loc[i]];
        colour[p->piece[i] & 1] |= 1ULL << sq[i];
    }
}

/* The indices of the predecessors (children 0) or non-capturing children
 * (children 1) of mover mv's base, none after a move that ended the game. */
static int steps(const rank_mover *mv, const unsigned *sq, const uint64_t colour[2], int children, uint64_t *out)
{
    int c = mv->base.p.side, moving = children ? c : 1 - c;  /* whose piece steps */
    if (children && ended_for(colour, c))
        return 0;
    return one_step_indices(mv, sq, colour[0] | colour[1], moving, 1 - c, out);
}

static int state_steps(const game_state *s, int children, uint64_t *out)
{
    rank_position p;
    rank_mover mv;
    unsigned sq[8];
    ranked_of_state(s, &p, sq);
    rank_mover_init(&mv, &p);
    return steps(&mv, sq, s->w, children, out);
}

/* From an index, without a board in between (the builder calls these for
 * every frontier position and counted parent). */
static int index_steps(int mat, uint64_t index, int children, uint64_t *out)
{
    rank_mover mv;
    unsigned sq[8];
    uint64_t colour[2];
    rank_mover_unindex(&mv, (rank_material)mat, index);
    squares_of_ranked(&mv.base.p, sq, colour);
    return steps(&mv, sq, colour, children, out);
}

static int jtb_unmoves(const game *g, const game_tb_index *ix, const game_state *s, uint64_t *pred)
{
    (void)g, (void)ix;
    return state_steps(s, 0, pred);
}
static int jtb_successors(const game *g, const game_tb_index *ix, const game_state *s, uint64_t *succ)
{
    (void)g, (void)ix;
    return state_steps(s, 1, succ);
}
static int jtb_unmoves_index(const game *g, const game_tb_index *ix, int mat, uint64_t index, uint64_t *pred)
{
    (void)g, (void)ix;
    return index_steps(mat, index, 0, pred);
}
static int jtb_successors_index(const game *g, const game_tb_index *ix, int mat, uint64_t index, uint64_t *succ)
{
    (void)g, (void)ix;
    return index_steps(mat, index, 1, succ);
}

/* Captures and den entries only, and the staying moves counted: the
 * builder's first pass asks this of every position.  Two staying moves lead
 * to one index only if the children are mirror images, which needs every
 * piece but the mover on file d (a step never joins a square to its mirror
 * image across file d); only then are the indices compared. */
static int jtb_exits(const game *g, const game_state *s, game_move *out, int *stays)
{
    int c = (int)s->w[3], staying;
    int n = jungle_moves_onto(g, s, s->w[1 - c] | 1ULL << den_of[1 - c], out, &staying);
    if (staying > 1 && __builtin_popcountll((s->w[0] | s->w[1]) & ~FILE_D) <= 1) {
        uint64_t succ[GAME_MAX_MOVES];
        staying = state_steps(s, 1, succ);
    }
    *stays = staying;
    return n;
}

/* The variants differ only in whether an elephant may take the rat: without
 * an elephant facing an enemy rat no position of the material, or of any
 * material captures lead to, is ruled differently. */
static const char *jtb_same_table_as(const game *g, int mat)
{
    int white_pair = (mat >> 6 & 1) && (mat >> 1 & 1);  /* E and r */
    int black_pair = (mat >> 7 & 1) && (mat & 1);       /* e and R */
    if (white_pair || black_pair)
        return NULL;
    return g->variant ? "jungle" : "jungle:classic";
}

/* Materials the rules play alike: they know a piece by its strength, and
 * the rat and the elephant besides (the rat takes the elephant; classic:
 * the elephant not the rat).  So where the map of b's piece kinds onto a's
 * in order of strength carries each colour's kinds onto the other's, and
 * the rat and the elephant are both there in both or in neither (then the
 * map keeps them), the games are alike square for square.  The map keeps
 * the pieces' order, so the Lehmer index, and the canonical White (more
 * pieces, then the strongest kind only one side has): the two tables are
 * the same index for index (results/jungle-5-census.tsv: 45 of the 99
 * tables to five pieces have another's values). */
static int materials_alike(int a, int b)
{
    unsigned ka = 0, kb = 0;  /* the kinds present: bit s for strength s */
    for (int s = 0; s < 4; s++) {
        ka |= (unsigned)((a >> 2 * s & 3) != 0) << s;
        kb |= (unsigned)((b >> 2 * s & 3) != 0) << s;
    }
    const unsigned rat_elephant = 1u | 8u;
    if (__builtin_popcount(ka) != __builtin_popcount(kb) ||
        ((ka & rat_elephant) == rat_elephant) != ((kb & rat_elephant) == rat_elephant))
        return 0;
    for (unsigned ra = ka, rb = kb; ra; ra &= ra - 1, rb &= rb - 1) {
        int sa = __builtin_ctz(ra), sb = __builtin_ctz(rb);
        if ((a >> 2 * sa & 3) != (b >> 2 * sb & 3))  /* the same colours have the kind */
            return 0;
    }
    return 1;
}

static int jtb_same_values_as(const game *g, int mat)
{
    int all[256], n = jtb_materials(g, __builtin_popcount((unsigned)mat), all, 256);
    for (int i = 0; i < n && all[i] != mat; i++)
        if (materials_alike(all[i], mat))  /* alike materials have as many pieces */
            return all[i];
    return -1;
}

static const game_tb_build_ops jungle_tb_build = {
    .each = jtb_each,
    .unmoves_index = jtb_unmoves_index,
    .successors_index = jtb_successors_index,
    .exits = jtb_exits,
    .same_table_as = jtb_same_table_as,
    .same_values_as = jtb_same_values_as,
};

const game_tb_ops jungle_tb_ops = {
    .materials = jtb_materials,
    .material_deps = jtb_material_deps,
    .material_of = jtb_material_of,
    .material_pieces = jtb_material_pieces,
    .material_name = jtb_material_name,
    .material_parse = jtb_material_parse,
    .size = jtb_size,
    .index = jtb_index,
    .unindex = jtb_unindex,
    .unmoves = jtb_unmoves,
    .successors = jtb_successors,
    .build = &jungle_tb_build,
};
