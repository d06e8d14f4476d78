/* util/threads.c - the fan-out of work to threads, and a team of threads
 * that wait for each other. */
#include "util.h"

#include <pthread.h>
#include <unistd.h>

int util_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

typedef struct {
    void (*fn)(void *ctx, uint64_t first, uint64_t end);
    void *ctx;
    uint64_t n, chunk, next;
} fan_out;

static void *fan_worker(void *arg)
{
    fan_out *j = arg;
    for (;;) {
        uint64_t first = __atomic_fetch_add(&j->next, j->chunk, __ATOMIC_RELAXED);
        if (first >= j->n)
            return NULL;
        j->fn(j->ctx, first, first + j->chunk < j->n ? first + j->chunk : j->n);
    }
}

enum { MAX_THREADS = 256 };

/* A thread count asked for (<= 0: one per processor) within what a fan-out
 * starts. */
static int thread_count(int threads)
{
    if (threads <= 0)
        threads = util_default_threads();
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

/* Automatic chunks are 64-aligned so that threads never share a cache line
 * of a byte array they write by index; small enough to balance, large
 * enough to amortise the atomic. */
void util_parallel(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, uint64_t first, uint64_t end),
                   void *ctx)
{
    threads = thread_count(threads);
    fan_out j = { fn, ctx, n, chunk, 0 };
    if (chunk == 0) {
        j.chunk = n / ((uint64_t)threads * 256);
        j.chunk = j.chunk < 4096 ? 4096 : (j.chunk + 63) & ~63ULL;
    }
    if (threads == 1 || n <= j.chunk) {
        fn(ctx, 0, n);
        return;
    }
    uint64_t pieces = (n + j.chunk - 1) / j.chunk;
    if ((uint64_t)threads > pieces)
        threads = (int)pieces;
    pthread_t tid[MAX_THREADS];
    int started = 0;
    while (started < threads && pthread_create(&tid[started], NULL, fan_worker, &j) == 0)
        started++;
    if (started == 0)
        fan_worker(&j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

struct util_team {
    void (*fn)(void *ctx, util_team *t, int member);
    void *ctx;
    int size, open;
    pthread_mutex_t lock;
    pthread_cond_t opened;
    pthread_barrier_t sync;
};

typedef struct {
    util_team *t;
    int member;
} team_seat;

/* A started thread waits until the team knows its size (the barrier's count). */
static void *team_member(void *arg)
{
    team_seat *seat = arg;
    util_team *t = seat->t;
    pthread_mutex_lock(&t->lock);
    while (!t->open)
        pthread_cond_wait(&t->opened, &t->lock);
    pthread_mutex_unlock(&t->lock);
    if (seat->member < t->size)
        t->fn(t->ctx, t, seat->member);
    return NULL;
}

void util_team_run(int threads, void (*fn)(void *ctx, util_team *t, int member), void *ctx)
{
    threads = thread_count(threads);
    util_team t = { .fn = fn, .ctx = ctx };
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.opened, NULL);
    pthread_t tid[MAX_THREADS];
    team_seat seat[MAX_THREADS];
    int started = 0;
    for (; started + 1 < threads; started++) {
        seat[started] = (team_seat){ &t, started + 1 };
        if (pthread_create(&tid[started], NULL, team_member, &seat[started]) != 0)
            break;
    }
    pthread_mutex_lock(&t.lock);
    t.size = started + 1;
    pthread_barrier_init(&t.sync, NULL, (unsigned)t.size);
    t.open = 1;
    pthread_cond_broadcast(&t.opened);
    pthread_mutex_unlock(&t.lock);
    fn(ctx, &t, 0);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&t.sync);
    pthread_cond_destroy(&t.opened);
    pthread_mutex_destroy(&t.lock);
}

int util_team_size(const util_team *t) { return t->size; }

void util_team_sync(util_team *t) { pthread_barrier_wait(&t->sync); }
