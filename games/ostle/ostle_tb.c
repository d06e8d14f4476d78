/* games/ostle/ostle_tb.c - Ostle's tables: a state index for the generic builder.
 *
 * Rule 8 makes a state's value depend on its forbidden move, so the tables
 * index states, not positions: per canonical position of ranking/'s index
 * (colour-free: mover's set, other's set, hole) first the state with nothing
 * forbidden, then one per move rule 8 can forbid there, in the order of
 * ostle_forbiddable.  A sparse state index per material (game_tb_index:
 * the game gives each position's count of states; tablebase/ makes the
 * index or maps it from a file, and passes it in) maps positions to
 * states.  A material
 * is a pair of piece counts {a, b}, a <= b; with a < b its table holds both
 * orientations (the side to move with a pieces first, then with b), because
 * a move that removes nothing turns one into the other.  Of the images of a
 * state on a symmetric position the least slot is the entry, the others are
 * twins (the builder's contract).
 */
#include "ostle_impl.h"
#include "../../ranking/ranking.h"
#include "../../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int side_pieces(const ostle_geom *gm, int k) { return k > gm->lose_at && k <= gm->w; }

struct ostle_tb *ostle_tb_new(int w, int h)
{
    struct ostle_tb *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    rank_ostle_init(&t->r, w, h);
    for (int a = 1; a <= w; a++)
        for (int b = a; b <= w; b++)
            t->split[OSTLE_MAT(a, b)] = ostle_split(t, OSTLE_MAT(a, b));
    return t;
}

void ostle_tb_free(struct ostle_tb *t) { free(t); }

static int is_material(const ostle_geom *gm, int mat)
{
    return mat >= 0 && mat < 64 && mat / 8 <= mat % 8 && side_pieces(gm, mat / 8) && side_pieces(gm, mat % 8);
}

static uint64_t ostle_positions(const game *g, int mat)
{
    const struct ostle_tb *t = geom(g)->tb;
    if (!is_material(geom(g), mat))
        return 0;
    return ostle_split(t, mat) + (mat / 8 < mat % 8 ? rank_ostle_size(&t->r, mat % 8, mat / 8) : 0);
}

/* The states of position p: none for a twin position (not its own least
 * index), else the one with nothing forbidden and one per forbiddable move. */
static int ostle_position_states(const game *g, int mat, uint64_t p)
{
    game_state s;
    game_move f[GAME_MAX_MOVES];
    return ostle_board_canonical(g, mat, p, &s) ? 1 + ostle_forbiddable(g, &s, f) : 0;
}

/* The material's index, as the caller (tablebase/) made it: a sparse
 * index of util/ behind the opaque handle. */
static const util_sindex *index_of(const game_tb_index *tix, int mat)
{
    return mat >= 0 && mat < tix->n ? (const util_sindex *)tix->of[mat] : NULL;
}

/* A position's place in its table: where its states start, its canonical
 * board and the symmetries that take the position onto it, and, made when
 * first needed, that board's forbiddable moves (the slots' order); once for
 * all the states of a position (the un-moves of a state name up to a dozen). */
typedef struct {
    const util_sindex *ix;
    uint64_t pos;    /* the position's index in ix */
    uint64_t first;
    int states;  /* how many: the state with nothing forbidden, then one per slot */
    int n, nk;  /* n < 0: the rest not made yet (only a forbidden move needs it) */
    game_move list[GAME_MAX_MOVES];
    uint8_t k[8];
    game_state board;
} pos_ref;

/* Everything but where the states start, whose index lines are
 * prefetched: a caller with several positions to place finds all their
 * canonical boards while those lines arrive. */
static void locate_start(const game *g, const game_tb_index *tix, const game_state *s, pos_ref *pr)
{
    const struct ostle_tb *t = geom(g)->tb;
    int side = side_of(s);
    uint32_t ms = (uint32_t)s->w[side], os = (uint32_t)s->w[!side], c[3];
    int a = __builtin_popcount(ms), b = __builtin_popcount(os);
    int lo = a < b ? a : b, hi = a < b ? b : a;
    const util_sindex *ix = index_of(tix, OSTLE_MAT(lo, hi));
    unsigned syms;
    uint64_t j = rank_ostle_canonical(&t->r, hole_of(s), ms, os, c, &syms);
    pr->ix = ix;
    pr->pos = a == lo ? j : t->split[OSTLE_MAT(lo, hi)] + j;
    __builtin_prefetch(&ix->line[pr->pos / UTIL_SINDEX_LINE]);
    pr->n = -1;
    pr->nk = 0;
    for (; syms; syms &= syms - 1)
        pr->k[pr->nk++] = (uint8_t)__builtin_ctz(syms);
    memset(&pr->board, 0, sizeof pr->board);
    pr->board.w[0] = c[1];
    pr->board.w[1] = c[2];
    set_meta(&pr->board, c[0], 0, NO_MOVE);
}

static void locate_finish(pos_ref *pr)
{
    pr->first = util_sindex_first(pr->ix, pr->pos);
    pr->states = (int)util_sindex_count(pr->ix, pr->pos);
}

static void locate(const game *g, const game_tb_index *tix, const game_state *s, pos_ref *pr)
{
    locate_start(g, tix, s, pr);
    locate_finish(pr);
}

/* The slots' order: the canonical board's forbiddable moves. */
static void locate_rest(const game *g, pos_ref *pr)
{
    pr->n = ostle_forbiddable(g, &pr->board, pr->list);
}

/* The entry of the position's state with move f (in the position's own
 * frame) forbidden: the least slot over its images; GAME_TB_NO_INDEX when
 * rule 8 cannot forbid f there (a state that cannot arise). */
static uint64_t state_entry(const game *g, pos_ref *pr, unsigned f)
{
    if (f == NO_MOVE)
        return pr->first;
    if (pr->n < 0)
        locate_rest(g, pr);
    const ostle_geom *gm = geom(g);
    int best = pr->n;
    for (int q = 0; q < pr->nk; q++) {
        unsigned fk = ostle_map_move(gm, &gm->tb->r, pr->k[q], f);
        for (int x = 0; x < best; x++)
            if (pr->list[x] == fk)
                best = x;
    }
    /* a move no move into the position leaves forbidden has no entry */
    return best == pr->n ? GAME_TB_NO_INDEX : pr->first + 1 + (uint64_t)best;
}

static uint64_t ostle_index(const game *g, const game_tb_index *tix, const game_state *s)
{
    pos_ref pr;
    locate(g, tix, s, &pr);
    return state_entry(g, &pr, forbidden_of(s));
}

/* A builder probes a position's captures together: their index lines
 * are fetched at once, not one miss after another. */
static void ostle_index_many(const game *g, const game_tb_index *tix, const game_state *s, int n, uint64_t *out)
{
    pos_ref pr[GAME_MAX_MOVES];
    for (int k = 0; k < n; k++)
        locate_start(g, tix, &s[k], &pr[k]);
    for (int k = 0; k < n; k++) {
        locate_finish(&pr[k]);
        out[k] = state_entry(g, &pr[k], forbidden_of(&s[k]));
    }
}

/* The last position a thread unindexed: the builder's frontiers come in
 * index order, and a position's states often resolve at the same ply. */
static _Thread_local struct {
    uint64_t serial, first, end;  /* serial: the index's, 0 for none */
    int mat, nf;
    game_state board;
    game_move list[GAME_MAX_MOVES];
} last_position;

/* Makes last_position the position of index. */
static void position_of_index(const game *g, const game_tb_index *tix, int mat, uint64_t index)
{
    const util_sindex *ix = index_of(tix, mat);
    if (last_position.serial != ix->serial || last_position.mat != mat || index < last_position.first ||
        index >= last_position.end) {
        uint64_t first, p = util_sindex_position(ix, index, &first);
        ostle_board(g, mat, p, &last_position.board);
        last_position.serial = ix->serial;
        last_position.mat = mat;
        last_position.first = first;
        last_position.end = first + util_sindex_count(ix, p);
        last_position.nf = -1;
    }
}

static void ostle_state_group(const game *g, const game_tb_index *tix, int mat, uint64_t index, uint64_t *first,
                              uint64_t *end)
{
    position_of_index(g, tix, mat, index);
    *first = last_position.first;
    *end = last_position.end;
}

static void ostle_unindex_state(const game *g, const game_tb_index *tix, int mat, uint64_t index, game_state *s)
{
    position_of_index(g, tix, mat, index);
    *s = last_position.board;
    uint64_t slot = index - last_position.first;
    if (slot) {
        if (last_position.nf < 0)
            last_position.nf = ostle_forbiddable(g, s, last_position.list);
        set_meta(s, hole_of(s), 0, last_position.list[slot - 1]);
    }
}

/* Position by position: a board, its forbiddable moves and its symmetries
 * once for all its states; only a symmetric board can have twin states. */
static void ostle_each(const game *g, const game_tb_index *tix, int mat, uint64_t first, uint64_t end,
                       void (*fn)(void *ctx, uint64_t index, const game_state *s, int twin), void *ctx)
{
    if (first >= end)
        return;
    const util_sindex *ix = index_of(tix, mat);
    uint64_t at, e = first;
    for (uint64_t p = util_sindex_position(ix, first, &at); e < end; at += util_sindex_count(ix, p++)) {
        if (!util_sindex_count(ix, p))
            continue;  /* not canonical: no states */
        game_state board;
        ostle_board(g, mat, p, &board);
        pos_ref pr;
        locate(g, tix, &board, &pr);
        for (; e < at + util_sindex_count(ix, p) && e < end; e++) {
            uint64_t slot = e - at;
            if (slot == 0) {
                fn(ctx, e, &board, 0);
                continue;
            }
            if (pr.n < 0)
                locate_rest(g, &pr);
            game_state s = board;
            unsigned f = pr.list[slot - 1];
            set_meta(&s, hole_of(&s), 0, f);
            fn(ctx, e, &s, pr.nk > 1 && state_entry(g, &pr, f) != e);
        }
    }
}

static int ostle_materials(const game *g, int max_pieces, int *out, int cap)
{
    const ostle_geom *gm = geom(g);
    int n = 0;
    for (int total = 2 * (gm->lose_at + 1); total <= max_pieces; total++)
        for (int a = gm->lose_at + 1; 2 * a <= total; a++)
            if (side_pieces(gm, total - a) && n < cap)
                out[n++] = OSTLE_MAT(a, total - a);
    return n;
}

static int ostle_material_deps(const game *g, int mat, int *out)
{
    const ostle_geom *gm = geom(g);
    int a = mat / 8, b = mat % 8, n = 0;
    if (side_pieces(gm, a - 1))
        out[n++] = OSTLE_MAT(a - 1, b);
    if (side_pieces(gm, b - 1) && a != b)
        out[n++] = a <= b - 1 ? OSTLE_MAT(a, b - 1) : OSTLE_MAT(b - 1, a);
    return n;
}

static int ostle_material_of(const game *g, const game_state *s)
{
    const ostle_geom *gm = geom(g);
    int a = __builtin_popcountll(s->w[0]), b = __builtin_popcountll(s->w[1]);
    if (!side_pieces(gm, a) || !side_pieces(gm, b))
        return -1;
    return a < b ? OSTLE_MAT(a, b) : OSTLE_MAT(b, a);
}

static int ostle_material_pieces(const game *g, int mat) { (void)g; return mat / 8 + mat % 8; }

static void ostle_material_name(const game *g, int mat, char *buf, size_t len)
{
    (void)g;
    snprintf(buf, len, "%d+%d", mat / 8, mat % 8);
}

static int ostle_material_parse(const game *g, const char *name)
{
    long a, b;
    if (util_read_pair(name, '+', NULL, 0, 8, &a, &b, NULL) != 0 || a > b || !side_pieces(geom(g), (int)a) ||
        !side_pieces(geom(g), (int)b))
        return -1;
    return OSTLE_MAT((int)a, (int)b);
}

static uint64_t ostle_size(const game *g, const game_tb_index *tix, int mat)
{
    (void)g;
    const util_sindex *ix = index_of(tix, mat);
    return ix ? ix->states : 0;
}

/* The entries of the states of un-move j's position (located in pr) that
 * allow its move mv, into pred; returns how many. */
static int states_allowing(const game *g, pos_ref *pr, const game_state *from, game_move mv, uint64_t *pred)
{
    int n = 0;
    if (pr->nk == 1) {
        /* One symmetry onto the canonical board: its forbiddable moves are
         * the images of this position's, slot by slot (in order). */
        locate_rest(g, pr);
        unsigned barred = ostle_map_move(geom(g), &geom(g)->tb->r, pr->k[0], mv);
        pred[n++] = pr->first;
        for (int x = 0; x < pr->n; x++)
            if (pr->list[x] != barred)
                pred[n++] = pr->first + 1 + (uint64_t)x;
        return n;
    }
    game_move f[GAME_MAX_MOVES];
    int nf = ostle_forbiddable(g, from, f);
    for (int q = -1; q < nf; q++) {
        unsigned forbid = q < 0 ? NO_MOVE : f[q];
        if (forbid != mv)
            pred[n++] = state_entry(g, pr, forbid);
    }
    return ostle_distinct(pred, n);
}

/* States from which a move that removes nothing leads to state s: the
 * un-moves into s, each from every state of its position that allows the
 * move; in order. */
static int ostle_unmoves_states(const game *g, const game_tb_index *tix, const game_state *s, uint64_t *pred)
{
    game_state from[GAME_MAX_MOVES];
    game_move mv[GAME_MAX_MOVES];
    int np = ostle_unmoves_state(g, s, from, mv);
    pos_ref pr;
    if (forbidden_of(s) != NO_MOVE) {
        if (np == 0)
            return 0;  /* a forbidden move names at most one un-move */
        locate(g, tix, &from[0], &pr);
        return states_allowing(g, &pr, &from[0], mv[0], pred);
    }
    /* A move that leaves nothing forbidden is forbiddable nowhere: every
     * state of a predecessor position allows it, a whole run of entries
     * (or, on a symmetric board, its entries that are no twins).  Runs of
     * distinct positions do not overlap: sorted by their start, once each. */
    struct { uint64_t first; int len; } run[GAME_MAX_PREDECESSORS];
    struct { const util_sindex *ix; uint64_t pos; int nk; } at[GAME_MAX_MOVES];
    for (int j = 0; j < np; j++) {
        locate_start(g, tix, &from[j], &pr);
        at[j].ix = pr.ix;
        at[j].pos = pr.pos;
        at[j].nk = pr.nk;
    }
    int nr = 0;
    for (int j = 0; j < np; j++) {
        if (at[j].nk == 1) {
            run[nr].first = util_sindex_first(at[j].ix, at[j].pos);
            run[nr++].len = (int)util_sindex_count(at[j].ix, at[j].pos);
            continue;
        }
        locate(g, tix, &from[j], &pr);
        uint64_t e[GAME_MAX_MOVES];
        int ne = states_allowing(g, &pr, &from[j], mv[j], e);
        for (int x = 0; x < ne; x++) {
            run[nr].first = e[x];
            run[nr++].len = 1;
        }
    }
    for (int i = 1; i < nr; i++)
        for (int j = i; j > 0 && run[j - 1].first > run[j].first; j--) {
            __typeof__(run[0]) t = run[j];
            run[j] = run[j - 1];
            run[j - 1] = t;
        }
    int n = 0;
    for (int i = 0; i < nr; i++)
        if (i == 0 || run[i].first != run[i - 1].first)
            for (int x = 0; x < run[i].len; x++)
                pred[n++] = run[i].first + (uint64_t)x;
    return n;
}

/* The entry (tix not NULL) or the orbit key (NULL) of each child of s that
 * keeps every piece, distinct, into out; returns how many. */
static int staying_children(const game *g, const game_tb_index *tix, const game_state *s, uint64_t *out)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), k = 0;
    uint64_t pieces = (uint64_t)__builtin_popcountll(s->w[0] | s->w[1]);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        if ((uint64_t)__builtin_popcountll(c.w[0] | c.w[1]) == pieces)
            out[k++] = tix ? ostle_index(g, tix, &c) : ostle_orbit_key(g, &c);
    }
    return ostle_distinct(out, k);
}

static int ostle_successors_states(const game *g, const game_tb_index *tix, const game_state *s, uint64_t *succ)
{
    return staying_children(g, tix, s, succ);
}

static int ostle_count_successors(const game *g, const game_state *s)
{
    uint64_t key[GAME_MAX_MOVES];
    return staying_children(g, NULL, s, key);
}

/* The moves that remove a piece: a piece move whose chain of pieces runs
 * off the board or into the hole without meeting an empty square. */
static int ostle_exits(const game *g, const game_state *s, game_move *out, int *stays)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s), forbidden = forbidden_of(s);
    uint64_t occ = s->w[0] | s->w[1];
    int n = 0;
    for (uint64_t own = s->w[side_of(s)]; own; own &= own - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(own);
        for (unsigned d = 0; d < 4; d++) {
            int next = gm->step[sq][d];
            while (next >= 0 && (unsigned)next != hole && ((occ >> next) & 1))
                next = gm->step[next][d];
            if ((next < 0 || (unsigned)next == hole) && sq * 4 + d != forbidden)
                out[n++] = sq * 4 + d;
        }
    }
    *stays = game_count(g, s) > n ? -1 : 0;
    return n;
}

static const game_tb_build_ops ostle_tb_build = {
    .index_many = ostle_index_many,
    .state_group = ostle_state_group,
    .each = ostle_each,
    .count_successors = ostle_count_successors,
    .exits = ostle_exits,
    .census = ostle_census,
    .census_classes = ostle_census_classes,
};

const game_tb_ops ostle_tb_ops = {
    .materials = ostle_materials,
    .material_deps = ostle_material_deps,
    .material_of = ostle_material_of,
    .material_pieces = ostle_material_pieces,
    .material_name = ostle_material_name,
    .material_parse = ostle_material_parse,
    .size = ostle_size,
    .index = ostle_index,
    .unindex = ostle_unindex_state,
    .unmoves = ostle_unmoves_states,
    .successors = ostle_successors_states,
    .positions = ostle_positions,
    .position_states = ostle_position_states,
    .build = &ostle_tb_build,
};
