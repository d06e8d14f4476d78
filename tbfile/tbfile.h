/* tbfile/tbfile.h - the files of the tables, for the modules that read and
 * write them: the probe side (tablebase/), the builder (tbbuild/), the
 * layers (tblayers/) and reachability (tbreach/).  An entry's encoding, a
 * table file's header, mapped and compressed blocks, the state indices,
 * the layer sets and their scores, checksums and paths; nothing of how a
 * value is searched for or derived.  A program that probes includes
 * tablebase/tablebase.h, not this.
 */
#ifndef PNSOLVE_TBFILE_H
#define PNSOLVE_TBFILE_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"
#include "../util/util.h"

/* A table's identity for proofs: BLAKE2b-256 of its values in index order,
 * each as two little-endian bytes (0 draw, 2d+1 win in d, 2d loss in d), so
 * that it does not change when the file is encoded again (the same
 * definition as tablebase.h's, which does not include this header). */
#define TB_HASH_BYTES 32
#define TB_HASH_HEX (2 * TB_HASH_BYTES + 1)

/* --- state indices --------------------------------------------------------
 * A game whose positions have several states each (Ostle: rule 8 forbids
 * one move) numbers each material's states through an index of its
 * positions' counts (game_tb_index), which these modules make, keep and
 * pass to every game_tb_ops operation that numbers states.  For other
 * games the view is empty and making it costs nothing. */

typedef struct tb_index tb_index;

/* g's indices, kept in files beside the tables of dir when large (NULL:
 * made in memory only); NULL when out of memory. */
tb_index *tb_index_open(const game *g, const char *dir);
/* Frees x and every index it made (NULL: nothing). */
void tb_index_close(tb_index *x);
/* Makes material mat's index if x has none, and returns the view to pass to
 * g's table operations (NULL when out of memory).  May take minutes: it maps
 * the index file when it checks, else counts every position of mat on every
 * core (the nine-piece 5x5 Ostle table: about 4 minutes on two cores) and
 * writes the file.  Thread-safe. */
const game_tb_index *tb_index_need(tb_index *x, int mat);
/* tb_index_need of each of mats[0..n): the view, or NULL. */
const game_tb_index *tb_index_needs(tb_index *x, const int *mats, int n);

/* File path of material mat's table in dir. */
void tb_path(const game *g, const char *dir, int mat, char *buf, size_t len);
/* The material whose table file tb_path names name (a file name, no
 * directory), or -1 when name is no table file of g's. */
int tb_path_material(const game *g, const char *name);

/* In memory an entry is 16 bits: 0 draw, d<<1|1 win in d, d<<1 loss in d. */
typedef uint16_t tb_entry;
#define TB_WIN_IN(d) ((tb_entry)((d) << 1 | 1))
#define TB_LOSS_IN(d) ((tb_entry)((d) << 1))
#define TB_MAX_DISTANCE 32767

/* Entry e's side: 1 a win for the side to move, 0 a draw, -1 a loss; and
 * its distance in plies (0 for a draw). */
static inline int tb_entry_wdl(tb_entry e) { return e == 0 ? 0 : (e & 1) ? 1 : -1; }
static inline int tb_entry_distance(tb_entry e) { return e >> 1; }

/* Not a value: a compressed block that does not decode (blocks.c). */
#define TB_ENTRY_BAD ((tb_entry)0xFFFF)

/* On disk entries take one byte when every distance is at most 127
 * (0 draw, d win in d, 128+d loss in d), else the 16-bit form.  Version 1
 * stores them as they are, version 2 in compressed blocks (blocks.c). */
#define TB_MAGIC "PNSOLVTB"
#define TB_VERSION_RAW 1
#define TB_VERSION_BLOCKS 2
#define TB_BLOCK_LOG2 14        /* entries per compressed block: 2^14 */
#define TB_COMPRESS_MIN ((uint64_t)1 << 30)  /* tables from this size are compressed by default */

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
    uint32_t block_log2;      /* version 2: entries per block, log2 */
    uint32_t compression;     /* version 2: 1 zstd */
    char reserved[80];
} tb_header;                  /* 256 bytes, little-endian */
_Static_assert(sizeof(tb_header) == 256, "tb_header is 256 bytes on disk");
/* The checksum of h with its header_checksum field zero. */
uint64_t tb_header_checksum(tb_header h);

typedef struct {
    tb_header h;
    const unsigned char *data;   /* the entries; NULL while compressed */
    uint32_t data_bytes;         /* data's bytes per entry: as stored, or 1 decoded narrow */
    const uint64_t *blocks;      /* compressed: {offset, checksum} per block (blocks.c) */
    const unsigned char *zdata;  /* compressed: the blocks */
    uint64_t id;                 /* compressed: tells cached blocks of two files apart */
    unsigned char *owned;        /* the entries decoded whole, or NULL */
    size_t owned_len;
    void *shared;                /* the decoded file mapped (decoded.c), or NULL */
    size_t shared_len;
    const uint64_t *chunk_sum;   /* shared: the XXH3 of each page (2^TB_DEC_CHUNK_LOG2 entries) of data */
    unsigned char *chunk_state;  /* shared: per chunk 0 unchecked, TB_CHUNK_SOUND, or TB_CHUNK_DAMAGED */
    unsigned char hash[TB_HASH_BYTES]; /* tb_file_hash's answer where hash_known (shared: the file keeps it) */
    int hash_known;
    void *wide;                  /* JudyL: index -> entry, where a narrow byte is TB_NARROW_WIDE */
    void *map;
    size_t map_len;
    int damaged;                 /* after a failed open: a table of this name whose bytes fail their checks */
    unsigned cache_log2;         /* a probing thread's cache of decoded blocks: 2^this of them
                                  * (its set's, tb_set_cache_size; TB_CACHE_LOG2_DEFAULT) */
} tb_file;
#define TB_CACHE_LOG2_DEFAULT 7  /* decoded blocks kept per thread: 128, 4 MB */
/* The log2 of the blocks of a cache of about bytes (at least one block). */
unsigned tb_cache_log2_of(size_t bytes);
/* The probes of compressed blocks and the blocks decoded for them by this
 * thread and the threads of this process that have ended (a thread's cache
 * is counted when it ends): the cache's hit rate is 1 - decodes / probes. */
void tb_cache_counts(uint64_t *probes, uint64_t *decodes);

/* The materials mats[0..n) and every one their captures lead to, directly
 * or not, each once, breadth first (a material before those it needs), into
 * out[0..cap); returns the count. */
int tb_materials_with_deps(const game *g, const int *mats, int n, int *out, int cap);
/* Names the smaller tables in dir whose values the captures of mat read:
 * a checksum of their files' header checksums (0 for a missing one). */
uint64_t tb_deps_id(const game *g, const char *dir, int mat);

/* "dir/<game name>": the start of the names of g's files in dir. */
void tb_file_prefix(const game *g, const char *dir, char *buf, size_t len);

/* Materials from this many positions on keep their state index in a file
 * beside the tables: below it the index is made in moments. */
#define TB_INDEX_FILE_MIN ((uint64_t)1 << 24)
#define TB_MAX_MATERIALS 65536  /* material ids of every game fit below this */
/* tb_index_open with the index of each material of at least min_positions
 * positions kept in "<prefix>-<material>.pnidx" ("": no files). */
tb_index *tb_index_open_at(const game *g, const char *prefix, uint64_t min_positions);

/* Takes the lock that lets one process at a time write tables in dir (it
 * goes with the process, however it ends): a descriptor to close, or -1
 * with err. */
int tb_dir_lock(const char *dir, char *err, size_t errlen);

/* With dir's lock held: removes the temporary files a killed holder left
 * (a table or save being written, a compressed copy), each said on log. */
void tb_dir_remove_leftovers(const char *dir, FILE *log);

/* Checksum of a byte range (64-bit, position-sensitive); streamed by
 * tb_checksum_update from TB_CHECKSUM_SEED when every piece but the last
 * has a length divisible by 8. */
#define TB_CHECKSUM_SEED 0xCBF29CE484222325ULL
uint64_t tb_checksum(const void *data, size_t len);
uint64_t tb_checksum_update(uint64_t h, const unsigned char *p, size_t len);

/* Writes (reads) len bytes at p to (from) f in 64 MB chunks, each added to
 * the streamed checksum *sum, the file's pages dropped from the page cache
 * as they go (a save of gigabytes must not push a build's mapped indices
 * out): 0, or -1 on an error or a short read (tbfile/stream.c). */
int tb_stream_put(FILE *f, const void *p, size_t len, uint64_t *sum);
int tb_stream_get(FILE *f, void *p, size_t len, uint64_t *sum);

/* Writes the n entries entry_at(ctx, 0 .. n-1) as the table of mat, in
 * compressed blocks when compress: to a temporary file, then renamed.
 * threads > 1 reads the entries on that many threads at once, in no order
 * (entry_at safe to call so); 1 reads them in index order, twice. */
int tb_file_write(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                  const void *ctx, uint64_t n, int compress, int threads, char *err, size_t errlen);
/* The header's counts of a table's entries. */
typedef struct {
    uint64_t wins, losses, draws;
    uint32_t max_distance;
} tb_counts;
/* The counts of entries [first, end) of entry_at, added to c (thread-safe). */
void tb_counts_add(tb_counts *c, tb_entry (*entry_at)(const void *ctx, uint64_t i), const void *ctx, uint64_t first,
                   uint64_t end);
/* As tb_file_write with the header's counts given (by ranks that each
 * counted their own entries): the entries are read once, in index order. */
int tb_file_write_counted(const game *g, const char *path, int mat, tb_entry (*entry_at)(const void *ctx, uint64_t i),
                          const void *ctx, uint64_t n, int compress, const tb_counts *counts, char *err, size_t errlen);
/* Maps and checks a table file (magic, version, game, material, size by
 * mat's state index in x, made if it has none, checksums).  Without check_data the blocks of a compressed file are
 * checked only as each is decoded (a probe reads a few of a 2.7 GB file);
 * a raw file has one checksum and is checked whole either way.  0, 0 with
 * f->map NULL if the file does not exist, or -1 with err naming the file. */
int tb_file_open(const game *g, tb_index *x, const char *path, int mat, int check_data, tb_file *f,
                 char *err, size_t errlen);
void tb_file_close(tb_file *f);

/* --- compressed blocks (blocks.c) --- */
uint64_t tb_blocks_of(uint64_t entries);
/* Makes blocks 0 .. blocks-1 on up to threads threads (1: each in order on
 * the caller's, as a reader of entries that must come in order needs):
 * encode(ctx, b, buf, &len) puts block b's bytes in buf (room for two
 * bytes an entry), zstd compresses them when compress (hash: XXH3 of the
 * compressed bytes, else 0), and emit gets each block in order.  0, or -1
 * when out of memory, a block does not compress or emit fails. */
int tb_blocks_make(uint64_t blocks, void (*encode)(void *ctx, uint64_t b, unsigned char *buf, size_t *len),
                   void *ctx, int compress, int threads,
                   int (*emit)(void *ctx, uint64_t b, const unsigned char *bytes, size_t len, uint64_t hash),
                   void *emit_ctx);
/* Writes h's blocks compressed after the header (f positioned there), each
 * block's bytes from encode, made on up to threads threads
 * (tb_blocks_make); *sum gets the data checksum.  0, or -1. */
int tb_blocks_write(FILE *f, const tb_header *h, void (*encode)(void *ctx, uint64_t b, unsigned char *buf, size_t *len),
                    void *ctx, int threads, uint64_t *sum);
/* Checks a mapped version-2 file's block offsets (every block's checksum
 * when check_data): NULL, or what is wrong. */
const char *tb_blocks_open(tb_file *f, int check_data);
/* Entry i of a compressed file through this thread's block cache;
 * TB_ENTRY_BAD if its block does not decode. */
tb_entry tb_file_entry_block(const tb_file *f, uint64_t i);
/* Calls fn(ctx, first, bytes, n) with each block of compressed f decoded,
 * in order: its n entries from first as the file stores them: 0, or -1
 * where a block does not decode or fn does not return 0. */
int tb_blocks_each(const tb_file *f, int (*fn)(void *ctx, uint64_t first, const unsigned char *bytes, uint64_t n),
                   void *ctx);
/* Decodes a compressed file whole into memory (for random access by the
 * builder and the verifier), one byte per entry whatever the file's width:
 * 0, or -1 (out of memory, a bad block). */
int tb_file_decode_all(tb_file *f);
/* tb_file_decode_all's work into all[0 .. entries) (a byte each), the wide
 * entries into a new JudyL *wide (NULL if none): 0, or -1. */
int tb_file_decode_into(const tb_file *f, unsigned char *all, void **wide);
/* Makes f read its entries from data (a byte each, decoded narrow) and wide
 * (tb_file_decode_into's), its compressed pages dropped from memory. */
void tb_file_use_decoded(tb_file *f, const unsigned char *data, void *wide);
/* As tb_file_decode_all, but through "<path>.dec" beside the table file at
 * path: mapped from the page cache and shared by every process that maps
 * it, made (to a temporary file, then renamed) where it is missing, stale
 * or damaged; a file is used only when its header names this table and
 * its checksum holds.  0, or -1 where the file cannot be made or mapped
 * (the caller decodes privately instead). */
int tb_file_decode_shared(tb_file *f, const char *path);
/* Decoded narrow, a 16-bit table keeps its distances of at least 127 (few)
 * aside, behind this byte: the nine-piece Ostle table decodes to 4.8 GB
 * instead of 9.5, which lets the ten-piece build fit in 24 GB. */
#define TB_NARROW_WIDE 255
tb_entry tb_file_entry_wide(const tb_file *f, uint64_t i);
/* Frees what tb_file_decode_all made (nothing if it made nothing). */
void tb_file_drop_decoded(tb_file *f);

/* Entry i of entries stored as the file stores them (entry_bytes each). */
static inline tb_entry tb_entry_in(const unsigned char *d, uint32_t entry_bytes, uint64_t i)
{
    if (entry_bytes == 2)
        return (tb_entry)(d[2 * i] | d[2 * i + 1] << 8);
    unsigned b = d[i];
    return b == 0 ? 0 : b < 128 ? TB_WIN_IN(b) : TB_LOSS_IN(b - 128);
}

/* Entry e in the one-byte form (its distance at most 127). */
static inline unsigned char tb_entry_byte(tb_entry e)
{
    return (unsigned char)(e == 0 ? 0 : (e & 1) ? e >> 1 : 128 + (e >> 1));
}

/* A shared decoded file is checked a chunk (a page of entries) at a time,
 * when first read: mapping it checked all 4.8 GB of the nine-piece Ostle
 * table, which every search of a split proof paid from disk (30-50 s) once
 * two searches' tables had pushed it out of the page cache. */
#define TB_DEC_CHUNK_LOG2 12
#define TB_CHUNK_SOUND 1
#define TB_CHUNK_DAMAGED 2
/* Entries of page c of a decoded file of n entries (the last may be short). */
static inline size_t tb_dec_chunk_len(uint64_t n, uint64_t c)
{
    uint64_t first = c << TB_DEC_CHUNK_LOG2;
    return (size_t)(n - first < (1ULL << TB_DEC_CHUNK_LOG2) ? n - first : 1ULL << TB_DEC_CHUNK_LOG2);
}
/* Entry i of f where its chunk is not known sound: checks the chunk, and
 * reads a damaged one's entries from the compressed blocks (blocks.c). */
tb_entry tb_file_entry_unchecked(const tb_file *f, uint64_t i);

static inline tb_entry tb_file_entry(const tb_file *f, uint64_t i)
{
    if (!f->data)
        return tb_file_entry_block(f, i);
    if (f->chunk_state &&
        __atomic_load_n(&f->chunk_state[i >> TB_DEC_CHUNK_LOG2], __ATOMIC_ACQUIRE) != TB_CHUNK_SOUND)
        return tb_file_entry_unchecked(f, i);
    if (f->wide && f->data[i] == TB_NARROW_WIDE)
        return tb_file_entry_wide(f, i);
    return tb_entry_in(f->data, f->data_bytes, i);
}

/* BLAKE2b-256 of f's values (TB_HASH_BYTES), or f->hash where
 * known: 0, or -1 if a compressed block does not decode. */
int tb_file_hash(const tb_file *f, unsigned char out[TB_HASH_BYTES]);
/* The hash in lower-case hex. */
void tb_hash_text(const unsigned char h[TB_HASH_BYTES], char hex[TB_HASH_HEX]);

/* Whether move m of s passes in a game whose other moves add a piece: its
 * child, written to *child, has as many empty squares. */
static inline int tb_move_passes(const game *g, const game_state *s, game_move m, game_state *child)
{
    *child = *s;
    game_play(g, child, m);
    return game_empties(g, child) == game_empties(g, s);
}

/* --- layers of reachable states and their scores --------------------------
 * For games with layer ranks (game_has_layers: Othello to 40 squares): the
 * states reachable from the start a layer (a number of empty squares) at a
 * time, as compact sets of ranks (tblayers/ finds and scores them). */

typedef struct {
    int empties;              /* of the states of this layer */
    uint64_t ranks;           /* the states up to the start's symmetries */
    uint64_t states, moving, passing, finished;  /* reachable; with a move that adds a piece; passing; over */
} tb_sweep_layer;

typedef struct {
    int empties;              /* of the states of this layer */
    uint64_t states, moving, passing, finished;  /* reachable; with a move that adds a piece; passing; over */
    uint64_t wins, draws, losses;                /* for the side to move */
} tb_layer_stats;

/* A layer of reachable states as sets of ranks (sweep_file.c): segments of
 * span ranks each, an Elias-Fano set per segment. */
#define TB_SWEEP_MAGIC "PNSSWEP1"
typedef struct {
    char magic[8];
    char game[GAME_NAME_MAX];
    int32_t empties, segments;
    uint64_t span;               /* ranks per segment, the last one shorter */
    tb_sweep_layer st;
    uint64_t data_checksum, header_checksum;
} tb_sweep_header;
typedef struct {
    tb_sweep_header h;
    util_efset *seg;
    uint64_t *first;             /* the layer index of each segment's first state */
} tb_sweep_set;
/* The file of g's layer of e empties in dir with extension ext (pnsw: the
 * set, pnss: the scores). */
void tb_layer_file(const game *g, const char *dir, int empties, const char *ext, char *buf, size_t len);
/* Reads the layer of e empties of g from dir: 1, 0 when there is no such
 * file, or -1 with err (damaged, another game's, unreadable). */
int tb_sweep_load(const game *g, const char *dir, int empties, tb_sweep_set *l, char *err, size_t errlen);
/* Writes layer l into dir (a temporary name, renamed), its header's
 * checksums set: 0, or -1 with err. */
int tb_sweep_save(const game *g, const char *dir, tb_sweep_set *l, char *err, size_t errlen);
/* Sets each segment's first index once its sets are complete: 0, or -1
 * when out of memory. */
int tb_sweep_index(tb_sweep_set *l);
/* The bytes a layer's file holds. */
uint64_t tb_sweep_bytes(const tb_sweep_set *l);
void tb_sweep_free(tb_sweep_set *l);
/* The layer index of rank r, or -1 when it is not in the layer. */
static inline int64_t tb_sweep_find(const tb_sweep_set *l, uint64_t r)
{
    uint64_t k = r / l->h.span;
    if (k >= (uint64_t)l->h.segments)
        return -1;
    int64_t at = util_efset_find(&l->seg[k], r - k * l->h.span);
    return at < 0 ? -1 : (int64_t)l->first[k] + at;
}

/* A strong solution by layers in memory (scores.c): layer i holds the
 * states with first_empties - i empty squares, score[i] a signed byte each
 * at its index in set[i]. */
#define TB_LAYERS_MAX 41
typedef struct tb_layers {
    const game *g;
    int layers, first_empties;
    tb_sweep_set set[TB_LAYERS_MAX];
    int8_t *score[TB_LAYERS_MAX];
    tb_layer_stats st[TB_LAYERS_MAX];
} tb_layers;

/* The file of the start's layer's scores in dir (one file a layer). */
void tb_layers_path(const game *g, const char *dir, char *buf, size_t len);
/* Every layer's set of g from dir, down to the first with no state that
 * moves, and no scores: NULL with err when one is missing or damaged. */
tb_layers *tb_layers_open_sets(const game *g, const char *dir, char *err, size_t errlen);
/* Layer i's scores from dir: 1, 0 when there is no file, -1 with err. */
int tb_layers_load(tb_layers *t, int i, const char *dir, char *err, size_t errlen);
/* Writes layer i's scores into dir (a temporary name, renamed): 0, or -1. */
int tb_layers_save(const tb_layers *t, int i, const char *dir, char *err, size_t errlen);
/* Opens the solution of g in dir (read whole, every checksum checked):
 * NULL with err (missing, incomplete, damaged, another game's). */
tb_layers *tb_layers_open(const game *g, const char *dir, char *err, size_t errlen);
/* Frees t (NULL allowed). */
void tb_layers_close(tb_layers *t);
/* The exact score of state s for the side to move: 1 with *score, 0 when
 * s is not reachable from the start (not in the table). */
int tb_layers_probe(const tb_layers *t, const game_state *s, int *score);
/* Layers, the first with the most empty squares. */
int tb_layers_count(const tb_layers *t);
/* The states layer i keeps: one per class of the start's symmetries. */
uint64_t tb_layers_size(const tb_layers *t, int i);
/* Calls fn with each state layer i keeps, in rank order, its score and the
 * number of reachable states it stands for (its symmetric images). */
void tb_layers_each(const tb_layers *t, int i, void (*fn)(void *ctx, const game_state *s, int score, int images),
                    void *ctx);
/* Statistics of layer i, every reachable state counted. */
void tb_layers_stats(const tb_layers *t, int i, tb_layer_stats *st);

#endif
