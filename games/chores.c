/* games/chores.c - what every module needs and none owns: the clock, the
 * fan-out of work to threads (and a team of threads that wait for each
 * other), big tables on huge pages and the all-or-nothing file write.  Here
 * because games/ is the module every other one already depends on. */
#include "game.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

double game_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

#define HUGE_PAGE ((size_t)2 << 20)

static size_t big_len(size_t bytes)
{
    size_t unit = bytes < HUGE_PAGE ? 4096 : HUGE_PAGE;
    size_t len = (bytes + unit - 1) & ~(unit - 1);
    return len < bytes ? 0 : len ? len : unit;
}

/* Fresh anonymous pages are zero and cost nothing until touched (calloc
 * would clear a reused block whole).  A block of a huge page or more
 * starts on a 2 MB boundary (a huge page can only back an aligned range):
 * one huge page more is mapped and what lies outside the block unmapped.
 * Smaller ones keep 4 KB pages: a huge page is zeroed whole at its first
 * touch. */
void *game_alloc_big(size_t bytes)
{
    size_t len = big_len(bytes);
    if (len == 0 || len + HUGE_PAGE < len)
        return NULL;
    if (len < HUGE_PAGE) {
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    char *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (p + len < m + len + HUGE_PAGE)
        munmap(p + len, (size_t)(m + len + HUGE_PAGE - (p + len)));
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void game_free_big(void *p, size_t bytes)
{
    if (p)
        munmap(p, big_len(bytes));
}

int game_default_threads(void)
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
        threads = game_default_threads();
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

/* Automatic chunks are 64-aligned so that threads never share a cache line
 * of a byte array they write by index; small enough to balance, large
 * enough to amortise the atomic. */
void game_parallel(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, uint64_t first, uint64_t end),
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

struct game_team {
    void (*fn)(void *ctx, game_team *t, int member);
    void *ctx;
    int size, open;
    pthread_mutex_t lock;
    pthread_cond_t opened;
    pthread_barrier_t sync;
};

typedef struct {
    game_team *t;
    int member;
} team_seat;

/* A started thread waits until the team knows its size (the barrier's count). */
static void *team_member(void *arg)
{
    team_seat *seat = arg;
    game_team *t = seat->t;
    pthread_mutex_lock(&t->lock);
    while (!t->open)
        pthread_cond_wait(&t->opened, &t->lock);
    pthread_mutex_unlock(&t->lock);
    if (seat->member < t->size)
        t->fn(t->ctx, t, seat->member);
    return NULL;
}

void game_team_run(int threads, void (*fn)(void *ctx, game_team *t, int member), void *ctx)
{
    threads = thread_count(threads);
    game_team t = { .fn = fn, .ctx = ctx };
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

int game_team_size(const game_team *t) { return t->size; }

void game_team_sync(game_team *t) { pthread_barrier_wait(&t->sync); }

int game_file_create(game_file *f, const char *path, const char *mode, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (snprintf(f->path, sizeof f->path, "%s", path) >= (int)sizeof f->path)
        return game_error(err, errlen, "%.200s...: path too long", path);
    /* the process id keeps two processes writing one file apart */
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp.%ld", path, (long)getpid());
    if (!(f->f = fopen(f->tmp, mode)))
        return game_error(err, errlen, "%s: %s", f->tmp, strerror(errno));
    return 0;
}

int game_file_commit(game_file *f, int keep, char *err, size_t errlen)
{
    int werr = 0;
    if (!f->f)
        return keep ? game_error(err, errlen, "%s: not open", f->path) : 0;
    /* the disk's own words (no space left, file too large) where it refused */
    if (keep && (fflush(f->f) != 0 || fsync(fileno(f->f)) != 0))
        werr = errno;
    if (fclose(f->f) != 0 && !werr)
        werr = errno;
    f->f = NULL;
    if (keep && !werr && rename(f->tmp, f->path) == 0)
        return 0;
    if (keep && !werr)
        werr = errno;
    unlink(f->tmp);
    return keep ? game_error(err, errlen, "%s: %s", f->path, strerror(werr ? werr : EIO)) : 0;
}
