/* tbfile/decoded.c - a compressed table's decoded form kept in a file
 * beside it, so that the processes on one machine share it.
 *
 * `--tb-decode` makes random probes a memory read (a block decode each
 * otherwise), at a byte per entry: 4.8 GB for the nine-piece Ostle table.
 * Decoded into each process's own memory, two searches of a split proof
 * held two copies and could not run side by side in 24 GB; mapped from one
 * file, the page cache holds one copy for all of them, and under pressure
 * the kernel drops its clean pages and reads them again instead of killing
 * a process.  The file is "<table>.dec": a header naming the table (game,
 * material, entries, the table file's own checksums), the bytes from the
 * next page on, then the wide entries (index, entry) the bytes mark
 * TB_NARROW_WIDE, then the XXH3 of every TB_DEC_CHUNK_LOG2 page of the
 * bytes.  It is used only when its header matches the table and the XXH3 of
 * the pairs and the page sums holds; each page of bytes is checked against
 * its sum when first read (tb_file_entry), and a page that does not match
 * is read from the compressed blocks instead, so a damaged file costs
 * speed, never a value.  The header also keeps the table's values hash
 * (tb_hash), made with the bytes: a proof's header names its tables by it,
 * and hashing the nine-piece Ostle table's 2e9 values took 50 s of every
 * child of a split proof (`verify-proof` reads no decoded file: it hashes
 * the values it checks against).
 */
#include "tbfile.h"
#include "../util/util.h"

#include <Judy.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define DEC_MAGIC "PNSODEC1"
/* 3: the table's values hash kept (2: the bytes from the second page, a
 * sum per page of them checked when first read; 1: one sum of everything,
 * checked on every mapping) */
#define DEC_VERSION 3
#define DEC_CHUNK ((uint64_t)1 << TB_DEC_CHUNK_LOG2)

typedef struct {
    char magic[8];
    uint32_t version, entry_bytes;
    char game[64], material[32];
    uint64_t entries, wide;           /* bytes, then wide (index, entry) pairs, then page sums */
    uint64_t table_data_checksum;     /* the table file's, as its header gives them */
    uint64_t table_header_checksum;
    uint64_t data_sum;                /* XXH3 of the pairs and the page sums */
    uint64_t header_sum;              /* XXH3 of this header with this field zero */
    unsigned char values_hash[TB_HASH_BYTES]; /* tb_file_hash of the table, made with the bytes */
    char reserved[64];
} dec_header;
_Static_assert(sizeof(dec_header) == 256, "dec_header is 256 bytes on disk");

/* The bytes start a page in, so that each page sum covers one page; they
 * are padded to 8, so that the pairs after them are aligned. */
#define BYTES_AT DEC_CHUNK
static uint64_t pairs_at(uint64_t entries) { return BYTES_AT + ((entries + 7) & ~7ULL); }
static uint64_t chunks_of(uint64_t entries) { return (entries + DEC_CHUNK - 1) >> TB_DEC_CHUNK_LOG2; }

static uint64_t header_sum(dec_header h)
{
    h.header_sum = 0;
    return XXH3_64bits(&h, sizeof h);
}

static dec_header header_for(const tb_file *f)
{
    dec_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, DEC_MAGIC, 8);
    h.version = DEC_VERSION;
    h.entry_bytes = f->h.entry_bytes;
    memcpy(h.game, f->h.game, sizeof h.game);
    memcpy(h.material, f->h.material, sizeof h.material);
    h.entries = f->h.entries;
    h.table_data_checksum = f->h.data_checksum;
    h.table_header_checksum = f->h.header_checksum;
    return h;
}

/* Maps the decoded file at dec if it is this table's and its header, pairs
 * and page sums are sound (the bytes are checked as they are read): 0, or -1. */
static int map_existing(tb_file *f, const char *dec)
{
    int fd = util_open_regular(dec, O_RDONLY);
    if (fd < 0)
        return -1;
    dec_header h, want = header_for(f);
    struct stat st;
    int ok = fstat(fd, &st) == 0 && pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h;
    uint64_t chunks = chunks_of(want.entries), len = ok ? pairs_at(want.entries) + h.wide * 16 + chunks * 8 : 0;
    if (ok) {
        want.wide = h.wide;
        memcpy(want.values_hash, h.values_hash, TB_HASH_BYTES);
        want.data_sum = h.data_sum;
        want.header_sum = header_sum(want);
        ok = memcmp(&h, &want, sizeof h) == 0 && (uint64_t)st.st_size == len;
    }
    void *map = ok ? mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    unsigned char *state = map != MAP_FAILED ? calloc(chunks, 1) : NULL;
    if (!state) {
        if (map != MAP_FAILED)
            munmap(map, len);
        return -1;
    }
    const unsigned char *base = map;
    const uint64_t *pair = (const uint64_t *)(base + pairs_at(h.entries));
    Pvoid_t wide = NULL;
    ok = XXH3_64bits(pair, h.wide * 16 + chunks * 8) == h.data_sum;
    for (uint64_t i = 0; ok && i < h.wide; i++) {
        PWord_t v = (PWord_t)JudyLIns(&wide, (Word_t)pair[2 * i], PJE0);
        ok = v != NULL && pair[2 * i] < h.entries;
        if (ok)
            *v = (Word_t)pair[2 * i + 1];
    }
    if (!ok) {
        JudyLFreeArray(&wide, PJE0);
        munmap(map, len);
        free(state);
        return -1;
    }
    madvise(map, len, MADV_RANDOM);  /* a probe reads one byte: no read-ahead */
    f->shared = map;
    f->shared_len = len;
    f->chunk_sum = pair + 2 * h.wide;
    f->chunk_state = state;
    memcpy(f->hash, h.values_hash, TB_HASH_BYTES);
    f->hash_known = 1;
    tb_file_use_decoded(f, base + BYTES_AT, wide);
    return 0;
}

/* Decodes f into a new file at tmp (its room reserved first, so that a full
 * disk is an error here, not a fault while writing the mapping): 0, or -1. */
static int make(const tb_file *f, const char *tmp)
{
    int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    dec_header h = header_for(f);
    uint64_t at = pairs_at(h.entries), chunks = chunks_of(h.entries);
    void *map = MAP_FAILED, *wide = NULL;
    uint64_t *sums = malloc(chunks * 8);
    int ok = sums && posix_fallocate(fd, 0, (off_t)at) == 0;
    if (ok)
        map = mmap(NULL, at, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const unsigned char *bytes = (const unsigned char *)map + BYTES_AT;
    ok = map != MAP_FAILED && tb_file_decode_into(f, (unsigned char *)bytes, &wide) == 0;
    for (uint64_t c = 0; ok && c < chunks; c++)
        sums[c] = XXH3_64bits(bytes + (c << TB_DEC_CHUNK_LOG2), tb_dec_chunk_len(h.entries, c));
    if (ok) {
        tb_file decoded = *f;  /* the same values, read from the bytes made */
        decoded.data = bytes;
        decoded.data_bytes = 1;
        decoded.wide = wide;
        decoded.chunk_state = NULL;
        decoded.hash_known = 0;
        ok = tb_file_hash(&decoded, h.values_hash) == 0;
    }
    XXH3_state_t *st = ok ? XXH3_createState() : NULL;
    ok = ok && st && XXH3_64bits_reset(st) == XXH_OK;
    /* the wide pairs, in index order, after the bytes; the page sums last */
    Word_t i = 0;
    for (PWord_t v = ok ? (PWord_t)JudyLFirst(wide, &i, PJE0) : NULL; ok && v; v = (PWord_t)JudyLNext(wide, &i, PJE0)) {
        uint64_t pair[2] = { (uint64_t)i, (uint64_t)*v };
        ok = pwrite(fd, pair, sizeof pair, (off_t)(at + h.wide * 16)) == (ssize_t)sizeof pair &&
             XXH3_64bits_update(st, pair, sizeof pair) == XXH_OK;
        h.wide++;
    }
    ok = ok && pwrite(fd, sums, chunks * 8, (off_t)(at + h.wide * 16)) == (ssize_t)(chunks * 8) &&
         XXH3_64bits_update(st, sums, chunks * 8) == XXH_OK;
    if (ok) {
        h.data_sum = XXH3_64bits_digest(st);
        h.header_sum = header_sum(h);
        memcpy(map, &h, sizeof h);
    }
    free(sums);
    XXH3_freeState(st);
    JudyLFreeArray(&wide, PJE0);
    if (map != MAP_FAILED)
        munmap(map, at);
    ok = close(fd) == 0 && ok;
    return ok ? 0 : -1;
}

int tb_file_decode_shared(tb_file *f, const char *path)
{
    if (f->data)
        return 0;
    char dec[4300], tmp[4400];
    snprintf(dec, sizeof dec, "%s.dec", path);
    if (map_existing(f, dec) == 0)
        return 0;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dec, (long)getpid());
    if (make(f, tmp) != 0 || rename(tmp, dec) != 0) {
        unlink(tmp);
        return -1;
    }
    return map_existing(f, dec);
}
