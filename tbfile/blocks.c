/* tbfile/blocks.c - compressed table files (format version 2): the
 * entries in blocks of 2^TB_BLOCK_LOG2 that zstd compresses independently,
 * each with its own XXH3 checksum, so that a probe decodes one block (kept
 * in a small per-thread cache) and a damaged block is found by itself.
 *
 * Layout after the 256-byte header: blocks + 1 pairs of little-endian
 * uint64 {offset of the block in the data, XXH3 of its compressed bytes}
 * (the last pair: {length of the data, 0}), then the data.  The header's
 * data_checksum covers the pairs.  This file reads them; blocks_write.c
 * makes them.
 */
#include "tbfile.h"
#include "../util/util.h"

#include <Judy.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zstd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define ZSTD_LEVEL 3           /* ratio x10 on Jungle tables at 500 MB/s; higher levels pay 10x time for 1.2x */
#define BLOCK_BYTES_MAX (2u << TB_BLOCK_LOG2)

uint64_t tb_blocks_of(uint64_t entries) { return (entries + (1ULL << TB_BLOCK_LOG2) - 1) >> TB_BLOCK_LOG2; }

static size_t block_bytes(const tb_header *h, uint64_t b)
{
    uint64_t first = b << h->block_log2, left = h->entries - first, m = 1ULL << h->block_log2;
    return (size_t)((left < m ? left : m) * h->entry_bytes);
}

const char *tb_blocks_open(tb_file *f, int check_data)
{
    const tb_header *h = &f->h;
    uint64_t blocks = tb_blocks_of(h->entries);
    size_t table = 16 * (blocks + 1), start = sizeof(tb_header) + table;
    if (h->block_log2 != TB_BLOCK_LOG2 || h->compression != 1)
        return "unsupported compression";
    if (f->map_len < start)
        return "truncated table (block offsets)";
    f->blocks = (const uint64_t *)((const unsigned char *)f->map + sizeof(tb_header));
    f->zdata = (const unsigned char *)f->map + start;
    if (tb_checksum(f->blocks, table) != h->data_checksum)
        return "corrupt block offsets (checksum)";
    if (f->blocks[2 * blocks] != f->map_len - start)
        return "truncated or oversized table";
    for (uint64_t b = 0; b < blocks; b++)
        if (f->blocks[2 * b] > f->blocks[2 * b + 2])
            return "corrupt block offsets";
    for (uint64_t b = 0; check_data && b < blocks; b++)
        if (XXH3_64bits(f->zdata + f->blocks[2 * b], f->blocks[2 * b + 2] - f->blocks[2 * b]) != f->blocks[2 * b + 1])
            return "corrupt entries (block checksum)";
    static uint64_t next_id;
    f->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* Decodes block b of f into out (block_bytes of it) with context dc;
 * 0, or -1 when the block does not match its checksum or does not decode
 * to its length. */
static int decode(ZSTD_DCtx *dc, const tb_file *f, uint64_t b, unsigned char *out)
{
    const unsigned char *z = f->zdata + f->blocks[2 * b];
    size_t zlen = f->blocks[2 * b + 2] - f->blocks[2 * b], want = block_bytes(&f->h, b);
    if (XXH3_64bits(z, zlen) != f->blocks[2 * b + 1])
        return -1;
    size_t got = ZSTD_decompressDCtx(dc, out, want, z, zlen);
    return !ZSTD_isError(got) && got == want ? 0 : -1;
}

/* A thread's decoded blocks and its decoder (a context per call would
 * cost an allocation per decoded block), direct-mapped by file and block. */
typedef struct {
    ZSTD_DCtx *dc;
    unsigned log2;             /* 2^log2 slots */
    unsigned asked;            /* the log2 asked for when it was made (log2 is less where that could not be had) */
    uint64_t *file, *block;    /* file 0: empty (ids start at 1) */
    unsigned char *data;       /* BLOCK_BYTES_MAX a slot, touched as used */
    uint64_t probes, decodes;  /* counted here, added to the process's when the thread ends */
} block_cache;

static uint64_t all_probes, all_decodes;  /* of the caches of threads that ended */

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static void cache_key_make(void);

void tb_cache_counts(uint64_t *probes, uint64_t *decodes)
{
    *probes = __atomic_load_n(&all_probes, __ATOMIC_RELAXED);
    *decodes = __atomic_load_n(&all_decodes, __ATOMIC_RELAXED);
    pthread_once(&cache_once, cache_key_make);
    const block_cache *mine = pthread_getspecific(cache_key);  /* this thread's too: it may have probed */
    if (mine)
        *probes += mine->probes, *decodes += mine->decodes;
}

unsigned tb_cache_log2_of(size_t bytes)
{
    unsigned log2 = 0;
    while (log2 < 30 && ((size_t)BLOCK_BYTES_MAX << (log2 + 1)) <= bytes)
        log2++;
    return log2;
}

static void cache_free(void *p)
{
    block_cache *c = p;
    if (!c)
        return;
    __atomic_add_fetch(&all_probes, c->probes, __ATOMIC_RELAXED);
    __atomic_add_fetch(&all_decodes, c->decodes, __ATOMIC_RELAXED);
    ZSTD_freeDCtx(c->dc);
    free(c->file);
    free(c->block);
    free(c->data);
    free(c);
}

/* A cache of 2^log2 slots, or NULL when out of memory. */
static block_cache *cache_make(unsigned log2)
{
    size_t n = (size_t)1 << log2;
    block_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->log2 = log2;
    c->dc = ZSTD_createDCtx();
    c->file = calloc(n, sizeof *c->file);
    c->block = malloc(n * sizeof *c->block);
    c->data = malloc(n * BLOCK_BYTES_MAX);
    if (!c->dc || !c->file || !c->block || !c->data) {
        cache_free(c);
        return NULL;
    }
    return c;
}

static void cache_key_make(void) { pthread_key_create(&cache_key, cache_free); }

/* This thread's cache, made again when another size was asked for since;
 * where that size cannot be had, the largest half, quarter ... that can
 * (a probe fails only when not even one block can). */
static block_cache *thread_cache(unsigned want)
{
    pthread_once(&cache_once, cache_key_make);
    block_cache *c = pthread_getspecific(cache_key);
    if (c && c->asked == want)
        return c;
    cache_free(c);
    pthread_setspecific(cache_key, NULL);
    unsigned log2 = want;
    while (!(c = cache_make(log2)) && log2 > 0)
        log2--;
    if (c)
        c->asked = want;
    if (c && pthread_setspecific(cache_key, c) != 0) {
        cache_free(c);
        c = NULL;
    }
    return c;
}

tb_entry tb_file_entry_block(const tb_file *f, uint64_t i)
{
    block_cache *c = thread_cache(__atomic_load_n(&f->cache_log2, __ATOMIC_RELAXED));
    if (!c)
        return TB_ENTRY_BAD;
    uint64_t b = i >> f->h.block_log2;
    size_t slot = (size_t)((b * 0x9E3779B97F4A7C15ULL + f->id * 0xC2B2AE3D27D4EB4FULL) >> 32 >> (32 - c->log2));
    unsigned char *data = c->data + slot * BLOCK_BYTES_MAX;
    c->probes++;
    if (c->file[slot] != f->id || c->block[slot] != b) {
        c->decodes++;
        c->file[slot] = 0;
        if (decode(c->dc, f, b, data) != 0)
            return TB_ENTRY_BAD;
        c->file[slot] = f->id;
        c->block[slot] = b;
    }
    return tb_entry_in(data, f->h.entry_bytes, i & ((1ULL << f->h.block_log2) - 1));
}

/* Entry e in one byte: the file's one-byte form, or TB_NARROW_WIDE for
 * what that cannot hold (and for its own code, loss in 127). */
static unsigned char narrow(tb_entry e) { return (e >> 1) >= 127 ? TB_NARROW_WIDE : tb_entry_byte(e); }

int tb_blocks_each(const tb_file *f, int (*fn)(void *ctx, uint64_t first, const unsigned char *bytes, uint64_t n),
                   void *ctx)
{
    unsigned char *block = malloc((size_t)f->h.entry_bytes << f->h.block_log2);
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    int ok = block && dc;
    uint64_t blocks = tb_blocks_of(f->h.entries);
    for (uint64_t b = 0; ok && b < blocks; b++)
        ok = decode(dc, f, b, block) == 0 &&
             fn(ctx, b << f->h.block_log2, block, block_bytes(&f->h, b) / f->h.entry_bytes) == 0;
    ZSTD_freeDCtx(dc);
    free(block);
    return ok ? 0 : -1;
}

typedef struct {
    unsigned char *all;
    uint32_t entry_bytes;
    Pvoid_t wide;
} decoding;

static int decode_run(void *ctx, uint64_t first, const unsigned char *bytes, uint64_t n)
{
    decoding *d = ctx;
    if (d->entry_bytes == 1) {
        memcpy(d->all + first, bytes, n);
        return 0;
    }
    for (uint64_t j = 0; j < n; j++) {
        tb_entry e = tb_entry_in(bytes, 2, j);
        if ((d->all[first + j] = narrow(e)) == TB_NARROW_WIDE) {
            PWord_t v = (PWord_t)JudyLIns(&d->wide, (Word_t)(first + j), PJE0);
            if (!v)
                return -1;
            *v = e;
        }
    }
    return 0;
}

int tb_file_decode_into(const tb_file *f, unsigned char *all, void **wide_out)
{
    decoding d = { all, f->h.entry_bytes, NULL };
    if (tb_blocks_each(f, decode_run, &d) != 0) {
        JudyLFreeArray(&d.wide, PJE0);
        return -1;
    }
    *wide_out = d.wide;
    return 0;
}

int tb_file_decode_all(tb_file *f)
{
    if (f->data)
        return 0;
    size_t len = (size_t)f->h.entries;
    unsigned char *all = util_alloc_big(len);
    void *wide = NULL;
    if (!all || tb_file_decode_into(f, all, &wide) != 0) {
        if (all)
            util_free_big(all, len);
        return -1;
    }
    f->owned = all;
    f->owned_len = len;
    tb_file_use_decoded(f, all, wide);
    return 0;
}

void tb_file_use_decoded(tb_file *f, const unsigned char *data, void *wide)
{
    /* The compressed pages are not read again: out of this process's
     * resident set (the page cache keeps them while it has room). */
    madvise(f->map, f->map_len, MADV_DONTNEED);
    f->wide = wide;
    f->data = data;
    f->data_bytes = 1;
}

/* Here, not in decoded.c, which makes the file: the probe's path calls
 * no further than this file. */
tb_entry tb_file_entry_unchecked(const tb_file *f, uint64_t i)
{
    uint64_t c = i >> TB_DEC_CHUNK_LOG2;
    unsigned char s = __atomic_load_n(&f->chunk_state[c], __ATOMIC_ACQUIRE);
    if (s == 0) {
        /* two threads may check one page at once: both find the same */
        s = XXH3_64bits(f->data + (c << TB_DEC_CHUNK_LOG2), tb_dec_chunk_len(f->h.entries, c)) == f->chunk_sum[c]
                ? TB_CHUNK_SOUND
                : TB_CHUNK_DAMAGED;
        __atomic_store_n(&f->chunk_state[c], s, __ATOMIC_RELEASE);
    }
    if (s == TB_CHUNK_SOUND)
        return tb_file_entry(f, i);
    return f->blocks ? tb_file_entry_block(f, i) : TB_ENTRY_BAD;
}

tb_entry tb_file_entry_wide(const tb_file *f, uint64_t i)
{
    PWord_t v = (PWord_t)JudyLGet((Pcvoid_t)f->wide, (Word_t)i, PJE0);
    return v ? (tb_entry)*v : TB_ENTRY_BAD;
}

void tb_file_drop_decoded(tb_file *f)
{
    if (f->owned)
        util_free_big(f->owned, f->owned_len);
    if (f->shared)
        munmap(f->shared, f->shared_len);
    f->shared = NULL;
    free(f->chunk_state);
    f->chunk_state = NULL;
    f->chunk_sum = NULL;
    Pvoid_t wide = f->wide;
    JudyLFreeArray(&wide, PJE0);
    f->owned = NULL;
    f->wide = NULL;
}
