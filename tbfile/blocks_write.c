/* tbfile/blocks_write.c - the blocks of a table file made, on a team of
 * threads, and written compressed (the layout: blocks.c).  Apart from
 * blocks.c so that a program that only probes links no writer. */
#include "tbfile.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define ZSTD_LEVEL 3           /* ratio x10 on Jungle tables at 500 MB/s; higher levels pay 10x time for 1.2x */
#define BLOCK_BYTES_MAX (2u << TB_BLOCK_LOG2)

/* The blocks made a batch at a time on a team: each member encodes (and
 * compresses) BATCH_PER blocks of a batch into its slots, then member 0
 * hands the batch on in block order while the others wait.  A six-piece
 * table is minutes of this on one thread. */
#define BATCH_PER 16

typedef struct {
    uint64_t blocks;
    void (*encode)(void *ctx, uint64_t b, unsigned char *buf, size_t *len);
    void *ctx;
    int compress;
    int (*emit)(void *ctx, uint64_t b, const unsigned char *bytes, size_t len, uint64_t hash);
    void *emit_ctx;
    size_t slot_cap;
    unsigned char *slots;
    size_t *len;
    uint64_t *hash;  /* of each compressed slot */
    int failed;
} batch_job;

/* Block b into slot s: 0, or -1. */
static int make_block(batch_job *j, uint64_t b, size_t s, ZSTD_CCtx *cc, unsigned char *raw)
{
    unsigned char *slot = j->slots + s * j->slot_cap;
    if (!j->compress) {
        j->encode(j->ctx, b, slot, &j->len[s]);
        return 0;
    }
    size_t len;
    j->encode(j->ctx, b, raw, &len);
    size_t z = ZSTD_compressCCtx(cc, slot, j->slot_cap, raw, len, ZSTD_LEVEL);
    if (ZSTD_isError(z))
        return -1;
    j->len[s] = z;
    j->hash[s] = XXH3_64bits(slot, z);
    return 0;
}

static void batch_member(void *arg, util_team *t, int member)
{
    batch_job *j = arg;
    int size = util_team_size(t);
    uint64_t per = (uint64_t)size * BATCH_PER;
    unsigned char *raw = j->compress ? malloc(BLOCK_BYTES_MAX) : NULL;
    ZSTD_CCtx *cc = j->compress ? ZSTD_createCCtx() : NULL;
    if (j->compress && (!raw || !cc))
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
    /* every member goes through every batch, failed or not: the waits
     * must match */
    for (uint64_t b0 = 0; b0 < j->blocks; b0 += per) {
        uint64_t in = j->blocks - b0 < per ? j->blocks - b0 : per;
        for (uint64_t s = (uint64_t)member; s < in && !__atomic_load_n(&j->failed, __ATOMIC_RELAXED); s += (uint64_t)size)
            if (make_block(j, b0 + s, s, cc, raw) != 0)
                __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
        util_team_sync(t);
        for (uint64_t s = 0; member == 0 && s < in && !j->failed; s++)
            if (j->emit(j->emit_ctx, b0 + s, j->slots + s * j->slot_cap, j->len[s], j->compress ? j->hash[s] : 0) != 0)
                j->failed = 1;
        util_team_sync(t);
    }
    ZSTD_freeCCtx(cc);
    free(raw);
}

int tb_blocks_make(uint64_t blocks, void (*encode)(void *ctx, uint64_t b, unsigned char *buf, size_t *len),
                   void *ctx, int compress, int threads,
                   int (*emit)(void *ctx, uint64_t b, const unsigned char *bytes, size_t len, uint64_t hash),
                   void *emit_ctx)
{
    if (threads < 1)
        threads = 1;
    batch_job j = { .blocks = blocks, .encode = encode, .ctx = ctx, .compress = compress, .emit = emit,
                    .emit_ctx = emit_ctx };
    size_t slots = (size_t)threads * BATCH_PER;
    j.slot_cap = compress ? ZSTD_compressBound(BLOCK_BYTES_MAX) : BLOCK_BYTES_MAX;
    j.slots = malloc(slots * j.slot_cap);
    j.len = malloc(slots * sizeof *j.len);
    j.hash = malloc(slots * sizeof *j.hash);
    if (j.slots && j.len && j.hash)
        util_team_run(threads, batch_member, &j);
    int ok = j.slots && j.len && j.hash && !j.failed;
    free(j.slots);
    free(j.len);
    free(j.hash);
    return ok ? 0 : -1;
}

/* The compressed file's part of a block: its bytes, and its offset and
 * checksum in the block table. */
typedef struct {
    FILE *f;
    uint64_t *pairs, at;
} block_out;

static int put_block(void *ctx, uint64_t b, const unsigned char *bytes, size_t len, uint64_t hash)
{
    block_out *o = ctx;
    o->pairs[2 * b] = o->at;
    o->pairs[2 * b + 1] = hash;
    o->at += len;
    return fwrite(bytes, 1, len, o->f) == len ? 0 : -1;
}

int tb_blocks_write(FILE *f, const tb_header *h, void (*encode)(void *ctx, uint64_t b, unsigned char *buf, size_t *len),
                    void *ctx, int threads, uint64_t *sum)
{
    uint64_t blocks = tb_blocks_of(h->entries);
    block_out o = { .f = f, .pairs = calloc(2 * (blocks + 1), sizeof *o.pairs) };
    long table_at = ftell(f);
    int ok = o.pairs && table_at >= 0 && fwrite(o.pairs, 8, 2 * (blocks + 1), f) == 2 * (blocks + 1) &&
             tb_blocks_make(blocks, encode, ctx, 1, threads, put_block, &o) == 0;
    if (ok) {
        o.pairs[2 * blocks] = o.at;
        *sum = tb_checksum(o.pairs, 16 * (blocks + 1));
        ok = fseek(f, table_at, SEEK_SET) == 0 && fwrite(o.pairs, 8, 2 * (blocks + 1), f) == 2 * (blocks + 1);
    }
    free(o.pairs);
    return ok ? 0 : -1;
}
