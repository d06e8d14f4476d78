/* tbfile/file_write.c - a table file written: a checksummed header and the
 * entries, raw or in compressed blocks, to a temporary name and renamed.
 * Apart from file.c so that a program that only probes links no writer. */
#include "tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Encodes the entries of one block for the file. */
typedef struct {
    tb_entry (*entry_at)(const void *ctx, uint64_t i);
    const void *ctx;
    const tb_header *h;
} encoder;

static void encode_block(void *ctx, uint64_t block, unsigned char *buf, size_t *len)
{
    const encoder *e = ctx;
    uint64_t first = block << TB_BLOCK_LOG2, left = e->h->entries - first, m = 1ULL << TB_BLOCK_LOG2;
    if (left < m)
        m = left;
    for (uint64_t j = 0; j < m; j++) {
        tb_entry x = e->entry_at(e->ctx, first + j);
        if (e->h->entry_bytes == 2) {
            buf[2 * j] = (unsigned char)(x & 0xFF);
            buf[2 * j + 1] = (unsigned char)(x >> 8);
        } else {
            buf[j] = tb_entry_byte(x);
        }
    }
    *len = (size_t)(m * e->h->entry_bytes);
}

void tb_counts_add(tb_counts *c, tb_entry (*entry_at)(const void *ctx, uint64_t i), const void *ctx, uint64_t first,
                   uint64_t end)
{
    uint64_t wins = 0, losses = 0, draws = 0;
    uint32_t most = 0;
    for (uint64_t i = first; i < end; i++) {
        tb_entry e = entry_at(ctx, i);
        int wdl = tb_entry_wdl(e);
        wins += wdl > 0;
        losses += wdl < 0;
        draws += wdl == 0;
        if ((uint32_t)tb_entry_distance(e) > most)
            most = (uint32_t)tb_entry_distance(e);
    }
    __atomic_add_fetch(&c->wins, wins, __ATOMIC_RELAXED);
    __atomic_add_fetch(&c->losses, losses, __ATOMIC_RELAXED);
    __atomic_add_fetch(&c->draws, draws, __ATOMIC_RELAXED);
    uint32_t cur = __atomic_load_n(&c->max_distance, __ATOMIC_RELAXED);
    while (most > cur && !__atomic_compare_exchange_n(&c->max_distance, &cur, most, 0, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED))
        ;
}

typedef struct {
    const encoder *e;
    tb_counts *c;
} counter;

static void count_entries(void *ctx, uint64_t first, uint64_t end)
{
    counter *k = ctx;
    tb_counts_add(k->c, k->e->entry_at, k->e->ctx, first, end);
}

/* A raw file's block: its bytes, added to the running checksum (every block
 * but the last a multiple of 8 bytes). */
typedef struct {
    FILE *f;
    uint64_t sum;
} raw_out;

static int put_raw(void *ctx, uint64_t b, const unsigned char *bytes, size_t len, uint64_t hash)
{
    (void)b, (void)hash;
    raw_out *o = ctx;
    o->sum = tb_checksum_update(o->sum, bytes, len);
    return fwrite(bytes, 1, len, o->f) == len ? 0 : -1;
}

static int write_file(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                      const void *ctx, uint64_t n, int compress, int threads, const tb_counts *given, char *err,
                      size_t errlen)
{
    tb_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, TB_MAGIC, 8);
    h.version = compress ? TB_VERSION_BLOCKS : TB_VERSION_RAW;
    snprintf(h.game, sizeof h.game, "%.63s", g->name);
    game_tables(g)->material_name(g, mat, h.material, sizeof h.material);
    h.material_id = (uint32_t)mat;
    h.entries = n;
    if (compress) {
        h.block_log2 = TB_BLOCK_LOG2;
        h.compression = 1;
    }
    if (threads < 1)
        threads = 1;
    encoder enc = { .entry_at = entry_at, .ctx = ctx, .h = &h };
    tb_counts counts = { 0 };
    if (given) {
        counts = *given;
    } else {
        counter c = { &enc, &counts };
        if (threads > 1)
            util_parallel(threads, n, 0, count_entries, &c);
        else
            count_entries(&c, 0, n);
    }
    h.wins = counts.wins, h.losses = counts.losses, h.draws = counts.draws, h.max_distance = counts.max_distance;
    h.entry_bytes = h.max_distance <= 127 ? 1 : 2;

    util_file out;
    if (util_file_create(&out, path, "wb", err, errlen) != 0)
        return -1;
    FILE *f = out.f;
    int ok = fwrite(&h, sizeof h, 1, f) == 1;
    if (ok && compress) {
        ok = tb_blocks_write(f, &h, encode_block, &enc, threads, &h.data_checksum) == 0;
    } else if (ok) {
        raw_out o = { f, TB_CHECKSUM_SEED };
        ok = tb_blocks_make(tb_blocks_of(n), encode_block, &enc, 0, threads, put_raw, &o) == 0;
        h.data_checksum = o.sum;
    }
    h.header_checksum = tb_header_checksum(h);
    ok = ok && fseek(f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, f) == 1;
    if (!ok) {
        int saved = errno ? errno : EIO;
        util_file_commit(&out, 0, NULL, 0);
        return util_error(err, errlen, "%s: cannot write table: %s", path, strerror(saved));
    }
    char why[512];
    if (util_file_commit(&out, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write table %s", why);
    return 0;
}

int tb_file_write(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                  const void *ctx, uint64_t n, int compress, int threads, char *err, size_t errlen)
{
    return write_file(g, path, mat, entry_at, ctx, n, compress, threads, NULL, err, errlen);
}

int tb_file_write_counted(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                          const void *ctx, uint64_t n, int compress, const tb_counts *counts, char *err, size_t errlen)
{
    return write_file(g, path, mat, entry_at, ctx, n, compress, 1, counts, err, errlen);
}
