/* games/othello_solve.c - the exact Othello endgame solver that the
 * proof-number search calls below its --exact-empties line, the way Jungle
 * Checkers probes its tables.
 *
 * Fail-soft negamax with alpha-beta and principal variation search on
 * bitboards, from the side to move's view (p: its discs, o: the other's).
 * Move order, as in the usual endgame solvers (Edax, Zebra):
 *   - above SHALLOW empties: the move of the table first, then fastest first
 *     (fewest replies for the opponent, then fewest empty squares next to
 *     the mover's discs; corners first on a tie); enhanced transposition
 *     cutoffs from ETC_MIN empties;
 *   - at SHALLOW empties or fewer: no sorting, squares of regions with an odd
 *     number of empties first (parity), the last two squares by their own
 *     code.
 * The transposition table holds bounds under the exact position (both
 * bitboards, no hash-only identity) and keeps the deeper entry on a
 * collision.  It lives in the solver object, so the bounds carry over from one
 * question (window) to the next. */
#include "game_impl.h"
#include "othello_bits.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SHALLOW 6     /* at most this many empties: parity order, no table */
#define TABLE_MIN 9   /* at least this many empties: positions go to the table */
#define ETC_MIN 12    /* at least this many: children are looked up before any is searched */

typedef struct {
    uint64_t p, o;
    int8_t lo, hi;    /* bounds of the exact score */
    uint8_t best;     /* square of the best move known, 64: none */
    uint8_t empties;
} slot;

/* Most lines one direction has on a board of up to 8x8 (diagonals: 15). */
#define LINES_MAX 15

struct game_solver {
    uint64_t board;
    int squares;
    uint64_t corners;    /* the board's four corners, first in the move order on a tie */
    uint64_t region[4];  /* the board's quadrants, for the parity order */
    /* for the stable discs: per line direction (row, column, two diagonals),
     * its lines on the board, and the squares with no board square next to
     * them on one side or the other along it */
    uint64_t line[4][LINES_MAX];
    int lines[4];
    uint64_t rim[4];
    slot *table;
    uint64_t mask;
    uint64_t nodes;
};

uint64_t othello_rays[64][8];
uint64_t othello_around[64];

static void rays_fill(void)
{
    static const int dr[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
    static const int dc[8] = { 1, -1, 0, 1, -1, 1, 0, -1 };
    for (int sq = 0; sq < 64; sq++)
        for (int d = 0; d < 8; d++) {
            uint64_t ray = 0;
            for (int r = sq / 8 + dr[d], c = sq % 8 + dc[d]; r >= 0 && r < 8 && c >= 0 && c < 8; r += dr[d], c += dc[d])
                ray |= 1ULL << (r * 8 + c);
            othello_rays[sq][d] = ray;
            int r = sq / 8 + dr[d], c = sq % 8 + dc[d];
            if (r >= 0 && r < 8 && c >= 0 && c < 8)
                othello_around[sq] |= 1ULL << (r * 8 + c);
        }
}

void othello_rays_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, rays_fill);
}

/* The lines and rims of a W x H board (see struct game_solver). */
static void stability_init(game_solver *x, int W, int H)
{
    static const int dr[4] = { 0, 1, 1, 1 }, dc[4] = { 1, 0, 1, -1 };
    for (int d = 0; d < 4; d++) {
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++) {
                int pr = r - dr[d], pc = c - dc[d], nr = r + dr[d], nc = c + dc[d];
                int has_prev = pr >= 0 && pr < H && pc >= 0 && pc < W;
                int has_next = nr >= 0 && nr < H && nc >= 0 && nc < W;
                if (!has_prev || !has_next)
                    x->rim[d] |= 1ULL << (r * 8 + c);
                if (has_prev)
                    continue;  /* a line starts where nothing comes before */
                uint64_t line = 0;
                for (int rr = r, cc = c; rr >= 0 && rr < H && cc >= 0 && cc < W; rr += dr[d], cc += dc[d])
                    line |= 1ULL << (rr * 8 + cc);
                x->line[d][x->lines[d]++] = line;
            }
    }
}

game_solver *othello_solver_new(const game *g, size_t bytes)
{
    game_solver *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    uint64_t slots = 1024;
    while (slots * 2 * sizeof(slot) <= bytes)
        slots *= 2;
    x->table = calloc(slots, sizeof *x->table);
    if (!x->table) {
        free(x);
        return NULL;
    }
    x->mask = slots - 1;
    int W = g->width, H = g->height;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            x->region[(r >= H / 2) * 2 + (c >= W / 2)] |= 1ULL << (r * 8 + c);
    for (int i = 0; i < 4; i++)
        x->board |= x->region[i];
    x->corners = 1ULL | 1ULL << (W - 1) | 1ULL << ((H - 1) * 8) | 1ULL << ((H - 1) * 8 + W - 1);
    x->squares = W * H;
    stability_init(x, W, H);
    return x;
}

void othello_solver_free(game_solver *x)
{
    if (x)
        free(x->table);
    free(x);
}

/* Final score for p of a finished game: the disc difference, empties to
 * the winner. */
static inline int final_score(const game_solver *x, uint64_t p, uint64_t o)
{
    int np = __builtin_popcountll(p), no = __builtin_popcountll(o);
    int e = __builtin_popcountll(x->board) - np - no, d = np - no;
    return d > 0 ? d + e : d < 0 ? d - e : 0;
}

/* One empty square left: play it, or let the opponent, or nobody can. */
static int solve_last(game_solver *x, uint64_t p, uint64_t o, unsigned sq)
{
    x->nodes++;
    uint64_t bit = 1ULL << sq, f = othello_flips(p, o, sq);
    if (f)
        return final_score(x, p | f | bit, o & ~f);
    f = othello_flips(o, p, sq);
    if (f)
        return final_score(x, p & ~f, o | f | bit);
    return final_score(x, p, o);
}

/* Two empty squares a and b left. */
static int solve_two(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, unsigned a, unsigned b)
{
    x->nodes++;
    int best = -1000;
    uint64_t f;
    if ((othello_around[a] & o) && (f = othello_flips(p, o, a))) {
        best = -solve_last(x, o & ~f, p | f | 1ULL << a, b);
        if (best >= beta)
            return best;
    }
    if ((othello_around[b] & o) && (f = othello_flips(p, o, b))) {
        int v = -solve_last(x, o & ~f, p | f | 1ULL << b, a);
        return v > best ? v : best;
    }
    if (best > -1000)
        return best;
    if (!((othello_around[a] & p) && othello_flips(o, p, a)) && !((othello_around[b] & p) && othello_flips(o, p, b)))
        return final_score(x, p, o);
    return -solve_two(x, o, p, -beta, -alpha, a, b);  /* a pass: the other side can move */
}

static int solve_shallow(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta)
{
    uint64_t empty = x->board & ~(p | o);
    if (!(empty & (empty - 1)))
        return empty ? solve_last(x, p, o, (unsigned)__builtin_ctzll(empty)) : final_score(x, p, o);
    if (__builtin_popcountll(empty) == 2) {
        unsigned a = (unsigned)__builtin_ctzll(empty);
        return solve_two(x, p, o, alpha, beta, a, (unsigned)__builtin_ctzll(empty & (empty - 1)));
    }
    x->nodes++;
    uint64_t odd = 0;
    for (int i = 0; i < 4; i++)
        if (__builtin_popcountll(empty & x->region[i]) & 1)
            odd |= x->region[i];
    int best = -1000;
    for (int round = 0; round < 2; round++) {
        for (uint64_t m = empty & (round ? ~odd : odd); m; m &= m - 1) {
            unsigned sq = (unsigned)__builtin_ctzll(m);
            if (!(othello_around[sq] & o))
                continue;
            uint64_t f = othello_flips(p, o, sq);
            if (!f)
                continue;
            int v = -solve_shallow(x, o & ~f, p | f | (1ULL << sq), -beta, -(alpha > best ? alpha : best));
            if (v > best) {
                best = v;
                if (v >= beta)
                    return v;
            }
        }
    }
    if (best > -1000)
        return best;
    if (!othello_legal(o, p, x->board))
        return final_score(x, p, o);
    return -solve_shallow(x, o, p, -beta, -alpha);
}

/* Discs of o that no sequence of moves can flip, found as a fixed point:
 * such a disc, along each of the four line directions, is on a full line,
 * or on the rim, or next to such a disc of its own.  Fewer than all of them
 * (a disc can also be safe between the other side's safe discs), which
 * is all a bound needs. */
static uint64_t stable_discs(const game_solver *x, uint64_t p, uint64_t o)
{
    const uint64_t not_a = 0xfefefefefefefefeULL, not_h = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t filled = p | o, safe[4];
    for (int d = 0; d < 4; d++) {
        safe[d] = x->rim[d];
        for (int i = 0; i < x->lines[d]; i++)
            if ((x->line[d][i] & filled) == x->line[d][i])
                safe[d] |= x->line[d][i];
    }
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

static inline slot *table_slot(const game_solver *x, uint64_t p, uint64_t o)
{
    uint64_t h = p * 0x9e3779b97f4a7c15ULL ^ o * 0xc2b2ae3d27d4eb4fULL;
    return &x->table[(h ^ h >> 29) & x->mask];
}

/* The squares next to the discs of x. */
static inline uint64_t around(uint64_t x)
{
    const uint64_t not_a = 0xfefefefefefefefeULL, not_h = 0x7f7f7f7f7f7f7f7fULL;
    return ((x << 1 | x << 9 | x >> 7) & not_a) | ((x >> 1 | x >> 9 | x << 7) & not_h) | x << 8 | x >> 8;
}

static int solve_deep(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta)
{
    x->nodes++;
    uint64_t moves = othello_legal(p, o, x->board);
    if (!moves) {
        if (!othello_legal(o, p, x->board))
            return final_score(x, p, o);
        return -solve_deep(x, o, p, -beta, -alpha);
    }
    int empties = __builtin_popcountll(x->board & ~(p | o));
    /* o keeps its stable discs, so p scores at most squares - 2 x those:
     * worth counting only where that could be at most alpha */
    if (alpha >= x->squares - 2 * __builtin_popcountll(o)) {
        int bound = x->squares - 2 * __builtin_popcountll(stable_discs(x, p, o));
        if (bound <= alpha)
            return bound;
    }
    slot *t = NULL;
    unsigned hint = 64;
    if (empties >= TABLE_MIN) {
        t = table_slot(x, p, o);
        if (t->p == p && t->o == o) {
            if (t->lo >= beta || t->lo == t->hi)
                return t->lo;
            if (t->hi <= alpha)
                return t->hi;
            if (t->lo > alpha)
                alpha = t->lo;
            if (t->hi < beta)
                beta = t->hi;
            hint = t->best;
        }
    }
    /* the children, ordered: table move, then fewest replies, corners first */
    uint64_t cp[64], co[64];
    int key[64], sqs[64], n = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(m);
        uint64_t f = othello_flips(p, o, sq);
        uint64_t np = p | f | (1ULL << sq), no = o & ~f;
        uint64_t replies = othello_legal(no, np, x->board);
        int k = sq == hint ? -1000 : 16 * (__builtin_popcountll(replies) + __builtin_popcountll(replies & x->corners)) +
                                     __builtin_popcountll(around(np) & x->board & ~(np | no));
        if (k >= 0 && (x->corners >> sq & 1))
            k -= 8;
        int j = n++;
        for (; j > 0 && key[j - 1] > k; j--) {
            cp[j] = cp[j - 1]; co[j] = co[j - 1]; key[j] = key[j - 1]; sqs[j] = sqs[j - 1];
        }
        cp[j] = np; co[j] = no; key[j] = k; sqs[j] = (int)sq;
    }
    if (empties >= ETC_MIN) {
        /* enhanced transposition cutoff: a child already known to be bad
         * enough for the opponent ends the node without a search */
        for (int i = 0; i < n; i++) {
            const slot *c = table_slot(x, co[i], cp[i]);
            if (c->p == co[i] && c->o == cp[i] && -c->hi >= beta)
                return -c->hi;
        }
    }
    int a0 = alpha, best = -1000, best_sq = sqs[0];
    for (int i = 0; i < n; i++) {
        int a = alpha > best ? alpha : best, v;
        int (*child)(game_solver *, uint64_t, uint64_t, int, int) = empties - 1 <= SHALLOW ? solve_shallow : solve_deep;
        if (i == 0) {
            v = -child(x, co[i], cp[i], -beta, -a);
        } else {  /* a null window first: most later moves are no better */
            v = -child(x, co[i], cp[i], -a - 1, -a);
            if (v > a && v < beta)
                v = -child(x, co[i], cp[i], -beta, -v);
        }
        if (v > best) {
            best = v;
            best_sq = sqs[i];
            if (v >= beta)
                break;
        }
    }
    if (t) {
        if (t->p != p || t->o != o) {
            if (t->empties > empties)
                return best;  /* keep the deeper entry */
            t->p = p;
            t->o = o;
            t->lo = -127;
            t->hi = 127;
            t->empties = (uint8_t)empties;
        }
        if (best >= beta) {
            if (best > t->lo) t->lo = (int8_t)best;
        } else if (best <= a0) {
            if (best < t->hi) t->hi = (int8_t)best;
        } else {
            t->lo = t->hi = (int8_t)best;
        }
        t->best = (uint8_t)best_sq;
    }
    return best;
}

int othello_solver_score(game_solver *x, const game_state *s, int alpha, int beta, uint64_t *nodes)
{
    int c = (int)s->w[2];
    uint64_t p = s->w[c], o = s->w[!c];
    x->nodes = 0;
    int empties = __builtin_popcountll(x->board & ~(p | o));
    int v = empties <= SHALLOW ? solve_shallow(x, p, o, alpha, beta) : solve_deep(x, p, o, alpha, beta);
    if (nodes)
        *nodes += x->nodes;
    return v;
}
