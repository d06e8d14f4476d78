/* games/othello/othello.c - Othello on W x H boards, 4..8 each (docs/rules.md section 3).
 *
 * Every board lives in the top-left corner of an 8x8 bitboard (square =
 * row*8 + col, row 0 at the top), so one move generator serves all sizes:
 * squares off the board are never occupied, which stops every line there.
 * State words: w[0] Black (player 0), w[1] White, w[2] the side to move.
 */
#include "../game_impl.h"
#include "othello_bits.h"
#include "othello_layers.h"
#include "../../util/util.h"

#include <stdlib.h>
#include <string.h>

#define PASS 64u

typedef struct {
    uint64_t board;   /* the W x H squares */
    unsigned anchor;  /* a start square: always occupied, so its key bit is free */
    othello_layers *layers;
} othello_geom;

static inline const othello_geom *geom(const game *g) { return g->data; }

static inline int mover(const game_state *s) { return (int)s->w[2]; }

static int othello_moves(const game *g, const game_state *s, game_move *out)
{
    int c = mover(s);
    uint64_t b = geom(g)->board;
    uint64_t m = othello_legal(s->w[c], s->w[!c], b);
    int n = 0;
    for (; m; m &= m - 1)
        out[n++] = (game_move)__builtin_ctzll(m);
    if (n == 0 && othello_legal(s->w[!c], s->w[c], b))
        out[n++] = PASS;
    return n;
}

static int othello_count(const game *g, const game_state *s)
{
    int c = mover(s);
    uint64_t b = geom(g)->board;
    int n = __builtin_popcountll(othello_legal(s->w[c], s->w[!c], b));
    return n ? n : othello_legal(s->w[!c], s->w[c], b) != 0;
}

static void othello_play(const game *g, game_state *s, game_move m)
{
    (void)g;
    int c = mover(s);
    if (m != PASS) {
        uint64_t f = othello_flips(s->w[c], s->w[!c], m);
        s->w[c] |= f | 1ULL << m;
        s->w[!c] &= ~f;
    }
    s->w[2] ^= 1;
}

static int othello_score(const game *g, const game_state *s)
{
    int b = __builtin_popcountll(s->w[0]), w = __builtin_popcountll(s->w[1]);
    int empties = __builtin_popcountll(geom(g)->board) - b - w;
    return b > w ? b - w + empties : b < w ? b - w - empties : 0;
}

/* Discs plus empties fill the board, so a win by b - w + e = area - 2w and
 * a loss by 2b - area have the parity of the area; a draw is 0. */
static int othello_score_possible(const game *g, int score)
{
    int area = g->width * g->height;
    return score == 0 || (score - area) % 2 == 0;
}

static int othello_empties(const game *g, const game_state *s)
{
    return __builtin_popcountll(geom(g)->board & ~(s->w[0] | s->w[1]));
}

static game_result othello_result(const game *g, const game_state *s)
{
    if (othello_count(g, s))
        return GAME_ONGOING;
    int sc = othello_score(g, s);
    return sc > 0 ? GAME_WIN0 : sc < 0 ? GAME_WIN1 : GAME_DRAW;
}

static int othello_to_move(const game *g, const game_state *s) { (void)g; return mover(s); }

/* Occupancy and Black's discs identify a position; the side to move goes in
 * the bit of a start square, which is occupied in every Othello position. */
static game_key othello_key(const game *g, const game_state *s)
{
    uint64_t a = 1ULL << geom(g)->anchor;
    uint64_t occ = s->w[0] | s->w[1];
    return (game_key){ (occ & ~a) | (s->w[2] ? a : 0), s->w[0] };
}

/* The state of a key: the anchor is always occupied, its key bit the side. */
static void othello_unkey(const game *g, game_key k, game_state *s)
{
    uint64_t a = 1ULL << geom(g)->anchor, occ = (k.lo & ~a) | a;
    memset(s, 0, sizeof *s);
    s->w[0] = k.hi;
    s->w[1] = occ & ~k.hi;
    s->w[2] = (k.lo & a) != 0;
}

/* An image need not keep a start square occupied, so the side to move goes
 * in the top bit, which only an 8x8 board uses; there the start block is
 * central and every image keeps the anchor: the usual key is exact. */
static game_key othello_symmetric_key(const game *g, const game_state *s)
{
    int W = g->width, H = g->height, count = W == H ? 8 : 4;
    game_key best = { UINT64_MAX, UINT64_MAX };
    for (int k = 0; k < count; k++) {
        game_state t = *s;
        t.w[0] = othello_transform(s->w[0], k, W, H);
        t.w[1] = othello_transform(s->w[1], k, W, H);
        game_key key = W == 8 && H == 8 ? othello_key(g, &t)
                                         : (game_key){ t.w[0] | t.w[1] | t.w[2] << 63, t.w[0] };
        if (key.hi < best.hi || (key.hi == best.hi && key.lo < best.lo))
            best = key;
    }
    return best;
}

static void othello_start(const game *g, game_state *s)
{
    unsigned a = geom(g)->anchor;
    memset(s, 0, sizeof *s);
    s->w[1] = 1ULL << a | 1ULL << (a + 9);
    s->w[0] = 1ULL << (a + 1) | 1ULL << (a + 8);
}

static int colour_of(char c) { return c == 'X' || c == 'x' || c == '*' ? 0 : c == 'O' || c == 'o' ? 1 : -1; }

/* The common 64-character form of 8x8 positions (FFO and OBF files, engine
 * protocols): squares a1..h1, a2..h8 as X, x or * (Black), O/o (White) or -/.
 * (empty), then the side to move, the two parts optionally apart; an OBF
 * line's ";"-separated tail (the best moves) is allowed and ignored. */
static int parse_64(const char *t, game_state *s, char *err, size_t errlen)
{
    for (int sq = 0; sq < 64; sq++, t++) {
        int c = colour_of(*t);
        if (c >= 0)
            s->w[c] |= 1ULL << sq;
        else if (*t != '-' && *t != '.')
            return util_error(err, errlen, "bad square '%c' at %c%d (X, O, - or .)", *t ? *t : ' ', 'a' + sq % 8, sq / 8 + 1);
    }
    while (*t == ' ' || *t == '\t')
        t++;
    int side = colour_of(*t);
    if (side < 0)
        return util_error(err, errlen, "the 64 squares must be followed by the side to move, X or O");
    for (t++; *t == ' ' || *t == '\t' || *t == '\r' || *t == '\n'; t++)
        ;
    if (*t && *t != ';')
        return util_error(err, errlen, "unexpected text after the side to move: '%.20s'", t);
    s->w[2] = (uint64_t)side;
    return 0;
}

static int othello_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    int W = g->width, H = g->height;
    const char *t = text;
    long pw, ph;
    const char *board;
    if (util_read_pair(t, 'x', ":", 1, 99, &pw, &ph, &board) == 0 && *board == ':') {
        if (pw != W || ph != H)
            return util_error(err, errlen, "position is for %ldx%ld but the game is othello:%dx%d", pw, ph, W, H);
        t = board + 1;
        for (int row = 0; row < H; row++) {
            for (int col = 0; col < W; col++, t++) {
                uint64_t bit = 1ULL << (row * 8 + col);
                if (*t == 'X') s->w[0] |= bit;
                else if (*t == 'O') s->w[1] |= bit;
                else if (*t != '-')
                    return util_error(err, errlen, "bad square '%c' in row %d (X, O or -; %d per row)", *t ? *t : ' ', row + 1, W);
            }
            if (row + 1 < H && *t++ != '/')
                return util_error(err, errlen, "row %d must have %d squares and end with '/'", row + 1, W);
        }
        if (t[0] != ' ' || (t[1] != 'X' && t[1] != 'O') || t[2])
            return util_error(err, errlen, "position must end with a space and the side to move, X or O");
        s->w[2] = t[1] == 'O';
    } else if (W == 8 && H == 8) {
        if (parse_64(t, s, err, errlen) != 0)
            return -1;
    } else {
        return util_error(err, errlen, "Othello position must start with '%dx%d:'", W, H);
    }
    unsigned a = geom(g)->anchor;
    uint64_t centre = 1ULL << a | 1ULL << (a + 1) | 1ULL << (a + 8) | 1ULL << (a + 9);
    if (((s->w[0] | s->w[1]) & centre) != centre)
        return util_error(err, errlen, "the four centre squares are empty in no Othello game");
    return 0;
}

static void othello_format(const game *g, const game_state *s, char *buf, size_t len)
{
    char out[128];
    int n = sprintf(out, "%dx%d:", g->width, g->height);
    for (int row = 0; row < g->height; row++) {
        for (int col = 0; col < g->width; col++) {
            unsigned sq = (unsigned)(row * 8 + col);
            out[n++] = (s->w[0] >> sq) & 1 ? 'X' : (s->w[1] >> sq) & 1 ? 'O' : '-';
        }
        if (row + 1 < g->height)
            out[n++] = '/';
    }
    snprintf(buf, len, "%.*s %c", n, out, s->w[2] ? 'O' : 'X');
}

static void othello_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len)
{
    (void)g; (void)s;
    if (m == PASS)
        snprintf(buf, len, "pass");
    else
        snprintf(buf, len, "%c%u", 'a' + m % 8, m / 8 + 1);
}

static void othello_diagram(const game *g, const game_state *s, FILE *out)
{
    fputs(" ", out);
    for (int col = 0; col < g->width; col++)
        fprintf(out, " %c", 'a' + col);
    fputc('\n', out);
    for (int row = 0; row < g->height; row++) {
        fprintf(out, "%d", row + 1);
        for (int col = 0; col < g->width; col++) {
            unsigned sq = (unsigned)(row * 8 + col);
            fprintf(out, " %c", (s->w[0] >> sq) & 1 ? 'X' : (s->w[1] >> sq) & 1 ? 'O' : '.');
        }
        fputc('\n', out);
    }
    fprintf(out, "X %d  O %d\n", __builtin_popcountll(s->w[0]), __builtin_popcountll(s->w[1]));
}

/* rank 0 is the bottom row, the notation's last */
static void othello_square(const game *g, const game_state *s, int file, int rank, game_square *out)
{
    unsigned sq = (unsigned)((g->height - 1 - rank) * 8 + file);
    *out = (game_square){ .player = (s->w[0] >> sq) & 1 ? 0 : (s->w[1] >> sq) & 1 ? 1 : -1 };
}

static uint64_t layer_size(const game *g, int empties) { return othello_layers_size(geom(g)->layers, empties); }

static uint64_t layer_rank(const game *g, const game_state *s, int *images)
{
    return othello_layers_rank(geom(g)->layers, s->w[0], s->w[1], (int)s->w[2], images);
}

static void layer_unrank(const game *g, int empties, uint64_t r, game_state *s)
{
    int side;
    memset(s, 0, sizeof *s);
    othello_layers_unrank(geom(g)->layers, empties, r, &s->w[0], &s->w[1], &side);
    s->w[2] = (uint64_t)side;
}

static void othello_destroy(game *g)
{
    othello_layers_free(geom(g)->layers);
    free(g->data);
}

static const game_solver_ops othello_solver_ops = {
    .empties = othello_empties,
    .create = othello_solver_new,
    .share = othello_solver_share,
    .score = othello_solver_score,
    .destroy = othello_solver_free,
    .threads = othello_solver_threads,
    .watch = othello_solver_watch,
    .estimate = othello_solver_estimate,
};

static const game_symmetry_ops othello_symmetry_ops = { .key = othello_symmetric_key };
static const game_puzzle_ops othello_puzzle_ops = { .square = othello_square, .light_player = 1, .rows_from_top = 1 };
static const game_layer_ops othello_layer_ops = { .size = layer_size, .rank = layer_rank, .unrank = layer_unrank };

static const game_ops othello_ops = {
    .name = "othello",
    .player = { "Black", "White" },
    .finished_is_perft_leaf = 1,
    .start = othello_start,
    .moves = othello_moves,
    .count = othello_count,
    .play = othello_play,
    .result = othello_result,
    .to_move = othello_to_move,
    .key = othello_key,
    .unkey = othello_unkey,
    .score = othello_score,
    .parse = othello_parse,
    .format = othello_format,
    .format_move = othello_format_move,
    .diagram = othello_diagram,
    .destroy = othello_destroy,
    .score_possible = othello_score_possible,
    .solver = &othello_solver_ops,
    .symmetry = &othello_symmetry_ops,
    .layers = &othello_layer_ops,
    .puzzle = &othello_puzzle_ops,
};

game *othello_open(const char *args, const char *variant, char *err, size_t errlen)
{
    int w = 8, h = 8;
    if (game_parse_size("Othello", args, 4, 8, &w, &h, err, errlen) != 0)
        return NULL;
    if (variant) {
        util_error(err, errlen, "othello has no variant '%s'", variant);
        return NULL;
    }
    othello_rays_init();  /* before any thread can use the game */
    char name[32];
    snprintf(name, sizeof name, "othello:%dx%d", w, h);
    game *g = game_alloc(&othello_ops, name);
    othello_geom *gm = calloc(1, sizeof *gm);
    if (!g || !gm) {
        free(g);
        free(gm);
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    for (int row = 0; row < h; row++)
        gm->board |= ((1ULL << w) - 1) << (8 * row);
    gm->anchor = (unsigned)((h - 2) / 2 * 8 + (w - 2) / 2);
    g->data = gm;
    g->width = w;
    g->height = h;
    g->score_bound = w * h;
    game_state s;
    othello_start(g, &s);
    if (!(gm->layers = othello_layers_new(w, h, s.w[0], s.w[1]))) {
        free(gm);
        free(g);
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    return g;
}
