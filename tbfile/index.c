/* tbfile/index.c - the state indices of a game whose positions have
 * several states each (Ostle): made from the game's counts, kept in files
 * beside the tables, owned here and passed to the game's table operations
 * (game_tb_index).
 *
 * Making a material's index (a util_sindex of its positions' states) costs every
 * process that opens a large table a pass over its positions (the 5x5
 * nine-piece Ostle table: about 4 minutes on two cores), so the index of a
 * large material is kept in "<prefix>-<material>.pnidx" and mapped: instant,
 * and shared by the processes that use it.  A file is trusted only if its
 * header, the checksum of its hints and chunk table and the recounted
 * states of a sample of its positions agree; else the index is made again
 * and the file rewritten.  Its lines are checked a chunk at a time when
 * first read (util_sindex.checked): a probe of the ten-piece Ostle table
 * reads a few of its 3.5 GB, and checking all of them on opening took 2 s
 * of every `prove` with the tables.  A chunk that does not match its
 * checksum is counted again from the game's rules in this process's
 * private copy of its pages, from the base the chunk table gives it.
 */
#include "tbfile.h"
#include "../util/util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define INDEX_MAGIC "PNSOIDX1"
/* 4: a chunk table after the hints, the lines checked a chunk at a time
 * (3: one checksum of everything; 2: the header without the game and
 * material); a file of another version is made again */
#define INDEX_VERSION 4
#define CHUNK_LINES (1ULL << UTIL_SINDEX_CHUNK_LOG2)
#define INDEX_SAMPLE 4096

typedef struct {
    char magic[8];
    uint32_t version, line_positions, hint_shift, chunk_log2;
    char game[64], material[32];
    uint64_t positions, lines, states, hints;
    uint64_t data_sum;   /* XXH3 of the chunk table and the hints */
    uint64_t header_sum; /* XXH3 of this header with this field zero */
    char reserved[88];
} index_header;          /* 256 bytes, then the lines, the chunk table ({XXH3
                          * of its lines, its first base} per chunk) and the hints */
_Static_assert(sizeof(index_header) == 256, "index_header is 256 bytes on disk");

typedef struct {
    char prefix[4200];      /* "": no files */
    uint64_t min_positions;
} file_source;

struct tb_index {
    const game *g;
    file_source src;
    pthread_mutex_t lock;
    util_sindex **of;        /* by material; NULL for a game of one state per position */
    game_tb_index view;
};

static uint64_t header_sum(index_header h)
{
    h.header_sum = 0;
    return XXH3_64bits(&h, sizeof h);
}

/* The header mat's file must have, its sums and counts of states aside. */
static index_header header_of(const game *g, int mat, uint64_t positions)
{
    index_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, INDEX_MAGIC, 8);
    h.version = INDEX_VERSION;
    h.line_positions = UTIL_SINDEX_LINE;
    h.hint_shift = UTIL_SINDEX_HINT_SHIFT;
    h.chunk_log2 = UTIL_SINDEX_CHUNK_LOG2;
    snprintf(h.game, sizeof h.game, "%.63s", g->name);
    game_tables(g)->material_name(g, mat, h.material, sizeof h.material);
    h.positions = positions;
    h.lines = positions / UTIL_SINDEX_LINE + 1;
    return h;
}

static void index_path(const file_source *src, const game *g, int mat, char *buf, size_t len)
{
    char name[32];
    game_tables(g)->material_name(g, mat, name, sizeof name);
    snprintf(buf, len, "%s-%s.pnidx", src->prefix, name);
}

static uint64_t chunks_of(uint64_t lines) { return (lines + CHUNK_LINES - 1) >> UTIL_SINDEX_CHUNK_LOG2; }

/* The lines of chunk c of an index of `lines` lines: the first in *first,
 * their count returned (the last chunk is short). */
static uint64_t chunk_span(uint64_t lines, uint64_t c, uint64_t *first)
{
    *first = c << UTIL_SINDEX_CHUNK_LOG2;
    return lines - *first < CHUNK_LINES ? lines - *first : CHUNK_LINES;
}

/* The checksum of n lines from line. */
static uint64_t lines_sum(const util_sindex_line *line, uint64_t n) { return XXH3_64bits(line, n * sizeof *line); }

/* A mapped index and what checking its chunks needs. */
typedef struct {
    util_sindex ix;             /* first: what the game reads */
    const game *g;
    int mat;
    const uint64_t *chunk;      /* {sum, base} per chunk, in the file */
    pthread_mutex_t repair;
} mapped_index;

static void drop_mapped(util_sindex *ix)
{
    mapped_index *m = (mapped_index *)ix;
    munmap(ix->mem, ix->mem_len);
    free(ix->checked);
    pthread_mutex_destroy(&m->repair);
    free(m);
}

/* Lines [first, first + n) counted again from the game's rules, from the
 * chunk table's base (checked with the table when the file was opened). */
static void chunk_recount(mapped_index *m, uint64_t c, uint64_t first, uint64_t n)
{
    util_sindex_line *line = (util_sindex_line *)m->ix.line;
    uint64_t at = m->chunk[2 * c + 1];
    for (uint64_t l = first; l < first + n; l++) {
        line[l].base = at;
        for (unsigned k = 0; k < UTIL_SINDEX_LINE; k++) {
            uint64_t p = l * UTIL_SINDEX_LINE + k;
            int states = p < m->ix.positions ? game_tables(m->g)->position_states(m->g, m->mat, p) : 0;
            line[l].count[k] = (uint8_t)states;
            at += (uint64_t)states;
        }
    }
}

/* util_sindex.check of a mapped file.  Two threads may check one chunk at
 * once (both read it, and the lock keeps a repair to one of them). */
static void chunk_check(util_sindex *ix, uint64_t c)
{
    mapped_index *m = (mapped_index *)ix;
    uint64_t first, n = chunk_span(ix->lines, c, &first);
    if (lines_sum(ix->line + first, n) != m->chunk[2 * c]) {
        pthread_mutex_lock(&m->repair);
        if (!ix->checked[c])
            chunk_recount(m, c, first, n);
        pthread_mutex_unlock(&m->repair);
    }
    __atomic_store_n(&ix->checked[c], 1, __ATOMIC_RELEASE);
}

/* Maps mat's index from its file: NULL if it is not there or does not check. */
static util_sindex *index_read(const game *g, int mat, const char *path, uint64_t positions)
{
    int fd = util_open_regular(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    index_header h, want = header_of(g, mat, positions);
    size_t lines = want.lines * sizeof(util_sindex_line);
    struct stat st;
    void *map = MAP_FAILED;
    /* private and writable: a chunk repaired is this process's own */
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > sizeof h + lines)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    uint64_t chunks = chunks_of(want.lines);
    mapped_index *m = calloc(1, sizeof *m);
    unsigned char *checked = calloc(chunks, 1);
    if (map == MAP_FAILED || !m || !checked) {
        if (map != MAP_FAILED)
            munmap(map, (size_t)st.st_size);
        free(m);
        free(checked);
        return NULL;
    }
    util_sindex *ix = &m->ix;
    memcpy(&h, map, sizeof h);
    want.states = h.states;
    want.hints = h.hints;
    want.data_sum = h.data_sum;
    want.header_sum = h.header_sum;
    const unsigned char *data = (const unsigned char *)map + sizeof h;
    size_t len = (size_t)st.st_size - sizeof h, hints = h.hints * sizeof(uint32_t);
    int ok = memcmp(&h, &want, sizeof h) == 0 && h.header_sum == header_sum(h) &&
             h.hints == (h.states >> UTIL_SINDEX_HINT_SHIFT) + 1 && len == lines + hints + chunks * 16 &&
             XXH3_64bits(data + lines, chunks * 16 + hints) == h.data_sum;
    ix->line = (const util_sindex_line *)data;  /* 64-aligned: the header is 256 bytes */
    ix->hint = (const uint32_t *)(data + lines + chunks * 16);
    ix->positions = positions;
    ix->lines = h.lines;
    ix->states = h.states;
    ix->hints = h.hints;
    ix->mem = map;
    ix->mem_len = (size_t)st.st_size;
    ix->drop = drop_mapped;
    ix->checked = checked;
    ix->check = chunk_check;
    util_sindex_stamp(ix);
    m->g = g;
    m->mat = mat;
    m->chunk = (const uint64_t *)(data + lines);
    pthread_mutex_init(&m->repair, NULL);
    for (uint64_t c = 0; ok && c < chunks; c++)
        ok = m->chunk[2 * c + 1] <= h.states && (c == 0 ? m->chunk[1] == 0 : m->chunk[2 * c + 1] >= m->chunk[2 * c - 1]);
    ok = ok && util_sindex_first(ix, positions) == h.states;
    /* The checksums catch damage; a sample recounted catches a file made
     * by an older state order of the same size.  It reads the lines
     * unchecked: a damaged count here only costs making the index again. */
    uint64_t step = positions > INDEX_SAMPLE ? positions / INDEX_SAMPLE : 1;
    madvise(map, (size_t)st.st_size, MADV_RANDOM);  /* a page each, not the read-ahead's hundreds */
    for (uint64_t p = 0; ok && p < positions; p += step) {
        uint64_t q = p + (p * 0x9E3779B97F4A7C15ULL >> 40) % step;
        ok = q >= positions || ix->line[q / UTIL_SINDEX_LINE].count[q % UTIL_SINDEX_LINE] ==
                                   (unsigned)game_tables(g)->position_states(g, mat, q);
    }
    madvise(map, (size_t)st.st_size, MADV_NORMAL);
    if (!ok) {
        drop_mapped(ix);
        return NULL;
    }
    return ix;
}

/* Writes ix to path all or nothing; where the directory does not take it
 * there is no file, which costs only the pass next time. */
static void index_write(const game *g, int mat, const char *path, const util_sindex *ix)
{
    util_file out;
    if (util_file_create(&out, path, "wb", NULL, 0) != 0)
        return;
    size_t lines = ix->lines * sizeof(util_sindex_line), hints = ix->hints * sizeof(uint32_t);
    index_header h = header_of(g, mat, ix->positions);
    h.states = ix->states;
    h.hints = ix->hints;
    uint64_t chunks = chunks_of(ix->lines);
    uint64_t *chunk = malloc(chunks * 16);
    if (!chunk) {
        util_file_commit(&out, 0, NULL, 0);
        return;
    }
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t first, n = chunk_span(ix->lines, c, &first);
        chunk[2 * c] = lines_sum(ix->line + first, n);
        chunk[2 * c + 1] = ix->line[first].base;
    }
    XXH3_state_t sum;
    XXH3_INITSTATE(&sum);
    XXH3_64bits_reset(&sum);
    XXH3_64bits_update(&sum, chunk, chunks * 16);
    XXH3_64bits_update(&sum, ix->hint, hints);
    h.data_sum = XXH3_64bits_digest(&sum);
    h.header_sum = header_sum(h);
    int ok = fwrite(&h, sizeof h, 1, out.f) == 1 && fwrite(ix->line, 1, lines, out.f) == lines &&
             fwrite(chunk, 16, chunks, out.f) == chunks && fwrite(ix->hint, 1, hints, out.f) == hints;
    free(chunk);
    util_file_commit(&out, ok, NULL, 0);
}

typedef struct {
    const game *g;
    int mat;
} count_ctx;

static int position_states(void *ctx, uint64_t p)
{
    const count_ctx *c = ctx;
    return game_tables(c->g)->position_states(c->g, c->mat, p);
}

/* Counted from the game's rules on every core. */
static util_sindex *index_make(const game *g, int mat)
{
    count_ctx c = { g, mat };
    return util_sindex_make(game_tables(g)->positions(g, mat), position_states, &c);
}

/* mat's index: the file when it checks, else made and written (materials
 * below the size threshold, or without a directory: made only). */
static util_sindex *index_load(const tb_index *x, int mat)
{
    const game *g = x->g;
    uint64_t positions = game_tables(g)->positions(g, mat);
    if (!x->src.prefix[0] || positions < x->src.min_positions)
        return index_make(g, mat);
    char path[4300];
    index_path(&x->src, g, mat, path, sizeof path);
    util_sindex *ix = index_read(g, mat, path, positions);
    if (ix || (ix = index_make(g, mat)) == NULL)
        return ix;
    index_write(g, mat, path, ix);
    /* The file's pages, unlike the made copy's, are clean: the kernel may
     * drop them under pressure, and a ten-piece build needs that room. */
    util_sindex *mapped = index_read(g, mat, path, positions);
    if (!mapped)
        return ix;
    ix->drop(ix);
    return mapped;
}

tb_index *tb_index_open(const game *g, const char *dir)
{
    char prefix[4200] = "";
    if (dir && game_has_tables(g))
        tb_file_prefix(g, dir, prefix, sizeof prefix);
    return tb_index_open_at(g, prefix, TB_INDEX_FILE_MIN);
}

tb_index *tb_index_open_at(const game *g, const char *prefix, uint64_t min_positions)
{
    tb_index *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->g = g;
    if (game_has_tables(g) && game_tables(g)->positions) {
        if (!(x->of = calloc(TB_MAX_MATERIALS, sizeof *x->of))) {
            free(x);
            return NULL;
        }
        x->view.of = (const void *const *)x->of;
        x->view.n = TB_MAX_MATERIALS;
    }
    snprintf(x->src.prefix, sizeof x->src.prefix, "%s", prefix);
    x->src.min_positions = min_positions;
    pthread_mutex_init(&x->lock, NULL);
    return x;
}

void tb_index_close(tb_index *x)
{
    if (!x)
        return;
    for (int i = 0; x->of && i < TB_MAX_MATERIALS; i++)
        if (x->of[i])
            x->of[i]->drop(x->of[i]);
    free(x->of);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

/* Double-checked: a published index is never changed again. */
const game_tb_index *tb_index_need(tb_index *x, int mat)
{
    if (!x->of)
        return &x->view;  /* one state per position: no index */
    if (mat < 0 || mat >= TB_MAX_MATERIALS)
        return NULL;
    if (__atomic_load_n(&x->of[mat], __ATOMIC_ACQUIRE))
        return &x->view;
    pthread_mutex_lock(&x->lock);
    if (!x->of[mat]) {
        util_sindex *ix = index_load(x, mat);
        if (ix)
            __atomic_store_n(&x->of[mat], ix, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&x->lock);
    return x->of[mat] ? &x->view : NULL;
}

const game_tb_index *tb_index_needs(tb_index *x, const int *mats, int n)
{
    const game_tb_index *v = &x->view;
    for (int i = 0; i < n && v; i++)
        v = tb_index_need(x, mats[i]);
    return v;
}
