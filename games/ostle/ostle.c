/* games/ostle/ostle.c - Ostle (docs/rules.md section 2) on 25-bit bitboards.
 *
 * Square s = (rank-1)*W + file.  State words: w[0] Black's pieces (player 0),
 * w[1] White's, w[2] = hole | side << 8 | forbidden << 16 where forbidden is
 * the move barred by rule 8 or NO_MOVE.  A move is square*4 + direction.
 *
 * Rule 8 without history: after a move that removes nothing, the only move
 * that can restore the previous board is the opponent moving the hole back,
 * or the opponent pushing the whole chain back from its far end when the last
 * pushed piece is the opponent's own.  play() records that move in the state.
 *
 * The parser takes a forbidden move only where rule 8 can forbid it (some
 * move into the position leaves it forbidden: ostle_forbiddable), so that
 * every state it accepts is one the tables index.
 *
 * Reduced boards (ostle:WxH, each side 3..5) exist for brute-force checks:
 * each side starts on its back rank with W pieces, the hole on the centre
 * square (rounded down), and a side loses when it is down to W-2 pieces.
 */
#include "ostle_impl.h"
#include "../../util/util.h"

#include <stdlib.h>
#include <string.h>

static const char dir_letters[] = "UDLR";

static game_result ostle_result(const game *g, const game_state *s)
{
    int lose_at = geom(g)->lose_at;
    if (__builtin_popcountll(s->w[0]) <= lose_at)
        return GAME_WIN1;
    if (__builtin_popcountll(s->w[1]) <= lose_at)
        return GAME_WIN0;
    return GAME_ONGOING;
}

static int ostle_count(const game *g, const game_state *s)
{
    if (ostle_result(g, s) != GAME_ONGOING)
        return 0;
    uint64_t empty = ~(s->w[0] | s->w[1]);
    return 4 * __builtin_popcountll(s->w[side_of(s)])
         + __builtin_popcountll(geom(g)->nbr[hole_of(s)] & empty)
         - (forbidden_of(s) != NO_MOVE);
}

static int ostle_moves(const game *g, const game_state *s, game_move *out)
{
    if (ostle_result(g, s) != GAME_ONGOING)
        return 0;
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s), forbidden = forbidden_of(s);
    uint64_t occ = s->w[0] | s->w[1];
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int to = gm->step[hole][d];
        if (to >= 0 && !((occ >> to) & 1) && hole * 4 + (unsigned)d != forbidden)
            out[n++] = hole * 4 + (unsigned)d;
    }
    for (uint64_t own = s->w[side_of(s)]; own; own &= own - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(own);
        for (unsigned d = 0; d < 4; d++)
            if (sq * 4 + d != forbidden)
                out[n++] = sq * 4 + d;
    }
    return n;
}

static void ostle_play(const game *g, game_state *s, game_move m)
{
    const ostle_geom *gm = geom(g);
    unsigned sq = m >> 2, d = m & 3, back = d ^ 1; /* U<->D, L<->R */
    unsigned hole = hole_of(s);
    int mover = side_of(s);
    if (sq == hole) {
        unsigned to = (unsigned)gm->step[sq][d];
        set_meta(s, to, !mover, to * 4 + back);
        return;
    }
    /* Walk the chain of pieces that the move pushes. */
    uint64_t occ = s->w[0] | s->w[1];
    int chain[6], colour[6], k = 0, next = (int)sq;
    while (next >= 0 && (unsigned)next != hole && ((occ >> next) & 1)) {
        chain[k] = next;
        colour[k] = (int)((s->w[1] >> next) & 1);
        k++;
        next = gm->step[next][d];
    }
    for (int i = 0; i < k; i++)
        s->w[colour[i]] &= ~(1ULL << chain[i]);
    for (int i = 0; i + 1 < k; i++)
        s->w[colour[i]] |= 1ULL << chain[i + 1];
    unsigned forbidden = NO_MOVE;
    if (next >= 0 && (unsigned)next != hole) {
        s->w[colour[k - 1]] |= 1ULL << next;
        if (k >= 2 && colour[k - 1] != mover)
            forbidden = (unsigned)next * 4 + back;
    }
    set_meta(s, hole, !mover, forbidden);
}

static int ostle_to_move(const game *g, const game_state *s) { (void)g; return side_of(s); }

static game_key ostle_key(const game *g, const game_state *s)
{
    (void)g;
    uint64_t f = forbidden_of(s) == NO_MOVE ? 0xFF : forbidden_of(s);
    return (game_key){ s->w[0] | s->w[1] << 25 | (uint64_t)hole_of(s) << 50
                       | (uint64_t)side_of(s) << 55 | f << 56, 0 };
}

static void ostle_unkey(const game *g, game_key k, game_state *s)
{
    (void)g;
    uint64_t f = k.lo >> 56;
    *s = (game_state){ { k.lo & 0x1FFFFFF, k.lo >> 25 & 0x1FFFFFF, 0, 0 } };
    set_meta(s, (unsigned)(k.lo >> 50 & 0x1F), (int)(k.lo >> 55 & 1), f == 0xFF ? NO_MOVE : (unsigned)f);
}

static int ostle_score(const game *g, const game_state *s)
{
    return game_outcome_for(ostle_result(g, s), 0);
}

static void ostle_start(const game *g, game_state *s)
{
    const ostle_geom *gm = geom(g);
    memset(s, 0, sizeof *s);
    s->w[0] = (1ULL << gm->w) - 1;
    s->w[1] = s->w[0] << (gm->cells - gm->w);
    set_meta(s, (unsigned)((gm->h - 1) / 2 * gm->w + (gm->w - 1) / 2), 0, NO_MOVE);
}

/* Parses "c3U" into a move code for the board; -1 if it is no square+direction. */
static int parse_square_dir(const ostle_geom *gm, const char *t)
{
    if (strlen(t) != 3 || t[0] < 'a' || t[0] >= 'a' + gm->w || t[1] < '1' || t[1] >= '1' + gm->h)
        return -1;
    const char *d = strchr(dir_letters, t[2]);
    if (!d || !t[2])
        return -1;
    return ((t[1] - '1') * gm->w + (t[0] - 'a')) * 4 + (int)(d - dir_letters);
}

static int ostle_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    const ostle_geom *gm = geom(g);
    const char *t = text;
    int holes = 0;
    unsigned hole = 0;
    for (int rank = gm->h; rank >= 1; rank--) {
        int file = 0;
        while (*t && *t != '/' && *t != ' ') {
            if (*t >= '1' && *t <= '0' + gm->w) {
                file += *t - '0';
            } else if (*t == 'B' || *t == 'W' || *t == 'H') {
                if (file >= gm->w)
                    break;
                unsigned sq = (unsigned)((rank - 1) * gm->w + file);
                if (*t == 'H') {
                    holes++;
                    hole = sq;
                } else {
                    s->w[*t == 'W'] |= 1ULL << sq;
                }
                file++;
            } else {
                return util_error(err, errlen, "bad character '%c' in OFEN rank %d", *t, rank);
            }
            t++;
        }
        if (file != gm->w)
            return util_error(err, errlen, "OFEN rank %d does not have %d cells", rank, gm->w);
        if (rank > 1) {
            if (*t != '/')
                return util_error(err, errlen, "OFEN needs %d ranks separated by '/'", gm->h);
            t++;
        }
    }
    if (holes != 1)
        return util_error(err, errlen, "OFEN must have exactly one hole 'H' (found %d)", holes);
    if (t[0] != ' ' || (t[1] != 'b' && t[1] != 'w') || t[2] != ' ' || !t[3])
        return util_error(err, errlen, "OFEN must end with the side to move ('b' or 'w') and the forbidden move or '-'");
    int side = t[1] == 'w';
    const char *f = t + 3;
    for (int c = 0; c < 2; c++) {
        int n = __builtin_popcountll(s->w[c]);
        if (n > gm->w || n < gm->lose_at)
            return util_error(err, errlen, "%s has %d pieces (must be %d to %d)", c ? "White" : "Black", n, gm->lose_at, gm->w);
    }
    if (__builtin_popcountll(s->w[0]) == gm->lose_at && __builtin_popcountll(s->w[1]) == gm->lose_at)
        return util_error(err, errlen, "both sides are down to %d pieces", gm->lose_at);
    set_meta(s, hole, side, NO_MOVE);
    if (strcmp(f, "-") == 0)
        return 0;
    int code = parse_square_dir(gm, f);
    if (code < 0)
        return util_error(err, errlen, "bad forbidden move '%s' (square and U/D/L/R, or '-')", f);
    /* Rule 8 forbids only the reversal of the last move, so the move must be
     * one that some move into this position leaves forbidden; a finished
     * position was reached by a move that removed a piece, which leaves
     * nothing forbidden. */
    if (ostle_result(g, s) != GAME_ONGOING)
        return util_error(err, errlen, "forbidden move '%s' in a finished position (rule 8 forbids nothing after a capture)", f);
    game_move list[GAME_MAX_MOVES];
    int n = ostle_forbiddable(g, s, list), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = list[i] == (unsigned)code;
    if (!ok)
        return util_error(err, errlen, "forbidden move '%s' cannot arise: no move into this position leaves it forbidden (rule 8)", f);
    set_meta(s, hole, side, (unsigned)code);
    return 0;
}

static void move_name(const ostle_geom *gm, unsigned code, char *buf, size_t len)
{
    unsigned sq = code >> 2;
    snprintf(buf, len, "%c%c%c", 'a' + sq % (unsigned)gm->w, '1' + sq / (unsigned)gm->w, dir_letters[code & 3]);
}

static char cell(const game_state *s, unsigned sq)
{
    return sq == hole_of(s) ? 'H' : (s->w[0] >> sq) & 1 ? 'B' : (s->w[1] >> sq) & 1 ? 'W' : 0;
}

static void ostle_format(const game *g, const game_state *s, char *buf, size_t len)
{
    const ostle_geom *gm = geom(g);
    char out[64], mv[8] = "-";
    size_t n = 0;
    for (int rank = gm->h; rank >= 1; rank--) {
        int empty = 0;
        for (int file = 0; file < gm->w; file++) {
            char c = cell(s, (unsigned)((rank - 1) * gm->w + file));
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = c;
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (rank > 1)
            out[n++] = '/';
    }
    out[n] = 0;
    if (forbidden_of(s) != NO_MOVE)
        move_name(gm, forbidden_of(s), mv, sizeof mv);
    snprintf(buf, len, "%s %c %s", out, side_of(s) ? 'w' : 'b', mv);
}

static void ostle_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len)
{
    (void)s;
    move_name(geom(g), m, buf, len);
}

static void ostle_diagram(const game *g, const game_state *s, FILE *out)
{
    const ostle_geom *gm = geom(g);
    for (int rank = gm->h; rank >= 1; rank--) {
        fprintf(out, "%d", rank);
        for (int file = 0; file < gm->w; file++) {
            char c = cell(s, (unsigned)((rank - 1) * gm->w + file));
            fprintf(out, " %c", c ? c : '.');
        }
        fputc('\n', out);
    }
    fputs(" ", out);
    for (int file = 0; file < gm->w; file++)
        fprintf(out, " %c", 'a' + file);
    fputc('\n', out);
    if (forbidden_of(s) != NO_MOVE) {
        char mv[8];
        move_name(gm, forbidden_of(s), mv, sizeof mv);
        fprintf(out, "forbidden by rule 8: %s\n", mv);
    }
}

static void ostle_destroy(game *g)
{
    ostle_tb_free(geom(g)->tb);
    free(g->data);
}

static unsigned ostle_move_motifs(const game *g, const game_state *s, game_move m)
{
    if (m >> 2 == hole_of(s))
        return GAME_MOTIF_HOLE;
    game_state t = *s;
    ostle_play(g, &t, m);
    int me = side_of(s);
    unsigned f = 0;
    if (__builtin_popcountll(t.w[!me]) < __builtin_popcountll(s->w[!me]))
        f |= GAME_MOTIF_CAPTURE;
    if (__builtin_popcountll(t.w[me]) < __builtin_popcountll(s->w[me]))
        f |= GAME_MOTIF_SELF_PUSH;
    return f;
}

static int ostle_unrestricted(const game *g, const game_state *s, game_state *out)
{
    (void)g;
    *out = *s;
    if (forbidden_of(s) == NO_MOVE)
        return 0;
    set_meta(out, hole_of(s), side_of(s), NO_MOVE);
    return 1;
}

static void ostle_square(const game *g, const game_state *s, int file, int rank, game_square *out)
{
    unsigned sq = (unsigned)(rank * geom(g)->w + file);
    int p = (s->w[0] >> sq) & 1 ? 0 : (s->w[1] >> sq) & 1 ? 1 : -1;
    unsigned f = forbidden_of(s);
    *out = (game_square){ p, 0, sq == hole_of(s), f != NO_MOVE && f >> 2 == sq ? dir_letters[f & 3] : 0 };
}

/* Image of square sq under symmetry k (bit 0 mirror files, bit 1 mirror
 * ranks, bit 2 transpose; transposing only on square boards). */
static unsigned sym_square(const ostle_geom *gm, int k, unsigned sq)
{
    int f = (int)sq % gm->w, r = (int)sq / gm->w;
    if (k & 1) f = gm->w - 1 - f;
    if (k & 2) r = gm->h - 1 - r;
    if (k & 4) { int t = f; f = r; r = t; }
    return (unsigned)(r * gm->w + f);
}

/* The least key over the board's symmetries and the colour swap (colours
 * exchanged, ranks mirrored, the other side to move): Ostle's rules are the
 * same seen from either side. */
static game_key ostle_symmetric_key(const game *g, const game_state *s)
{
    const ostle_geom *gm = geom(g);
    game_key best = { UINT64_MAX, UINT64_MAX };
    for (int swap = 0; swap < 2; swap++)
        for (int k = 0; k < (gm->w == gm->h ? 8 : 4); k++) {
            int kk = swap ? k ^ 2 : k;  /* the swap mirrors the ranks */
            game_state t;
            memset(&t, 0, sizeof t);
            for (int c = 0; c < 2; c++)
                for (uint64_t b = s->w[c]; b; b &= b - 1)
                    t.w[c ^ swap] |= 1ULL << sym_square(gm, kk, (unsigned)__builtin_ctzll(b));
            unsigned f = forbidden_of(s), tf = NO_MOVE;
            if (f != NO_MOVE) {
                unsigned from = sym_square(gm, kk, f >> 2), to = sym_square(gm, kk, (unsigned)gm->step[f >> 2][f & 3]);
                for (unsigned d = 0; d < 4; d++)
                    if (gm->step[from][d] == (int)to)
                        tf = from * 4 + d;
            }
            set_meta(&t, sym_square(gm, kk, hole_of(s)), side_of(s) ^ swap, tf);
            game_key key = ostle_key(g, &t);
            if (key.lo < best.lo)
                best = key;
        }
    return best;
}

static const game_symmetry_ops ostle_symmetry_ops = { .key = ostle_symmetric_key };

static const game_puzzle_ops ostle_puzzle_ops = {
    .move_motifs = ostle_move_motifs,
    .unrestricted = ostle_unrestricted,
    .square = ostle_square,
    .light_player = 1,  /* White */
};

static const game_ops ostle_ops = {
    .name = "ostle",
    .player = { "Black", "White" },
    .finished_is_perft_leaf = 0,
    .start = ostle_start,
    .moves = ostle_moves,
    .count = ostle_count,
    .play = ostle_play,
    .result = ostle_result,
    .to_move = ostle_to_move,
    .key = ostle_key,
    .unkey = ostle_unkey,
    .score = ostle_score,
    .parse = ostle_parse,
    .format = ostle_format,
    .format_move = ostle_format_move,
    .diagram = ostle_diagram,
    .destroy = ostle_destroy,
    .tb = &ostle_tb_ops,
    .symmetry = &ostle_symmetry_ops,
    .puzzle = &ostle_puzzle_ops,
};

game *ostle_open(const char *args, const char *variant, char *err, size_t errlen)
{
    int w = 5, h = 5;
    if (game_parse_size("Ostle", args, 3, 5, &w, &h, err, errlen) != 0)
        return NULL;
    if (variant) {
        util_error(err, errlen, "ostle has no variant '%s'", variant);
        return NULL;
    }
    char name[32];
    if (*args)
        snprintf(name, sizeof name, "ostle:%dx%d", w, h);
    else
        snprintf(name, sizeof name, "ostle");
    game *g = game_alloc(&ostle_ops, name);
    ostle_geom *gm = calloc(1, sizeof *gm);
    if (gm)
        gm->tb = ostle_tb_new(w, h);
    if (!g || !gm || !gm->tb) {
        free(g);
        if (gm)
            ostle_tb_free(gm->tb);
        free(gm);
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    gm->w = w;
    gm->h = h;
    gm->cells = w * h;
    gm->lose_at = w - 2;
    for (int sq = 0; sq < gm->cells; sq++) {
        int f = sq % w, r = sq / w;
        gm->step[sq][DIR_U] = (int8_t)(r + 1 < h ? sq + w : -1);
        gm->step[sq][DIR_D] = (int8_t)(r > 0 ? sq - w : -1);
        gm->step[sq][DIR_L] = (int8_t)(f > 0 ? sq - 1 : -1);
        gm->step[sq][DIR_R] = (int8_t)(f + 1 < w ? sq + 1 : -1);
        for (int d = 0; d < 4; d++)
            if (gm->step[sq][d] >= 0) {
                gm->nbr[sq] |= 1u << gm->step[sq][d];
                gm->steps_on[d] |= 1u << sq;
            }
    }
    gm->board = (1u << gm->cells) - 1;
    gm->delta[DIR_U] = (int8_t)w;
    gm->delta[DIR_D] = (int8_t)-w;
    gm->delta[DIR_L] = -1;
    gm->delta[DIR_R] = 1;
    g->data = gm;
    g->width = w;
    g->height = h;
    return g;
}
