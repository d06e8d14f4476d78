/* tablebase/sindex.c - state indices kept in files beside the tables.
 *
 * Making a game's sparse state index (games/game.h game_sindex) costs every
 * process that opens a large table a pass over its positions (the 5x5
 * nine-piece Ostle table: about 4 minutes on two cores), so the index of a
 * large material is kept in "<prefix>-<material>.pnidx" and mapped: instant,
 * and shared by the processes that use it.  A file is trusted only if its
 * header, its checksum and the recounted states of a sample of its
 * positions agree; else the index is made again and the file rewritten.
 */
#include "tb_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define INDEX_MAGIC "PNSOIDX1"
/* 3: the header names the game and material (2: the same lines, with the
 * board's size and piece counts); a file of another version is made again */
#define INDEX_VERSION 3
#define INDEX_SAMPLE 4096

typedef struct {
    char magic[8];
    uint32_t version, line_positions, hint_shift, reserved0;
    char game[64], material[32];
    uint64_t positions, lines, states, hints;
    uint64_t data_sum;   /* XXH3 of the arrays that follow */
    uint64_t header_sum; /* XXH3 of this header with this field zero */
    char reserved[88];
} index_header;          /* 256 bytes, then the lines and the hints */
_Static_assert(sizeof(index_header) == 256, "index_header is 256 bytes on disk");

typedef struct {
    char prefix[4200];
    uint64_t min_positions;
} file_source;

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
    h.line_positions = GAME_SINDEX_LINE;
    h.hint_shift = GAME_SINDEX_HINT_SHIFT;
    snprintf(h.game, sizeof h.game, "%s", g->name);
    game_tables(g)->material_name(g, mat, h.material, sizeof h.material);
    h.positions = positions;
    h.lines = positions / GAME_SINDEX_LINE + 1;
    return h;
}

static void index_path(const file_source *src, const game *g, int mat, char *buf, size_t len)
{
    char name[32];
    game_tables(g)->material_name(g, mat, name, sizeof name);
    snprintf(buf, len, "%s-%s.pnidx", src->prefix, name);
}

static void drop_mapped(game_sindex *ix)
{
    munmap(ix->mem, ix->mem_len);
    free(ix);
}

/* Maps mat's index from its file: NULL if it is not there or does not check. */
static game_sindex *index_read(const game *g, int mat, const char *path, uint64_t positions)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    index_header h, want = header_of(g, mat, positions);
    size_t lines = want.lines * sizeof(game_sindex_line);
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > sizeof h + lines)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    game_sindex *ix = calloc(1, sizeof *ix);
    if (map == MAP_FAILED || !ix) {
        if (map != MAP_FAILED)
            munmap(map, (size_t)st.st_size);
        free(ix);
        return NULL;
    }
    memcpy(&h, map, sizeof h);
    want.states = h.states;
    want.hints = h.hints;
    want.data_sum = h.data_sum;
    want.header_sum = h.header_sum;
    const unsigned char *data = (const unsigned char *)map + sizeof h;
    size_t len = (size_t)st.st_size - sizeof h;
    int ok = memcmp(&h, &want, sizeof h) == 0 && h.header_sum == header_sum(h) &&
             h.hints == (h.states >> GAME_SINDEX_HINT_SHIFT) + 1 && len == lines + h.hints * sizeof(uint32_t) &&
             XXH3_64bits(data, len) == h.data_sum;
    ix->line = (const game_sindex_line *)data;  /* 64-aligned: the header is 256 bytes */
    ix->hint = (const uint32_t *)(data + lines);
    ix->positions = positions;
    ix->lines = h.lines;
    ix->states = h.states;
    ix->hints = h.hints;
    ok = ok && ix->line[ix->lines - 1].base + game_sindex_sum(ix->line[ix->lines - 1].count, GAME_SINDEX_LINE) ==
                   h.states;
    /* The checksum catches damage; a sample recounted catches a file made
     * by an older state order of the same size. */
    uint64_t step = positions > INDEX_SAMPLE ? positions / INDEX_SAMPLE : 1;
    for (uint64_t p = 0; ok && p < positions; p += step) {
        uint64_t q = p + (p * 0x9E3779B97F4A7C15ULL >> 40) % step;
        ok = q >= positions || game_sindex_count(ix, q) == (unsigned)game_tables(g)->position_states(g, mat, q);
    }
    if (!ok) {
        munmap(map, (size_t)st.st_size);
        free(ix);
        return NULL;
    }
    ix->mem = map;
    ix->mem_len = (size_t)st.st_size;
    ix->drop = drop_mapped;
    return ix;
}

/* Writes ix to path all or nothing; where the directory does not take it
 * there is no file, which costs only the pass next time. */
static void index_write(const game *g, int mat, const char *path, const game_sindex *ix)
{
    game_file out;
    if (game_file_create(&out, path, "wb", NULL, 0) != 0)
        return;
    size_t lines = ix->lines * sizeof(game_sindex_line), hints = ix->hints * sizeof(uint32_t);
    index_header h = header_of(g, mat, ix->positions);
    h.states = ix->states;
    h.hints = ix->hints;
    XXH3_state_t sum;
    XXH3_INITSTATE(&sum);
    XXH3_64bits_reset(&sum);
    XXH3_64bits_update(&sum, ix->line, lines);
    XXH3_64bits_update(&sum, ix->hint, hints);
    h.data_sum = XXH3_64bits_digest(&sum);
    h.header_sum = header_sum(h);
    int ok = fwrite(&h, sizeof h, 1, out.f) == 1 && fwrite(ix->line, 1, lines, out.f) == lines &&
             fwrite(ix->hint, 1, hints, out.f) == hints;
    game_file_commit(&out, ok, NULL, 0);
}

/* The game_sindex_source of a directory: the file when it checks, else made
 * and written (materials below the size threshold: made only). */
static game_sindex *from_file(const game *g, int mat, void *ctx)
{
    const file_source *src = ctx;
    uint64_t positions = game_tables(g)->positions(g, mat);
    if (positions < src->min_positions)
        return game_sindex_make(g, mat);
    char path[4300];
    index_path(src, g, mat, path, sizeof path);
    game_sindex *ix = index_read(g, mat, path, positions);
    if (ix || (ix = game_sindex_make(g, mat)) == NULL)
        return ix;
    index_write(g, mat, path, ix);
    /* The file's pages, unlike the made copy's, are clean: the kernel may
     * drop them under pressure, and a ten-piece build needs that room. */
    game_sindex *mapped = index_read(g, mat, path, positions);
    if (!mapped)
        return ix;
    ix->drop(ix);
    return mapped;
}

void tb_sindex_files(const game *g, const char *prefix, uint64_t min_positions)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops || !ops->index_source)
        return;
    file_source *src = malloc(sizeof *src);
    if (!src)
        return;  /* indices are made in memory, as without files */
    snprintf(src->prefix, sizeof src->prefix, "%s", prefix);
    src->min_positions = min_positions;
    game_sindex_source s = { from_file, src, free };
    ops->index_source(g, &s);
}
