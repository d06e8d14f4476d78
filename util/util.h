/* util/util.h - what every module needs and none owns: one-line errors, the
 * clock, big arrays on huge pages, the fan-out of work to threads and a team
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
/* A zeroed block of bytes for a big array probed at random, on huge pages
 * where the kernel gives them (with 4 KB pages nearly every probe also
 * misses the TLB, and each first touch is a fault); NULL when out of memory.
 * Free it with util_free_big and the same size. */
void *util_alloc_big(size_t bytes);
/* As util_alloc_big, but on small pages and reserving no swap: only the
 * pages touched take memory (NULL when the address space is short).  Free
 * it with util_free_big and the same size. */
void *util_alloc_sparse(size_t bytes);
/* Frees a block of util_alloc_big (NULL: nothing). */
void util_free_big(void *p, size_t bytes);
/* The number of processors online, at least 1. */
int util_default_threads(void);
/* Calls fn(ctx, first, end) over [0, n) in pieces of chunk indices (0: a
 * size balanced for threads) from up to threads threads (<= 0: one per
 * processor), returning when all are done; fn must be safe to run at once. */
void util_parallel(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, uint64_t first, uint64_t end),
                   void *ctx);

/* A sparse index of counts: item p (of n) has count(p) < 256 members,
 * numbered first(p) .. first(p) + count(p) - 1 in item order.  Lines of 56
 * items, each one cache line (a 64-bit base and 56 counts), so that placing
 * an item costs one miss (a separate base array made it two, measured at 9%
 * of a user's whole run): 1.14 bytes per item, where a 64-bit offset each
 * would take 8. */
#define UTIL_SINDEX_LINE 56
#define UTIL_SINDEX_HINT_SHIFT 8
typedef struct {
    uint64_t base;                     /* the first member of the line's first item */
    uint8_t count[UTIL_SINDEX_LINE];   /* members of each item */
} util_sindex_line;
_Static_assert(sizeof(util_sindex_line) == 64, "an index line is a cache line");
typedef struct util_sindex {
    const util_sindex_line *line;      /* positions / 56 + 1 lines, the last padded with zero counts */
    const uint32_t *hint;              /* the line of member h << UTIL_SINDEX_HINT_SHIFT, for each h */
    uint64_t positions, lines, states, hints;  /* items, lines, members, hints */
    uint64_t serial;                   /* distinct for every index a process makes (util_sindex_stamp) */
    void (*drop)(struct util_sindex *ix);  /* frees it, whoever made it */
    void *mem;                         /* the maker's, for drop (e.g. a mapped file) */
    size_t mem_len;
    /* A maker that reads the lines from a file may check them a chunk of
     * 2^UTIL_SINDEX_CHUNK_LOG2 at a time when first read, so that a probe
     * reads and checks kilobytes of a 3.5 GB index, not all of it:
     * checked[c] is nonzero once chunk c is (NULL: every line is trusted
     * already); check(ix, c) checks chunk c, repairs it if it does not
     * match, and sets checked[c]. */
    unsigned char *checked;
    void (*check)(struct util_sindex *ix, uint64_t chunk);
} util_sindex;
#define UTIL_SINDEX_CHUNK_LOG2 12

/* Makes line l of ix safe to read (see util_sindex.checked). */
static inline void util_sindex_use(const util_sindex *ix, uint64_t l)
{
    const unsigned char *c = ix->checked;
    if (__builtin_expect(c != NULL, 0) && !__atomic_load_n(&c[l >> UTIL_SINDEX_CHUNK_LOG2], __ATOMIC_ACQUIRE))
        ix->check((util_sindex *)ix, l >> UTIL_SINDEX_CHUNK_LOG2);
}

/* The sum of the first n counts of c (a word at a time: each count is below
 * 256, so 16-bit lanes hold the pair sums). */
static inline uint64_t util_sindex_sum(const uint8_t *c, unsigned n)
{
    uint64_t sum = 0;
    unsigned at = 0;
    for (; at + 8 <= n; at += 8) {
        uint64_t x;
        __builtin_memcpy(&x, c + at, 8);
        x = (x & 0x00FF00FF00FF00FFULL) + ((x >> 8) & 0x00FF00FF00FF00FFULL);
        sum += (x * 0x0001000100010001ULL) >> 48;
    }
    for (; at < n; at++)
        sum += c[at];
    return sum;
}
/* The number of members of item p. */
static inline unsigned util_sindex_count(const util_sindex *ix, uint64_t p)
{
    util_sindex_use(ix, p / UTIL_SINDEX_LINE);
    return ix->line[p / UTIL_SINDEX_LINE].count[p % UTIL_SINDEX_LINE];
}
/* The first member of item p. */
static inline uint64_t util_sindex_first(const util_sindex *ix, uint64_t p)
{
    util_sindex_use(ix, p / UTIL_SINDEX_LINE);
    const util_sindex_line *l = &ix->line[p / UTIL_SINDEX_LINE];
    return l->base + util_sindex_sum(l->count, (unsigned)(p % UTIL_SINDEX_LINE));
}
/* The item whose members hold member m (< ix->states), and its first member. */
uint64_t util_sindex_position(const util_sindex *ix, uint64_t m, uint64_t *first);
/* The index of n items of count(ctx, p) members each, counted on every core
 * (count must be safe to call at once); NULL when out of memory. */
util_sindex *util_sindex_make(uint64_t n, int (*count)(void *ctx, uint64_t p), void *ctx);
/* The hints of lines whose bases are set, into hint (ix->hints of them). */
void util_sindex_hints(const util_sindex_line *line, uint64_t lines, uint64_t states, uint32_t *hint, uint64_t hints);
/* Gives ix a serial of its own (a maker other than util_sindex_make calls it). */
void util_sindex_stamp(util_sindex *ix);

/* A sorted set of distinct 64-bit values below a universe, in Elias-Fano
 * form (n values in n * (2 + log2(universe / n)) bits, e.g. about 10 bits a
 * state where a layer fills 1/128 of its ranks, against 64 for the values
 * themselves): each value's low bits packed, its high part in unary; the
 * place of every 512th zero of the unary part is sampled, so a lookup
 * scans a few words.  Built in increasing order, then read by any number of
 * threads. */
typedef struct {
    uint64_t n, universe;
    unsigned low_bits;
    uint64_t *low;         /* n values' low bits, packed */
    uint64_t *high;        /* bit (v >> low_bits) + i for the i-th value v */
    uint64_t high_words;
    uint64_t *zero_at;     /* the place in high of zero number 512 j */
    uint64_t samples;
    uint64_t *ones_before; /* the ones in high's words before word 1024 j */
} util_efset;
#define UTIL_EFSET_SAMPLE 512
/* An empty set for n values below universe, to fill with util_efset_put in
 * increasing order: 0, or -1 when out of memory. */
int util_efset_init(util_efset *e, uint64_t n, uint64_t universe);
/* Sets the i-th value (each i once, values increasing with i). */
static inline void util_efset_put(util_efset *e, uint64_t i, uint64_t v)
{
    unsigned L = e->low_bits;
    if (L) {
        uint64_t bit = i * L, lo = v & ((1ULL << L) - 1);
        e->low[bit / 64] |= lo << (bit % 64);
        if (bit % 64 + L > 64)
            e->low[bit / 64 + 1] |= lo >> (64 - bit % 64);
    }
    uint64_t h = (v >> L) + i;
    e->high[h / 64] |= 1ULL << (h % 64);
}
/* Whether a set read from a file is one util_efset_put could make: as many
 * ones in the unary part as values, the values strictly increasing and
 * below the universe, no bit past them; 0, or -1.  Run before seal and any
 * lookup: a forged set would send them past the arrays. */
int util_efset_check(const util_efset *e);
/* Makes the lookup samples once every value is put: 0, or -1 when out of memory. */
int util_efset_seal(util_efset *e);
/* The i-th value (i < n). */
static inline uint64_t util_efset_low(const util_efset *e, uint64_t i)
{
    unsigned L = e->low_bits;
    if (!L)
        return 0;
    uint64_t bit = i * L, w = e->low[bit / 64] >> (bit % 64);
    if (bit % 64 + L > 64)
        w |= e->low[bit / 64 + 1] << (64 - bit % 64);
    return w & ((1ULL << L) - 1);
}
/* The index of v in the set, or -1 when it is not there. */
int64_t util_efset_find(const util_efset *e, uint64_t v);
/* Frees a set's arrays (a zeroed set: nothing). */
void util_efset_free(util_efset *e);
/* The bytes of a set's arrays as saved: low then high words. */
uint64_t util_efset_low_words(const util_efset *e);
/* Reading in order: from the first value whose unary bit lies in word w of
 * high (util_efset_walk_start), each util_efset_walk_next gives the next
 * value and its index until the word end (exclusive) is reached. */
typedef struct {
    const util_efset *e;
    uint64_t word, end, bits, index;
} util_efset_walk;
void util_efset_walk_start(util_efset_walk *w, const util_efset *e, uint64_t word, uint64_t end);
/* The next value into *v and its index into *i: 1, or 0 past the range. */
static inline int util_efset_walk_next(util_efset_walk *w, uint64_t *v, uint64_t *i)
{
    while (!w->bits) {
        if (++w->word >= w->end)
            return 0;
        w->bits = w->e->high[w->word];
    }
    uint64_t at = w->word * 64 + (uint64_t)__builtin_ctzll(w->bits);
    w->bits &= w->bits - 1;
    *i = w->index++;
    *v = (at - *i) << w->e->low_bits | util_efset_low(w->e, *i);
    return 1;
}

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

/* Whether paths a and b name one file: the same device and inode where
 * both exist; where neither does, the same directory (device and inode)
 * and name (the file a write would make).  "-" is no file. */
int util_same_file(const char *a, const char *b);

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
