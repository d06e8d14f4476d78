/* proof/exact.c - 'exact' leaves checked by the checker's own search,
 * on a pool of threads: the leaves of a score proof are independent, and on
 * Othello they are nearly all of the checking time. */
#include "exact.h"

#include <pthread.h>
#include <stdlib.h>

#define ORDER_MIN 7  /* at least this many empty squares: children in the order below */

/* The final score for the side to move of a game that cannot cycle, by a
 * plain fail-hard alpha-beta over the rules (game_moves, game_play).  From
 * ORDER_MIN empty squares the children go fewest replies first, counted by
 * the rules too: the order cannot change an alpha-beta value, and on a 6x6
 * proof's leaves of 12 empties it took the check from 53.9 s to 17.0 s. */
static int exact_score(const game *g, const game_state *s, int alpha, int beta)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv);
    if (n == 0) {
        int sc = game_score(g, s);
        return game_to_move(g, s) == 0 ? sc : -sc;
    }
    game_state child[GAME_MAX_MOVES];
    int key[GAME_MAX_MOVES], order = n > 2 && game_empties(g, s) >= ORDER_MIN;
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        int k = order ? game_count(g, &c) : 0, j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            child[j] = child[j - 1];
            key[j] = key[j - 1];
        }
        child[j] = c;
        key[j] = k;
    }
    for (int i = 0; i < n && alpha < beta; i++) {
        const game_state *c = &child[i];
        int v = game_to_move(g, c) == game_to_move(g, s) ? exact_score(g, c, alpha, beta)
                                                          : -exact_score(g, c, -beta, -alpha);
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

int proof_exact_at_least(const game *g, const game_state *s, int prover, int target)
{
    /* a null window at the target, from the prover's side */
    int v = game_to_move(g, s) == prover ? exact_score(g, s, target - 1, target)
                                         : -exact_score(g, s, -target, -target + 1);
    return v >= target;
}

#define QUEUE 1024

typedef struct {
    game_state s;
    long line;
} job;

struct exact_pool {
    const game *g;
    int prover, target, proven;
    pthread_mutex_t lock;
    pthread_cond_t work, room, idle;
    job q[QUEUE];
    int head, count, busy, quit, n;
    long failed;  /* the least failing line found, 0: none */
    pthread_t tid[];
};

static void *worker(void *arg)
{
    exact_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->count && !p->quit)
            pthread_cond_wait(&p->work, &p->lock);
        if (!p->count)
            break;
        job j = p->q[p->head];
        p->head = (p->head + 1) % QUEUE;
        p->count--;
        p->busy++;
        pthread_cond_signal(&p->room);
        /* a leaf after a known failure cannot change the line reported */
        int skip = p->failed && j.line > p->failed;
        pthread_mutex_unlock(&p->lock);
        int bad = !skip && proof_exact_at_least(p->g, &j.s, p->prover, p->target) != p->proven;
        pthread_mutex_lock(&p->lock);
        if (bad && (!p->failed || j.line < p->failed))
            p->failed = j.line;
        if (--p->busy == 0 && !p->count)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

exact_pool *proof_exact_pool_new(const game *g, int n, int prover, int target, int proven)
{
    exact_pool *p = calloc(1, sizeof *p + sizeof(pthread_t) * (size_t)n);
    if (!p)
        return NULL;
    *p = (exact_pool){ .g = g, .prover = prover, .target = target, .proven = proven };
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->room, NULL);
    pthread_cond_init(&p->idle, NULL);
    for (; p->n < n; p->n++)
        if (pthread_create(&p->tid[p->n], NULL, worker, p) != 0)
            break;
    if (p->n == 0) {
        proof_exact_pool_free(p);
        return NULL;
    }
    return p;
}

long proof_exact_pool_add(exact_pool *p, const game_state *s, long line)
{
    pthread_mutex_lock(&p->lock);
    while (p->count == QUEUE && !p->failed)
        pthread_cond_wait(&p->room, &p->lock);
    long failed = p->failed;
    if (!failed) {
        p->q[(p->head + p->count) % QUEUE] = (job){ *s, line };
        p->count++;
        pthread_cond_signal(&p->work);
    }
    pthread_mutex_unlock(&p->lock);
    return failed;
}

long proof_exact_pool_wait(exact_pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->count || p->busy)
        pthread_cond_wait(&p->idle, &p->lock);
    long failed = p->failed;
    pthread_mutex_unlock(&p->lock);
    return failed;
}

void proof_exact_pool_free(exact_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    p->count = 0;  /* a checker that stops early drops what is left */
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->n; i++)
        pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->room);
    pthread_cond_destroy(&p->idle);
    free(p);
}
