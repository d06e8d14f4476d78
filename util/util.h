/* util/util.h - what every module needs and none owns: one-line errors, the
 * clock, big tables on huge pages, the fan-out of work to threads and a team
 * of threads that wait for each other, files written all or nothing, and the
 * strict readers of files, lines and numbers.  No game, table or search in
 * it: every other module may include it, it includes none of theirs. */
#ifndef PNSOLVE_UTIL_H
#define PNSOLVE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes a one-line reason into err (if err is not NULL); returns -1.
 * Shared by every parser and loader of the project. */
int util_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* splitmix64: the next of a reproducible stream of random numbers from any
 * seed *x (which it advances). */
static inline uint64_t util_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Seconds on a monotonic clock, for measuring intervals. */
double util_clock(void);
/* A zeroed block of bytes for a big table probed at random, on huge pages
 * where the kernel gives them (with 4 KB pages nearly every probe also
 * misses the TLB, and each first touch is a fault); NULL when out of memory.
 * Free it with util_free_big and the same size. */
void *util_alloc_big(size_t bytes);
/* Frees a block of util_alloc_big (NULL: nothing). */
void util_free_big(void *p, size_t bytes);
/* The number of processors online, at least 1. */
int util_default_threads(void);
/* Calls fn(ctx, first, end) over [0, n) in pieces of chunk indices (0: a
 * size balanced for threads) from up to threads threads (<= 0: one per
 * processor), returning when all are done; fn must be safe to run at once. */
void util_parallel(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, uint64_t first, uint64_t end),
                   void *ctx);

/* A team of threads that run at once and may wait for each other:
 * util_team_run calls fn(ctx, team, member) on up to threads threads (<= 0:
 * one per processor; member 0 on the caller's), members 0 .. size-1, and
 * returns when all have returned. */
typedef struct util_team util_team;
void util_team_run(int threads, void (*fn)(void *ctx, util_team *t, int member), void *ctx);
/* How many members the team has (maybe fewer than asked: threads that could
 * not be started are not members). */
int util_team_size(const util_team *t);
/* Returns once every member has called it as many times. */
void util_team_sync(util_team *t);

/* A file written all or nothing: written under a temporary name beside its
 * path and renamed over it when complete, so a crash or a failed write never
 * leaves a partial file under the path. */
typedef struct {
    FILE *f;            /* write here */
    char path[4096];
    char tmp[4128];
    int direct;         /* path is a character device (/dev/null): written in place */
} util_file;
/* Opens f's temporary file for path with fopen mode (a character device
 * such as /dev/null is written directly; a directory, FIFO or socket is
 * refused); 0, or -1 with err. */
int util_file_create(util_file *f, const char *path, const char *mode, char *err, size_t errlen);
/* Closes f and, when keep is set, syncs it and renames it to its path; a
 * file not kept is removed.  0, or -1 with the system's reason in err when
 * a kept file could not be completed (then it is removed). */
int util_file_commit(util_file *f, int keep, char *err, size_t errlen);

/* Strict input (util/input.c): every reader of a file the user names goes
 * through these, so that no file can hang the program and no text format
 * reads a number or a line more loosely than another. */

/* Opens path for reading only if it is a regular file ("-": standard input,
 * where stdin_ok): a FIFO, socket, device or directory would block or never
 * end.  NULL with "PATH: reason" in err. */
FILE *util_open_input(const char *path, int stdin_ok, char *err, size_t errlen);
/* Opens path for reading only if it is a regular file; NULL with errno
 * set otherwise (ENOENT: there is none; EINVAL: not a regular file). */
FILE *util_fopen_regular(const char *path);
/* Why util_open_regular or util_fopen_regular failed with errno e. */
const char *util_open_why(int e);
/* Opens path for writing as it goes (a log, a trace), only if it is a
 * regular file, a character device or not there yet (a FIFO would block):
 * NULL with "PATH: reason" in err. */
FILE *util_open_output(const char *path, char *err, size_t errlen);
/* Closes a file of util_open_input (standard input stays open). */
void util_close_input(FILE *f);
/* A descriptor of path opened with flags (O_RDONLY or O_RDWR, no O_CREAT),
 * only if it is a regular file; -1 with errno set otherwise (EINVAL: not a
 * regular file). */
int util_open_regular(const char *path, int flags);
/* The next line of f into *line (getline's buffer), without its "\n" or
 * "\r\n", adding 1 to *lineno: its length; -1 at the end of f; -2 with
 * "line N: reason" in err when it holds a NUL byte or f cannot be read. */
long util_read_line(FILE *f, char **line, size_t *cap, long *lineno, char *err, size_t errlen);
/* A decimal integer in [lo, hi] and nothing else (an optional '-', then
 * digits: no '+', no space, no overflow): 0, or -1 with *out untouched. */
int util_read_long(const char *text, long lo, long hi, long *out);
/* The same for an unsigned 64-bit number (digits only). */
int util_read_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);
/* Two numbers in [lo, hi] joined by sep ("4x5", "4+5"), the whole of text
 * up to the end or to a char of stop (NULL: the end); the text after them
 * into *rest when rest is not NULL.  0, or -1. */
int util_read_pair(const char *text, char sep, const char *stop, long lo, long hi, long *a, long *b, const char **rest);
/* text into out (len bytes) with every control byte (below 0x20, 0x7f)
 * written as \xNN, so that a message quoting a file cannot paint a
 * terminal; returns out. */
char *util_escape(const char *text, char *out, size_t len);

#endif
