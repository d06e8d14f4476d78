/* games/othello/othello_solve.c - the exact Othello endgame solver that the
 * proof-number search calls below its --exact-empties line, the way Jungle
 * Checkers probes its tables.
 *
 * Fail-soft negamax with alpha-beta and principal variation search on
 * bitboards, from the side to move's view (p: its discs, o: the other's).
 * Move order, as in the usual endgame solvers (Edax, Zebra):
 *   - above SHALLOW empties: the move of the table first, then fastest first
 *     (fewest replies for the opponent, then fewest empty squares next to
 *     the mover's discs; corners first on a tie), from EVAL_MIN empties
 *     with the fitted evaluation one reply deep added (othello_eval.h);
 *     enhanced transposition cutoffs from ETC_MIN empties;
 *   - at SHALLOW empties or fewer: no sorting, squares of regions with an odd
 *     number of empties first (parity); the last four squares by code of
 *     their own that passes the squares down in the order fixed at four
 *     (no square set or parity recomputed), the last one by counting its
 *     flips.
 * The transposition table holds bounds under the exact position (both
 * bitboards, no hash-only identity) and keeps the deeper entry on a
 * collision.  It lives in the solver object, so the bounds carry over from one
 * question (window) to the next. */
#include "../game_impl.h"
#include "othello_bits.h"
#include "othello_eval.h"
#include "../../util/util.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define SHALLOW 6     /* at most this many empties: parity order, no table */
#define TABLE_MIN 9   /* at least this many empties: positions go to the table */
#define SPLIT_MIN 16  /* at least this many: a node may share its moves out among idle threads */
#define SPLIT_MAX 64  /* threads of one solver at most */
#define EVAL_MIN 15   /* at least this many: the evaluation joins the move order */
#define ETC_MIN 12    /* at least this many: children are looked up before any is searched */
#define POLL_EVERY 4096  /* deep nodes between two questions to the watch (about a millisecond) */

typedef struct {
    uint64_t p, o;
    int8_t lo, hi;    /* bounds of the exact score */
    uint8_t best;     /* square of the best move known, 64: none */
    uint8_t empties;
    uint32_t seq;     /* odd while a thread writes the slot (a seqlock: the helpers share the table) */
} slot;

struct game_solver {
    othello_shape shape;
    int eval_min;        /* from this many empties, the evaluation helps to order moves */
    int split_min;       /* from this many empties, a node may share its moves out (SPLIT_MIN) */
    uint64_t noise;      /* not 0: the evaluation replaced by noise from this seed (tests) */
    slot *table;
    uint64_t mask;
    const game_solver *owner;  /* whose table it is (othello_solver_share), NULL: this one's */
    uint64_t nodes;
    /* threads (YBWC): at a node of SPLIT_MIN empties or more whose first
     * move has been searched, while a thread of the team is idle, the other
     * moves are shared out among this solver and idle helpers, on the one
     * table (and the node's window); a cutoff stops the others */
    struct team *team;   /* NULL: one thread */
    const struct split *in;  /* the innermost split this thread works for, NULL: none */
    /* the watch (othello_solver_watch): every thread asks it, and the first
     * yes halts them all through the root object's flag */
    int (*stop)(void *ctx);
    void *stop_ctx;
    int poll_left;
    int halt;            /* the root object's: set once the watch said stop */
    int *halt_at;        /* the root object's halt */
};

/* The threads of one solve: at most `threads` search at once.  A thread
 * that waits for its split's helpers gives its turn to the others (so a
 * helper with a long subtree can split in turn), and takes one back before
 * it goes on.  Each helper is a solver object of the pool, with the root's
 * table. */
typedef struct team {
    int threads;
    int free;            /* atomic: how many more threads may search now */
    pthread_mutex_t lock;
    int idle;            /* pool[0..idle): helper objects not in use */
    int size;
    game_solver **pool;
} team;

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

game_solver *othello_solver_new(const game *g, size_t bytes)
{
    game_solver *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    uint64_t slots = 1024;
    while (slots * 2 * sizeof(slot) <= bytes)
        slots *= 2;
    x->table = util_alloc_big(slots * sizeof *x->table);
    if (!x->table) {
        free(x);
        return NULL;
    }
    x->mask = slots - 1;
    othello_shape_init(&x->shape, g->width, g->height);
    x->eval_min = EVAL_MIN;
    x->split_min = SPLIT_MIN;
    x->halt_at = &x->halt;
    return x;
}

static void team_free(team *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->size; i++)
        free(t->pool[i]);  /* a helper holds nothing of its own: the table is the root's */
    free(t->pool);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* A solver on x's table and with x's settings, nothing else: a helper of
 * x's team, or a solver of another thread.  The table is lock-free (a
 * seqlock per slot). */
static game_solver *on_table_of(game_solver *x)
{
    game_solver *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->shape = x->shape;
    h->eval_min = x->eval_min;
    h->split_min = x->split_min;
    h->noise = x->noise;
    h->table = x->table;
    h->mask = x->mask;
    h->owner = x;
    return h;
}

game_solver *othello_solver_share(game_solver *x)
{
    game_solver *h = on_table_of(x);
    if (h)
        h->halt_at = &h->halt;
    return h;
}

void othello_solver_free(game_solver *x)
{
    if (!x)
        return;
    team_free(x->team);
    if (!x->owner)
        util_free_big(x->table, (x->mask + 1) * sizeof *x->table);
    free(x);
}

/* Final score for p of a finished game: the disc difference, empties to
 * the winner. */
static inline int final_score(const game_solver *x, uint64_t p, uint64_t o)
{
    int np = __builtin_popcountll(p), no = __builtin_popcountll(o);
    int e = __builtin_popcountll(x->shape.board) - np - no, d = np - no;
    return d > 0 ? d + e : d < 0 ? d - e : 0;
}

/* One empty square left: play it, or let the opponent, or nobody can.  The
 * board is full after a move, so the score is twice the mover's discs less
 * the squares: only the flips are counted. */
static int solve_last(game_solver *x, uint64_t p, uint64_t o, unsigned sq)
{
    x->nodes++;
    uint64_t f = othello_flips(p, o, sq);
    if (f)
        return 2 * (__builtin_popcountll(p | f) + 1) - x->shape.squares;
    f = othello_flips(o, p, sq);
    if (f)
        return 2 * __builtin_popcountll(p & ~f) - x->shape.squares;
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

/* Whether the side with discs p can play one of the n squares sq. */
static inline int can_play(uint64_t p, uint64_t o, const unsigned *sq, int n)
{
    for (int i = 0; i < n; i++)
        if ((othello_around[sq[i]] & o) && othello_flips(p, o, sq[i]))
            return 1;
    return 0;
}

static int solve_three(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, const unsigned *sq);
static int solve_four_in(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, const unsigned *sq);

/* Three or four empty squares, tried in the order given (the parity order
 * fixed at four: no square set or parity is computed here); each child
 * keeps the order of the squares left.  Inlined into one function per n,
 * so that the loops have a constant bound. */
static inline __attribute__((always_inline)) int solve_list(game_solver *x, uint64_t p, uint64_t o, int alpha,
                                                            int beta, const unsigned *sq, int n)
{
    x->nodes++;
    int best = -1000;
    for (int i = 0; i < n; i++) {
        uint64_t f;
        if (!(othello_around[sq[i]] & o) || !(f = othello_flips(p, o, sq[i])))
            continue;
        unsigned rest[3];
        for (int j = 0, k = 0; j < n; j++)
            if (j != i)
                rest[k++] = sq[j];
        uint64_t np = p | f | 1ULL << sq[i], no = o & ~f;
        int a = alpha > best ? alpha : best;
        int v = n == 3 ? -solve_two(x, no, np, -beta, -a, rest[0], rest[1]) : -solve_three(x, no, np, -beta, -a, rest);
        if (v > best) {
            best = v;
            if (v >= beta)
                return v;
        }
    }
    if (best > -1000)
        return best;
    if (!can_play(o, p, sq, n))
        return final_score(x, p, o);
    return n == 3 ? -solve_three(x, o, p, -beta, -alpha, sq) : -solve_four_in(x, o, p, -beta, -alpha, sq);
}

static int solve_three(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, const unsigned *sq)
{
    return solve_list(x, p, o, alpha, beta, sq, 3);
}

static int solve_four_in(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, const unsigned *sq)
{
    return solve_list(x, p, o, alpha, beta, sq, 4);
}

/* The quadrants with an odd number of empty squares: their squares first. */
static inline uint64_t odd_regions(const game_solver *x, uint64_t empty)
{
    uint64_t odd = 0;
    for (int i = 0; i < 4; i++)
        if (__builtin_popcountll(empty & x->shape.region[i]) & 1)
            odd |= x->shape.region[i];
    return odd;
}

/* Four empty squares, put in parity order once. */
static int solve_four(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta, uint64_t empty)
{
    uint64_t odd = odd_regions(x, empty);
    unsigned sq[4];
    int n = 0;
    for (uint64_t m = empty & odd; m; m &= m - 1)
        sq[n++] = (unsigned)__builtin_ctzll(m);
    for (uint64_t m = empty & ~odd; m; m &= m - 1)
        sq[n++] = (unsigned)__builtin_ctzll(m);
    return solve_four_in(x, p, o, alpha, beta, sq);
}

/* o keeps its stable discs, so p scores at most squares - 2 x those: a
 * bound worth finding only where it could be at most alpha (then
 * returned), else 1000.  At 6 empties or fewer it costs more than it
 * saves (FFO #40-44: 10% fewer nodes, 8-25% more time). */
static inline int stability_cut(const game_solver *x, uint64_t p, uint64_t o, int alpha)
{
    if (alpha < x->shape.squares - 2 * __builtin_popcountll(o))
        return 1000;
    int bound = x->shape.squares - 2 * __builtin_popcountll(othello_stable(&x->shape, p, o));
    return bound <= alpha ? bound : 1000;
}

static int solve_shallow(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta)
{
    uint64_t empty = x->shape.board & ~(p | o);
    int n = __builtin_popcountll(empty);
    if (n <= 4) {
        unsigned sq[3];
        int k = 0;
        for (uint64_t m = empty; m && k < 3; m &= m - 1)
            sq[k++] = (unsigned)__builtin_ctzll(m);
        switch (n) {
        case 4: return solve_four(x, p, o, alpha, beta, empty);
        case 3: return solve_three(x, p, o, alpha, beta, sq);
        case 2: return solve_two(x, p, o, alpha, beta, sq[0], sq[1]);
        case 1: return solve_last(x, p, o, sq[0]);
        default: return final_score(x, p, o);
        }
    }
    x->nodes++;
    uint64_t odd = odd_regions(x, empty);
    int best = -1000;
    for (int round = 0; round < 2; round++) {
        for (uint64_t m = empty & (round ? ~odd : odd); m; m &= m - 1) {
            unsigned sq = (unsigned)__builtin_ctzll(m);
            if (!(othello_around[sq] & o))
                continue;
            uint64_t f = othello_flips(p, o, sq);
            if (!f)
                continue;
            uint64_t np = p | f | (1ULL << sq), no = o & ~f, left = empty & ~(1ULL << sq);
            int a = alpha > best ? alpha : best;
            int v = n == 5 ? -solve_four(x, no, np, -beta, -a, left) : -solve_shallow(x, no, np, -beta, -a);
            if (v > best) {
                best = v;
                if (v >= beta)
                    return v;
            }
        }
    }
    if (best > -1000)
        return best;
    if (!othello_legal(o, p, x->shape.board))
        return final_score(x, p, o);
    return -solve_shallow(x, o, p, -beta, -alpha);
}

static inline slot *table_slot(const game_solver *x, uint64_t p, uint64_t o)
{
    uint64_t h = p * 0x9e3779b97f4a7c15ULL ^ o * 0xc2b2ae3d27d4eb4fULL;
    return &x->table[(h ^ h >> 29) & x->mask];
}

/* The table's bounds of (p, o) in *e: 0 if it holds none, or a thread was
 * writing them (a read never mixes two writes).  Acquire loads of fields
 * that release stores write order the seqlock without fences, as in
 * pns/tt.c (ThreadSanitizer does not model fences; on x86 all are plain
 * moves). */
static int table_get(const game_solver *x, uint64_t p, uint64_t o, slot *e)
{
    slot *t = table_slot(x, p, o);
    uint32_t seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
    if (seq & 1)
        return 0;
    e->p = __atomic_load_n(&t->p, __ATOMIC_ACQUIRE);
    e->o = __atomic_load_n(&t->o, __ATOMIC_ACQUIRE);
    e->lo = __atomic_load_n(&t->lo, __ATOMIC_ACQUIRE);
    e->hi = __atomic_load_n(&t->hi, __ATOMIC_ACQUIRE);
    e->best = __atomic_load_n(&t->best, __ATOMIC_ACQUIRE);
    return __atomic_load_n(&t->seq, __ATOMIC_RELAXED) == seq && e->p == p && e->o == o;
}

/* Stores what a search of (p, o) with `empties` empties found: best from
 * window (a0, beta), by move best_sq.  A deeper position's entry stays; a
 * slot another thread is writing is left to it. */
static void table_put(game_solver *x, uint64_t p, uint64_t o, int empties, int a0, int beta, int best, int best_sq)
{
    slot *t = table_slot(x, p, o);
    uint32_t seq = __atomic_load_n(&t->seq, __ATOMIC_RELAXED);
    if ((seq & 1) || !__atomic_compare_exchange_n(&t->seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    int lo = t->lo, hi = t->hi;
    if (t->p != p || t->o != o) {
        if (t->empties > empties) {
            __atomic_store_n(&t->seq, seq, __ATOMIC_RELEASE);  /* unchanged */
            return;
        }
        __atomic_store_n(&t->p, p, __ATOMIC_RELEASE);
        __atomic_store_n(&t->o, o, __ATOMIC_RELEASE);
        lo = -127;
        hi = 127;
        t->empties = (uint8_t)empties;  /* read only by writers, under the lock */
    }
    if (best >= beta) {
        if (best > lo)
            lo = best;
    } else if (best <= a0) {
        if (best < hi)
            hi = best;
    } else {
        lo = hi = best;
    }
    __atomic_store_n(&t->lo, (int8_t)lo, __ATOMIC_RELEASE);
    __atomic_store_n(&t->hi, (int8_t)hi, __ATOMIC_RELEASE);
    __atomic_store_n(&t->best, (uint8_t)best_sq, __ATOMIC_RELEASE);
    __atomic_store_n(&t->seq, seq + 2, __ATOMIC_RELEASE);
}

void othello_solver_order(game_solver *x, int eval_min, uint64_t noise)
{
    x->eval_min = eval_min;
    x->noise = noise;
}

void othello_solver_split_min(game_solver *x, int empties)
{
    x->split_min = empties;
}

/* The evaluation for p to move, or noise in its place (tests). */
static int eval_or_noise(game_solver *x, uint64_t p, uint64_t o)
{
    if (!x->noise)
        return othello_eval(&x->shape, p, o);
    x->noise ^= x->noise << 13;
    x->noise ^= x->noise >> 7;
    x->noise ^= x->noise << 17;
    return (int)(x->noise % (64 * OTHELLO_EVAL_ONE)) - 32 * OTHELLO_EVAL_ONE;
}

/* The evaluation of a move for the order (lower first): the opponent's
 * expected score after its best reply by the evaluation, a quarter of a
 * reply per disc.  A search one ply deep: the evaluation of the position
 * itself orders worse (up to 2x the nodes with mobility alone, and
 * evaluating every child from 12 empties cost more time than it saved).
 * moves: p's legal moves, which the caller has. */
static int reply_eval(game_solver *x, uint64_t p, uint64_t o, uint64_t moves)
{
    int best = INT_MIN;
    for (uint64_t m = moves; m; m &= m - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(m);
        uint64_t f = othello_flips(p, o, sq);
        int v = -eval_or_noise(x, o & ~f, p | f | 1ULL << sq);
        if (v > best)
            best = v;
    }
    return (moves ? best : eval_or_noise(x, p, o)) / (OTHELLO_EVAL_ONE / 4);
}

static int solve_deep(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta);

/* A node's moves 1..n-1 shared out among a solver and its helpers. */
typedef struct split {
    const uint64_t *cp, *co;
    const int *sqs;
    int n, next;         /* next: the next move to take (atomic) */
    int alpha, beta;
    int best, best_sq;   /* under lock */
    int stop;            /* atomic: a cutoff was found */
    const struct split *parent;  /* the split the node itself was searched for */
    pthread_mutex_t lock;
} split;

typedef struct {
    game_solver *x;
    split *sp;
} split_member;

/* Whether the watch halted the search, or a cutoff at any split above has
 * made x's work moot: either way what x finds is garbage, never stored. */
static inline int moot(const game_solver *x)
{
    if (__atomic_load_n(x->halt_at, __ATOMIC_RELAXED))
        return 1;
    for (const split *s = x->in; s; s = s->parent)
        if (__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
            return 1;
    return 0;
}

static void split_work(game_solver *x, split *sp)
{
    const split *was = x->in;
    x->in = sp;
    for (;;) {
        int i = __atomic_fetch_add(&sp->next, 1, __ATOMIC_RELAXED);
        if (i >= sp->n || moot(x))
            break;
        pthread_mutex_lock(&sp->lock);
        int a = sp->alpha > sp->best ? sp->alpha : sp->best;
        pthread_mutex_unlock(&sp->lock);
        int v = -solve_deep(x, sp->co[i], sp->cp[i], -a - 1, -a);
        if (v > a && v < sp->beta && !moot(x))
            v = -solve_deep(x, sp->co[i], sp->cp[i], -sp->beta, -v);
        if (moot(x))
            break;  /* v may be the garbage of a stopped search */
        pthread_mutex_lock(&sp->lock);
        if (v > sp->best) {
            sp->best = v;
            sp->best_sq = sp->sqs[i];
            if (v >= sp->beta)
                __atomic_store_n(&sp->stop, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&sp->lock);
    }
    x->in = was;
}

static void *helper_main(void *arg)
{
    split_member *m = arg;
    split_work(m->x, m->sp);
    __atomic_add_fetch(&m->x->team->free, 1, __ATOMIC_RELEASE);  /* its turn, for another split */
    return NULL;
}

/* Takes up to want idle helpers of t into h (each with a turn to search):
 * how many. */
static int team_take(team *t, int want, game_solver **h)
{
    if (__atomic_load_n(&t->free, __ATOMIC_RELAXED) <= 0)
        return 0;  /* nobody idle: the usual case, without the lock */
    pthread_mutex_lock(&t->lock);
    int k = __atomic_load_n(&t->free, __ATOMIC_RELAXED);
    k = k < want ? k : want;
    k = k < t->idle ? k : t->idle;
    k = k > 0 ? k : 0;
    __atomic_sub_fetch(&t->free, k, __ATOMIC_RELAXED);
    for (int i = 0; i < k; i++)
        h[i] = t->pool[--t->idle];
    pthread_mutex_unlock(&t->lock);
    return k;
}

static void team_give(team *t, game_solver *h)
{
    pthread_mutex_lock(&t->lock);
    t->pool[t->idle++] = h;
    pthread_mutex_unlock(&t->lock);
}

/* Takes a turn to search back after a wait (others may hold every turn for
 * a while: their searches end, or wait in turn and give theirs). */
static void team_resume(team *t)
{
    for (;;) {
        int f = __atomic_load_n(&t->free, __ATOMIC_RELAXED);
        if (f > 0 && __atomic_compare_exchange_n(&t->free, &f, f - 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
        sched_yield();
    }
}

/* Searches a node's moves 1..n-1 (after the first gave *best) with x and
 * the k helpers h, as the serial loop would: fail-soft, a null window
 * first. */
static void split_moves(game_solver *x, game_solver **h, int k, const uint64_t *cp, const uint64_t *co,
                        const int *sqs, int n, int alpha, int beta, int *best, int *best_sq)
{
    split sp = { .cp = cp + 1, .co = co + 1, .sqs = sqs + 1, .n = n - 1, .alpha = alpha, .beta = beta,
                 .best = *best, .best_sq = *best_sq, .parent = x->in };
    pthread_mutex_init(&sp.lock, NULL);
    split_member m[SPLIT_MAX];
    pthread_t tid[SPLIT_MAX];
    int started[SPLIT_MAX] = { 0 };
    for (int i = 0; i < k; i++) {
        h[i]->nodes = 0;
        h[i]->eval_min = x->eval_min;
        h[i]->split_min = x->split_min;
        h[i]->noise = x->noise ? x->noise + (uint64_t)i + 1 : 0;
        h[i]->stop = x->stop;
        h[i]->stop_ctx = x->stop_ctx;
        h[i]->poll_left = POLL_EVERY;
        h[i]->in = NULL;
        m[i] = (split_member){ h[i], &sp };
        started[i] = pthread_create(&tid[i], NULL, helper_main, &m[i]) == 0;
        if (!started[i])
            __atomic_add_fetch(&x->team->free, 1, __ATOMIC_RELEASE);
    }
    split_work(x, &sp);  /* what no helper could start, this thread does */
    __atomic_add_fetch(&x->team->free, 1, __ATOMIC_RELEASE);  /* waiting: another may search */
    for (int i = 0; i < k; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
            x->nodes += h[i]->nodes;
        }
        team_give(x->team, h[i]);
    }
    team_resume(x->team);
    pthread_mutex_destroy(&sp.lock);
    *best = sp.best;
    *best_sq = sp.best_sq;
}

static int solve_deep(game_solver *x, uint64_t p, uint64_t o, int alpha, int beta)
{
    if (moot(x))
        return 0;  /* a cutoff elsewhere decided the split node, or the watch halted all */
    x->nodes++;
    if (x->stop && --x->poll_left <= 0) {
        x->poll_left = POLL_EVERY;
        if (x->stop(x->stop_ctx))
            __atomic_store_n(x->halt_at, 1, __ATOMIC_RELAXED);
    }
    uint64_t moves = othello_legal(p, o, x->shape.board);
    if (!moves) {
        if (!othello_legal(o, p, x->shape.board))
            return final_score(x, p, o);
        return -solve_deep(x, o, p, -beta, -alpha);
    }
    int empties = __builtin_popcountll(x->shape.board & ~(p | o));
    int cut = stability_cut(x, p, o, alpha);
    if (cut < 1000)
        return cut;
    slot t;
    unsigned hint = 64;
    if (empties >= TABLE_MIN && table_get(x, p, o, &t)) {
        if (t.lo >= beta || t.lo == t.hi)
            return t.lo;
        if (t.hi <= alpha)
            return t.hi;
        if (t.lo > alpha)
            alpha = t.lo;
        if (t.hi < beta)
            beta = t.hi;
        hint = t.best;
    }
    /* the children, ordered: table move, then fewest replies, corners first */
    uint64_t cp[64], co[64];
    int key[64], sqs[64], n = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(m);
        uint64_t f = othello_flips(p, o, sq);
        uint64_t np = p | f | (1ULL << sq), no = o & ~f;
        uint64_t replies = othello_legal(no, np, x->shape.board);
        if (empties > TABLE_MIN)  /* the child's slot, read by ETC or its search: the miss overlaps the order's work */
            __builtin_prefetch(table_slot(x, no, np));
        int k = 16 * (__builtin_popcountll(replies) + __builtin_popcountll(replies & x->shape.corners)) +
                __builtin_popcountll(othello_neighbours(np) & x->shape.board & ~(np | no));
        if (x->shape.corners >> sq & 1)
            k -= 8;
        if (empties >= x->eval_min)
            k += reply_eval(x, no, np, replies);
        if (sq == hint)
            k = -1000000;
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
            slot c;
            if (table_get(x, co[i], cp[i], &c) && -c.hi >= beta)
                return -c.hi;
        }
    }
    int a0 = alpha, best = -1000, best_sq = sqs[0];
    for (int i = 0; i < n; i++) {
        int a = alpha > best ? alpha : best, v;
        int (*child)(game_solver *, uint64_t, uint64_t, int, int) = empties - 1 <= SHALLOW ? solve_shallow : solve_deep;
        if (i == 1 && x->team && empties >= x->split_min && n > 2) {
            /* the eldest brother searched without a cutoff (YBWC): idle
             * threads may share the rest */
            game_solver *h[SPLIT_MAX];
            int k = team_take(x->team, n - 2, h);
            if (k > 0) {
                split_moves(x, h, k, cp, co, sqs, n, alpha, beta, &best, &best_sq);
                break;
            }
        }
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
    if (moot(x))
        return best;  /* stopped: best may be garbage, so it is not stored */
    if (empties >= TABLE_MIN)
        table_put(x, p, o, empties, a0, beta, best, best_sq);
    return best;
}

int othello_solver_score(game_solver *x, const game_state *s, int alpha, int beta, uint64_t *nodes)
{
    int c = (int)s->w[2];
    uint64_t p = s->w[c], o = s->w[!c];
    x->nodes = 0;
    x->in = NULL;
    x->halt = 0;
    x->poll_left = POLL_EVERY;
    if (x->team)
        x->team->free = x->team->threads - 1;
    int empties = __builtin_popcountll(x->shape.board & ~(p | o));
    int v = empties <= SHALLOW ? solve_shallow(x, p, o, alpha, beta) : solve_deep(x, p, o, alpha, beta);
    if (nodes)
        *nodes += x->nodes;
    return x->halt ? GAME_SOLVER_STOPPED : v;
}

int othello_solver_estimate(game_solver *x, const game_state *s)
{
    int c = (int)s->w[2];
    int v = othello_eval(&x->shape, s->w[c], s->w[!c]);
    return (v + (v >= 0 ? OTHELLO_EVAL_ONE / 2 : -OTHELLO_EVAL_ONE / 2)) / OTHELLO_EVAL_ONE;
}

void othello_solver_watch(game_solver *x, int (*stop)(void *ctx), void *ctx)
{
    x->stop = stop;
    x->stop_ctx = ctx;
}

/* Helper objects per thread beyond the first: one searching, the others
 * masters of splits waiting for their helpers (without one, no split). */
#define POOL_PER_THREAD 4

int othello_solver_threads(game_solver *x, int n)
{
    n = n < 1 ? 1 : n > SPLIT_MAX ? SPLIT_MAX : n;
    team_free(x->team);
    x->team = NULL;
    if (n == 1)
        return 0;
    team *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    pthread_mutex_init(&t->lock, NULL);
    t->threads = n;
    t->pool = calloc((size_t)(n - 1) * POOL_PER_THREAD, sizeof *t->pool);
    x->team = t;
    if (!t->pool)
        return -1;
    for (; t->size < (n - 1) * POOL_PER_THREAD; t->size++) {
        game_solver *h = on_table_of(x);
        if (!h)
            return -1;
        h->halt_at = &x->halt;
        h->team = t;
        t->pool[t->size] = h;
    }
    t->idle = t->size;
    return 0;
}
