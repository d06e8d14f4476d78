/* tablebase/parallel.c - a parallel for over an index range. */
#include "tb_internal.h"

#include <pthread.h>
#include <unistd.h>

typedef struct {
    void (*fn)(void *ctx, uint64_t first, uint64_t end);
    void *ctx;
    uint64_t n, chunk, next;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (;;) {
        uint64_t first = __atomic_fetch_add(&j->next, j->chunk, __ATOMIC_RELAXED);
        if (first >= j->n)
            return NULL;
        j->fn(j->ctx, first, first + j->chunk < j->n ? first + j->chunk : j->n);
    }
}

int tb_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Chunks are 64-aligned so that threads never share a cache line of a byte
 * array they write by index; small enough to balance, large to amortise. */
void tb_parallel(int threads, uint64_t n, void (*fn)(void *ctx, uint64_t first, uint64_t end), void *ctx)
{
    if (threads <= 0)
        threads = tb_default_threads();
    job j = { fn, ctx, n, 0, 0 };
    j.chunk = n / ((uint64_t)threads * 256);
    j.chunk = j.chunk < 4096 ? 4096 : (j.chunk + 63) & ~63ULL;
    if (threads == 1 || n <= j.chunk) {
        fn(ctx, 0, n);
        return;
    }
    pthread_t tid[256];
    int started = 0;
    for (int t = 0; t < threads && t < 256; t++)
        if (pthread_create(&tid[t], NULL, worker, &j) == 0)
            started++;
        else
            break;
    if (started == 0)
        worker(&j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}
