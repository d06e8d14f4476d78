/* games/chores.c - what every module needs and none owns: the clock, the
 * fan-out of work to threads (and a team of threads that wait for each
 * other), big tables on huge pages, the all-or-nothing file write and the
 * strict readers of files, lines and numbers.  Here
 * because games/ is the module every other one already depends on. */
#include "game.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int game_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

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
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* renaming over a device would replace it: written in place */
        if (!(f->f = game_open_output(path, err, errlen)))
            return -1;
        f->direct = 1;
        return 0;
    }
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
    if (keep && (fflush(f->f) != 0 || (!f->direct && fsync(fileno(f->f)) != 0)))
        werr = errno;
    if (fclose(f->f) != 0 && !werr)
        werr = errno;
    f->f = NULL;
    if (f->direct)
        return keep && werr ? game_error(err, errlen, "%s: %s", f->path, strerror(werr)) : 0;
    if (keep && !werr && rename(f->tmp, f->path) == 0)
        return 0;
    if (keep && !werr)
        werr = errno;
    unlink(f->tmp);
    return keep ? game_error(err, errlen, "%s: %s", f->path, strerror(werr ? werr : EIO)) : 0;
}

int game_open_regular(const char *path, int flags)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    int bad = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (bad) {
        close(fd);
        errno = bad;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

const char *game_open_why(int e) { return e == EINVAL ? "not a regular file" : strerror(e); }

FILE *game_open_input(const char *path, int stdin_ok, char *err, size_t errlen)
{
    if (stdin_ok && strcmp(path, "-") == 0)
        return stdin;
    FILE *f = game_fopen_regular(path);
    if (!f && errno == EINVAL)
        game_error(err, errlen, "%s: not a regular file%s", path, stdin_ok ? " (give '-' to read standard input)" : "");
    else if (!f)
        game_error(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

FILE *game_fopen_regular(const char *path)
{
    int fd = game_open_regular(path, O_RDONLY);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

FILE *game_open_output(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
        game_error(err, errlen, "%s: not a regular file or a character device", path);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        game_error(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

void game_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

long game_read_line(FILE *f, char **line, size_t *cap, long *lineno, char *err, size_t errlen)
{
    errno = 0;
    ssize_t n = getline(line, cap, f);
    if (n < 0) {
        if (ferror(f))
            return game_error(err, errlen, "line %ld: cannot be read: %s", *lineno + 1, strerror(errno ? errno : EIO)) - 1;
        return -1;
    }
    ++*lineno;
    if (memchr(*line, 0, (size_t)n))
        return game_error(err, errlen, "line %ld: a NUL byte", *lineno) - 1;
    if (n > 0 && (*line)[n - 1] == '\n')
        (*line)[--n] = 0;
    if (n > 0 && (*line)[n - 1] == '\r')
        (*line)[--n] = 0;
    return (long)n;
}

int game_read_long(const char *text, long lo, long hi, long *out)
{
    const char *d = text && *text == '-' ? text + 1 : text;
    if (!d || *d < '0' || *d > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int game_read_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int game_read_pair(const char *text, char sep, const char *stop, long lo, long hi, long *a, long *b, const char **rest)
{
    char part[2][24];
    const char *at = text;
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        while (at[n] && at[n] != (k ? 0 : sep) && !(stop && strchr(stop, at[n])))
            n++;
        if (n == 0 || n >= sizeof part[k] || (k == 0 && at[n] != sep))
            return -1;
        memcpy(part[k], at, n);
        part[k][n] = 0;
        at += n + (k == 0);
    }
    long x, y;
    if (game_read_long(part[0], lo, hi, &x) != 0 || game_read_long(part[1], lo, hi, &y) != 0)
        return -1;
    if (!rest && *at)
        return -1;
    if (rest)
        *rest = at;
    *a = x;
    *b = y;
    return 0;
}

char *game_escape(const char *text, char *out, size_t len)
{
    size_t n = 0;
    if (!len)
        return out;
    for (; *text && n + 5 < len; text++) {
        unsigned char c = (unsigned char)*text;
        if (c < 0x20 || c == 0x7f)
            n += (size_t)snprintf(out + n, len - n, "\\x%02x", c);
        else
            out[n++] = (char)c;
    }
    out[n] = 0;
    return out;
}
