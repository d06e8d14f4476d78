/* games/jungle.c - Jungle Checkers (RULES.md section 1) on 49-bit bitboards.
 *
 * Square s = (rank-1)*7 + file, a1 = 0 ... g7 = 48.  Pieces are numbered in
 * the ranking order R r D d T t E e: colour = p & 1 (0 White), strength = p >> 1.
 * State words: w[0], w[1] occupancy of White and Black; w[2] one byte per
 * piece, its square or JUNGLE_ABSENT; w[3] the side to move.
 */
#include "game_impl.h"
#include "../ranking/ranking.h"

#include <stdlib.h>
#include <string.h>

#define JUNGLE_ABSENT 0xFFu
#define BOARD_MASK ((1ULL << 49) - 1)
#define FILE_A 0x0040810204081ULL /* a1, a2, ... a7 */
#define FILE_G (FILE_A << 6)
#define FILE_D (FILE_A << 3)
#define DEN_WHITE 3   /* d1 */
#define DEN_BLACK 45  /* d7 */

/* Canonical material of each piece set, and ranking's location of each
 * square and back, filled when a game opens: the builder asks for them for
 * every child of every position. */
static uint8_t canonical_of[256];
static int8_t location_of[49];
static uint8_t square_of[47];

static const char piece_letters[] = "RrDdTtEe";
static const int den_of[2] = { DEN_WHITE, DEN_BLACK };

static inline unsigned sq_of(const game_state *s, int p) { return (unsigned)(s->w[2] >> (8 * p)) & 0xFFu; }

static inline void set_sq(game_state *s, int p, unsigned sq)
{
    s->w[2] = (s->w[2] & ~(0xFFULL << (8 * p))) | ((uint64_t)sq << (8 * p));
}

static inline uint64_t neighbours(uint64_t b)
{
    return ((b << 7) & BOARD_MASK) | (b >> 7) | ((b << 1) & ~FILE_A & BOARD_MASK) | ((b >> 1) & ~FILE_G);
}

/* Squares a piece of each strength of side c may move to: empty squares and
 * the opponent pieces it may capture, never its own den. */
static void target_masks(const game *g, const game_state *s, int c, uint64_t target[4])
{
    uint64_t empty = ~(s->w[0] | s->w[1]) & BOARD_MASK & ~(1ULL << den_of[c]);
    uint64_t weaker_or_equal = 0, opp_rat = 0, opp_elephant = 0;
    for (int strength = 0; strength < 4; strength++) {
        unsigned q = sq_of(s, 2 * strength + (1 - c));
        uint64_t bit = q == JUNGLE_ABSENT ? 0 : 1ULL << q;
        weaker_or_equal |= bit;
        target[strength] = empty | weaker_or_equal;
        if (strength == 0) opp_rat = bit;
        if (strength == 3) opp_elephant = bit;
    }
    target[0] |= opp_elephant;             /* the rat catches the elephant */
    if (g->variant)
        target[3] &= ~opp_rat;             /* classic: the elephant fears the rat */
}

/* The game ended with the last move: the mover reached the den of the side
 * to move, or took its last piece. */
static inline int ended_for(const uint64_t colour[2], int c)
{
    return (colour[1 - c] >> den_of[c]) & 1 || colour[c] == 0;
}

static inline int ended_by_last_move(const game_state *s) { return ended_for(s->w, (int)s->w[3]); }

static int jungle_count(const game *g, const game_state *s)
{
    if (ended_by_last_move(s))
        return 0;
    int c = (int)s->w[3], n = 0;
    uint64_t target[4];
    target_masks(g, s, c, target);
    for (int strength = 0; strength < 4; strength++) {
        unsigned sq = sq_of(s, 2 * strength + c);
        if (sq != JUNGLE_ABSENT)
            n += __builtin_popcountll(neighbours(1ULL << sq) & target[strength]);
    }
    return n;
}

/* The moves of s onto squares of `onto`, into out; *elsewhere counts the
 * others (the tables' first pass wants captures and den entries only). */
static int moves_onto(const game *g, const game_state *s, uint64_t onto, game_move *out, int *elsewhere)
{
    *elsewhere = 0;
    if (ended_by_last_move(s))
        return 0;
    int c = (int)s->w[3], n = 0;
    uint64_t target[4];
    target_masks(g, s, c, target);
    for (int strength = 0; strength < 4; strength++) {
        int p = 2 * strength + c;
        unsigned sq = sq_of(s, p);
        if (sq == JUNGLE_ABSENT)
            continue;
        uint64_t to = neighbours(1ULL << sq) & target[strength];
        *elsewhere += __builtin_popcountll(to & ~onto);
        for (to &= onto; to; to &= to - 1)
            out[n++] = sq | (unsigned)__builtin_ctzll(to) << 6 | (unsigned)p << 12;
    }
    return n;
}

static int jungle_moves(const game *g, const game_state *s, game_move *out)
{
    int none;
    return moves_onto(g, s, BOARD_MASK, out, &none);
}

static void jungle_play(const game *g, game_state *s, game_move m)
{
    (void)g;
    unsigned from = m & 63, to = (m >> 6) & 63, p = m >> 12;
    int c = (int)(p & 1);
    if ((s->w[1 - c] >> to) & 1) {
        for (int q = 1 - c; q < 8; q += 2)
            if (sq_of(s, q) == to) {
                set_sq(s, q, JUNGLE_ABSENT);
                break;
            }
        s->w[1 - c] &= ~(1ULL << to);
    }
    s->w[c] ^= (1ULL << from) | (1ULL << to);
    set_sq(s, (int)p, to);
    s->w[3] ^= 1;
}

static game_result jungle_result(const game *g, const game_state *s)
{
    int c = (int)s->w[3];
    if (ended_by_last_move(s))
        return c == 0 ? GAME_WIN1 : GAME_WIN0;
    /* almost always some piece has an empty square next to it: no need to
     * count the moves (searches ask this of every child) */
    uint64_t empty = ~(s->w[0] | s->w[1]) & BOARD_MASK & ~(1ULL << den_of[c]);
    if (neighbours(s->w[c]) & empty)
        return GAME_ONGOING;
    return jungle_count(g, s) ? GAME_ONGOING : GAME_DRAW;
}

static int jungle_to_move(const game *g, const game_state *s) { (void)g; return (int)s->w[3]; }

static game_key jungle_key(const game *g, const game_state *s)
{
    (void)g;
    return (game_key){ s->w[2], s->w[3] };
}

static int jungle_score(const game *g, const game_state *s)
{
    return game_outcome_for(jungle_result(g, s), 0);
}

static void jungle_start(const game *g, game_state *s)
{
    /* R f1, r b7, D c2, d e6, T e2, t c6, E b1, e f7 */
    static const unsigned start_sq[8] = { 5, 43, 9, 39, 11, 37, 1, 47 };
    (void)g;
    memset(s, 0, sizeof *s);
    for (int p = 0; p < 8; p++) {
        set_sq(s, p, start_sq[p]);
        s->w[p & 1] |= 1ULL << start_sq[p];
    }
}

static int piece_at(const game_state *s, unsigned sq)
{
    for (int p = 0; p < 8; p++)
        if (sq_of(s, p) == sq)
            return p;
    return -1;
}

static int jungle_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    (void)g;
    s->w[2] = ~0ULL;
    const char *t = text;
    for (int rank = 7; rank >= 1; rank--) {
        int file = 0;
        while (*t && *t != '/' && *t != ' ') {
            if (*t >= '1' && *t <= '7') {
                file += *t - '0';
            } else {
                const char *l = strchr(piece_letters, *t);
                if (!l || !*t)
                    return game_error(err, errlen, "bad character '%c' in JFEN rank %d", *t, rank);
                int p = (int)(l - piece_letters);
                if (file >= 7)
                    return game_error(err, errlen, "JFEN rank %d has more than 7 cells", rank);
                if (sq_of(s, p) != JUNGLE_ABSENT)
                    return game_error(err, errlen, "piece '%c' appears twice", *t);
                unsigned sq = (unsigned)((rank - 1) * 7 + file);
                set_sq(s, p, sq);
                s->w[p & 1] |= 1ULL << sq;
                file++;
            }
            if (file > 7)
                return game_error(err, errlen, "JFEN rank %d has more than 7 cells", rank);
            t++;
        }
        if (file != 7)
            return game_error(err, errlen, "JFEN rank %d has %d cells, not 7", rank, file);
        if (rank > 1) {
            if (*t != '/')
                return game_error(err, errlen, "JFEN needs 7 ranks separated by '/'");
            t++;
        }
    }
    if (*t != ' ' || (t[1] != 'w' && t[1] != 'b') || t[2])
        return game_error(err, errlen, "JFEN must end with a space and the side to move, 'w' or 'b'");
    int c = t[1] == 'b';
    s->w[3] = (uint64_t)c;
    for (int side = 0; side < 2; side++)
        if ((s->w[side] >> den_of[side]) & 1)
            return game_error(err, errlen, "a %s piece stands on its own den", side ? "black" : "white");
    if ((s->w[c] >> den_of[1 - c]) & 1)
        return game_error(err, errlen, "the side to move already stands on the opponent's den");
    if (s->w[1 - c] == 0)
        return game_error(err, errlen, "the side that just moved has no pieces");
    return 0;
}

static void square_name(unsigned sq, char *buf)
{
    buf[0] = (char)('a' + sq % 7);
    buf[1] = (char)('1' + sq / 7);
    buf[2] = 0;
}

static void jungle_format(const game *g, const game_state *s, char *buf, size_t len)
{
    (void)g;
    char out[80];
    size_t n = 0;
    for (int rank = 7; rank >= 1; rank--) {
        int empty = 0;
        for (int file = 0; file < 7; file++) {
            int p = piece_at(s, (unsigned)((rank - 1) * 7 + file));
            if (p < 0) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = piece_letters[p];
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (rank > 1)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = s->w[3] ? 'b' : 'w';
    out[n] = 0;
    snprintf(buf, len, "%s", out);
}

static void jungle_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len)
{
    (void)g; (void)s;
    char a[3], b[3];
    square_name(m & 63, a);
    square_name((m >> 6) & 63, b);
    snprintf(buf, len, "%s%s", a, b);
}

static void jungle_diagram(const game *g, const game_state *s, FILE *out)
{
    (void)g;
    for (int rank = 7; rank >= 1; rank--) {
        fprintf(out, "%d", rank);
        for (int file = 0; file < 7; file++) {
            unsigned sq = (unsigned)((rank - 1) * 7 + file);
            int p = piece_at(s, sq);
            char ch = p >= 0 ? piece_letters[p] : (sq == DEN_WHITE || sq == DEN_BLACK) ? '#' : '.';
            fprintf(out, " %c", ch);
        }
        fputc('\n', out);
    }
    fputs("  a b c d e f g\n", out);
}

/* Steps from sq to the opponent's den of side c (the board's own metric). */
static int den_distance(unsigned sq, int c)
{
    unsigned den = (unsigned)den_of[1 - c];
    return abs((int)(sq % 7) - (int)(den % 7)) + abs((int)(sq / 7) - (int)(den / 7));
}

static unsigned jungle_move_motifs(const game *g, const game_state *s, game_move m)
{
    unsigned from = m & 63, to = (m >> 6) & 63, p = m >> 12;
    int c = (int)(p & 1), before = den_distance(from, c), after = den_distance(to, c);
    unsigned f = ((s->w[1 - c] >> to) & 1) ? GAME_MOTIF_CAPTURE : 0;
    f |= after < before ? GAME_MOTIF_APPROACH : after > before ? GAME_MOTIF_RETREAT : 0;
    game_state t = *s;
    jungle_play(g, &t, m);
    game_move reply[GAME_MAX_MOVES];
    int n = jungle_moves(g, &t, reply);
    for (int i = 0; i < n; i++)
        if (((reply[i] >> 6) & 63) == to)
            return f | GAME_MOTIF_OFFER;
    return f;
}

static void jungle_square(const game *g, const game_state *s, int file, int rank, game_square *out)
{
    (void)g;
    unsigned sq = (unsigned)(rank * 7 + file);
    int p = piece_at(s, sq);
    *out = (game_square){ p < 0 ? -1 : p & 1, p < 0 ? 0 : piece_letters[p], sq == DEN_WHITE || sq == DEN_BLACK };
}

static const game_tb_ops jungle_tb_ops;

static const game_puzzle_ops jungle_puzzle_ops = {
    .move_motifs = jungle_move_motifs,
    .square = jungle_square,
    .light_player = 0,  /* White */
};

static const game_ops jungle_ops = {
    .name = "jungle",
    .player = { "White", "Black" },
    .finished_is_perft_leaf = 0,
    .start = jungle_start,
    .moves = jungle_moves,
    .count = jungle_count,
    .play = jungle_play,
    .result = jungle_result,
    .to_move = jungle_to_move,
    .key = jungle_key,
    .score = jungle_score,
    .parse = jungle_parse,
    .format = jungle_format,
    .format_move = jungle_format_move,
    .diagram = jungle_diagram,
    .tb = &jungle_tb_ops,
    .puzzle = &jungle_puzzle_ops,
};

game *jungle_open(const char *args, const char *variant, char *err, size_t errlen)
{
    int classic;
    /* "jungle:classic" is the canonical name of the variant (g->name), so it
     * opens as a spec too */
    if (*args && strcmp(args, "classic") == 0 && (!variant || strcmp(variant, "classic") == 0))
        variant = args;
    else if (*args) {
        game_error(err, errlen, "jungle takes no board size (got 'jungle:%s')", args);
        return NULL;
    }
    if (!variant || strcmp(variant, "thesis") == 0)
        classic = 0;
    else if (strcmp(variant, "classic") == 0)
        classic = 1;
    else {
        game_error(err, errlen, "unknown jungle variant '%s' (thesis, classic)", variant);
        return NULL;
    }
    game *g = game_alloc(&jungle_ops, classic ? "jungle:classic" : "jungle");
    if (!g) {
        game_error(err, errlen, "out of memory");
        return NULL;
    }
    g->width = g->height = 7;
    g->variant = classic;
    for (unsigned m = 0; m < 256; m++)  /* the same values on every open */
        canonical_of[m] = (uint8_t)rank_material_canonical(m);
    for (int sq = 0; sq < 49; sq++) {
        location_of[sq] = (int8_t)rank_location(sq);
        if (location_of[sq] >= 0)
            square_of[location_of[sq]] = (uint8_t)sq;
    }
    return g;
}

/* --- endgame-table support through ranking/ ------------------------------ */

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

static uint64_t jtb_size(const game *g, int mat) { (void)g; return rank_size((rank_material)mat); }

static uint64_t jtb_index(const game *g, const game_state *s)
{
    (void)g;
    uint8_t square[8];
    for (int q = 0; q < 8; q++)
        square[q] = (uint8_t)sq_of(s, q);
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

static void jtb_unindex(const game *g, int mat, uint64_t index, game_state *s)
{
    (void)g;
    rank_position p;
    rank_unindex((rank_material)mat, index, &p);
    state_of(&p, s);
}

/* Enumeration by the Lehmer increment: a twin needs its first piece on file
 * d (the mirror rule decides by the first piece off it), so only those pay
 * for an index. */
static void jtb_each(const game *g, int mat, uint64_t first, uint64_t end,
                     void (*fn)(void *ctx, uint64_t index, const game_state *s, int twin), void *ctx)
{
    if (first >= end)
        return;
    rank_iter it;
    rank_iter_start(&it, (rank_material)mat, first, end);
    do {
        game_state s;
        state_of(&it.pos, &s);
        int twin = square_of[it.pos.loc[0]] % 7 == 3 && jtb_index(g, &s) != it.index;
        fn(ctx, it.index, &s, twin);
    } while (rank_iter_next(&it));
}

/* Indices of the positions where one piece of colour c of the ranked
 * position p (square sq[i] of piece i, occupied squares occ) stands on an
 * empty, non-den neighbour of its square and side is to move: the
 * predecessors (c the side that just moved) and the non-capturing children
 * (c the side to move).  Each differs from p by one piece: ranked
 * incrementally, then sorted and made distinct. */
static int one_step_indices(const rank_position *p, const unsigned *sq, uint64_t occ, int c, int side, uint64_t *out)
{
    rank_mover mv;
    rank_mover_init(&mv, p);
    uint64_t empty = ~occ & BOARD_MASK & ~(1ULL << DEN_WHITE | 1ULL << DEN_BLACK);
    int folded = 0, n = 0;
    for (int i = 0; i < p->n; i++) {
        if ((p->piece[i] & 1) != c)
            continue;
        for (uint64_t to = neighbours(1ULL << sq[i]) & empty; to; to &= to - 1)
            out[n++] = rank_mover_index(&mv, i, location_of[__builtin_ctzll(to)], side, &folded);
    }
    if (!folded)
        return n;  /* distinct placements, no symmetry applied: distinct indices */
    for (int i = 1; i < n; i++)  /* at most 16: insertion sort, then unique */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint64_t t = out[j]; out[j] = out[j - 1]; out[j - 1] = t;
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

/* The indices of p's predecessors (children 0) or non-capturing children
 * (children 1), none after a move that ended the game. */
static int steps(const rank_position *p, const unsigned *sq, const uint64_t colour[2], int children, uint64_t *out)
{
    int c = p->side, moving = children ? c : 1 - c;  /* whose piece steps */
    if (children && ended_for(colour, c))
        return 0;
    return one_step_indices(p, sq, colour[0] | colour[1], moving, 1 - c, out);
}

static int state_steps(const game_state *s, int children, uint64_t *out)
{
    rank_position p;
    unsigned sq[8];
    ranked_of_state(s, &p, sq);
    return steps(&p, sq, s->w, children, out);
}

/* From an index, without a board in between (the builder calls these for
 * every frontier position and counted parent). */
static int index_steps(int mat, uint64_t index, int children, uint64_t *out)
{
    rank_position p;
    unsigned sq[8];
    uint64_t colour[2];
    rank_unindex((rank_material)mat, index, &p);
    squares_of_ranked(&p, sq, colour);
    return steps(&p, sq, colour, children, out);
}

static int jtb_unmoves(const game *g, const game_state *s, uint64_t *pred) { (void)g; return state_steps(s, 0, pred); }
static int jtb_successors(const game *g, const game_state *s, uint64_t *succ) { (void)g; return state_steps(s, 1, succ); }
static int jtb_unmoves_index(const game *g, int mat, uint64_t index, uint64_t *pred)
{
    (void)g;
    return index_steps(mat, index, 0, pred);
}
static int jtb_successors_index(const game *g, int mat, uint64_t index, uint64_t *succ)
{
    (void)g;
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
    int n = moves_onto(g, s, s->w[1 - c] | 1ULL << den_of[1 - c], out, &staying);
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

static const game_tb_ops jungle_tb_ops = {
    .materials = jtb_materials,
    .material_deps = jtb_material_deps,
    .material_of = jtb_material_of,
    .material_pieces = jtb_material_pieces,
    .material_name = jtb_material_name,
    .material_parse = jtb_material_parse,
    .size = jtb_size,
    .index = jtb_index,
    .unindex = jtb_unindex,
    .each = jtb_each,
    .unmoves = jtb_unmoves,
    .successors = jtb_successors,
    .unmoves_index = jtb_unmoves_index,
    .successors_index = jtb_successors_index,
    .exits = jtb_exits,
    .same_table_as = jtb_same_table_as,
};
