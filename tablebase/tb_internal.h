/* tablebase/tb_internal.h - private to tablebase/: value encoding and files. */
#ifndef PNSOLVE_TB_INTERNAL_H
#define PNSOLVE_TB_INTERNAL_H

#include "tablebase.h"

/* In memory an entry is 16 bits: 0 draw, d<<1|1 win in d, d<<1 loss in d. */
typedef uint16_t tb_entry;
#define TB_WIN_IN(d) ((tb_entry)((d) << 1 | 1))
#define TB_LOSS_IN(d) ((tb_entry)((d) << 1))
#define TB_MAX_DISTANCE 32767

static inline tb_value tb_decode(tb_entry e)
{
    if (e == 0)
        return (tb_value){ TB_DRAW, 0 };
    return (tb_value){ (e & 1) ? TB_WIN : TB_LOSS, e >> 1 };
}

/* On disk entries take one byte when every distance is at most 127
 * (0 draw, d win in d, 128+d loss in d), else the 16-bit form. */
#define TB_MAGIC "PNSOLVTB"
#define TB_VERSION 1

typedef struct {
    char magic[8];
    uint32_t version;
    uint32_t entry_bytes;
    char game[64];            /* canonical game name, variant included */
    char material[32];
    uint32_t material_id;
    uint32_t max_distance;
    uint64_t entries;
    uint64_t wins, draws, losses;
    uint64_t data_checksum;   /* of the entries as stored */
    uint64_t header_checksum; /* of this header with this field zero */
    char reserved[88];
} tb_header;                  /* 256 bytes, little-endian */
_Static_assert(sizeof(tb_header) == 256, "tb_header is 256 bytes on disk");

typedef struct {
    tb_header h;
    const unsigned char *data;   /* the entries */
    void *map;
    size_t map_len;
} tb_file;

/* "dir/<game name>": the start of the names of g's files in dir. */
void tb_file_prefix(const game *g, const char *dir, char *buf, size_t len);

/* Materials from this size on keep their game index in a file beside the
 * tables (games/game.h index_files): below it the index is made in moments. */
#define TB_INDEX_FILE_MIN ((uint64_t)1 << 24)

/* Checksum of a byte range (64-bit, position-sensitive). */
uint64_t tb_checksum(const void *data, size_t len);

/* Writes the n entries entry_at(ctx, 0 .. n-1) as the table of mat: to
 * path.tmp, then renamed. */
int tb_file_write(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                  const void *ctx, uint64_t n, char *err, size_t errlen);
/* Maps and checks a table file (magic, version, game, material, size,
 * checksums when check_data).  0, 0 with f->map NULL if the file does not
 * exist, or -1 with err naming the file. */
int tb_file_open(const game *g, const char *path, int mat, int check_data, tb_file *f, char *err, size_t errlen);
void tb_file_close(tb_file *f);

static inline tb_entry tb_file_entry(const tb_file *f, uint64_t i)
{
    if (f->h.entry_bytes == 2)
        return (tb_entry)(f->data[2 * i] | f->data[2 * i + 1] << 8);
    unsigned b = f->data[i];
    return b == 0 ? 0 : b < 128 ? TB_WIN_IN(b) : TB_LOSS_IN(b - 128);
}

/* BLAKE2b-256 of f's values (tablebase.h, tb_hash). */
void tb_file_hash(const tb_file *f, unsigned char out[TB_HASH_BYTES]);

/* Zeroed memory for a large array accessed at random (huge pages where the
 * kernel grants them); NULL when out of memory.  Freed with the same size. */
void *tb_alloc_big(size_t bytes);
void tb_free_big(void *p, size_t bytes);

#endif
