/* tbfile/file.c - table files read back through mmap and checked (their
 * header, then their entries' checksums); their hashes; the directory's
 * lock and leftovers.  file_write.c writes them. */
#include "tbfile.h"
#include "../util/util.h"

#include <dirent.h>
#include <errno.h>
#include <sodium.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t tb_header_checksum(tb_header h)
{
    h.header_checksum = 0;
    return tb_checksum(&h, sizeof h);
}

int tb_file_open(const game *g, tb_index *x, const char *path, int mat, int check_data, tb_file *f,
                 char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->cache_log2 = TB_CACHE_LOG2_DEFAULT;
    int fd = util_open_regular(path, O_RDONLY);
    if (fd < 0)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(tb_header)) {
        close(fd);
        f->damaged = 1;
        return util_error(err, errlen, "%s: truncated table (no header)", path);
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return util_error(err, errlen, "%s: cannot map: %s", path, strerror(errno));
    memcpy(&f->h, map, sizeof f->h);
    f->map = map;
    f->map_len = (size_t)st.st_size;
    const tb_header *h = &f->h;
    if (h->version == TB_VERSION_RAW)
    {
        f->data = (const unsigned char *)map + sizeof(tb_header);
        f->data_bytes = h->entry_bytes;
    }
    const char *why = NULL;
    int damaged = 1;  /* unless why names another kind of file, or memory */
    const game_tb_index *ix = NULL;
    char want[32];
    game_tables(g)->material_name(g, mat, want, sizeof want);
    if (memcmp(h->magic, TB_MAGIC, 8) != 0)
        why = "not a pnsolve table", damaged = 0;
    else if (h->version != TB_VERSION_RAW && h->version != TB_VERSION_BLOCKS)
        why = "unsupported format version", damaged = 0;
    else if (tb_header_checksum(*h) != h->header_checksum)
        why = "corrupt header (checksum)";
    else if (strncmp(h->game, g->name, sizeof h->game) != 0)
        why = "table of another game or variant", damaged = 0;
    else if (h->material_id != (uint32_t)mat || strncmp(h->material, want, sizeof h->material) != 0)
        why = "table of another material", damaged = 0;
    else if (!(ix = tb_index_need(x, mat)))
        why = "out of memory for its state index", damaged = 0;
    else if ((h->entry_bytes != 1 && h->entry_bytes != 2) || h->entries != game_tables(g)->size(g, ix, mat))
        why = "wrong number of entries";
    else if (h->version == TB_VERSION_BLOCKS)
        why = tb_blocks_open(f, check_data);
    else if (f->map_len != sizeof(tb_header) + h->entries * h->entry_bytes)
        why = "truncated or oversized table";
    else if (tb_checksum(f->data, (size_t)(h->entries * h->entry_bytes)) != h->data_checksum)
        why = "corrupt entries (checksum)";
    if (why) {
        int known = h->version == TB_VERSION_RAW || h->version == TB_VERSION_BLOCKS;
        if (!known && memcmp(h->magic, TB_MAGIC, 8) == 0)
            util_error(err, errlen, "%s: %s %u (this program reads %d and %d)", path, why, h->version, TB_VERSION_RAW,
                       TB_VERSION_BLOCKS);
        else if (strncmp(h->game, g->name, sizeof h->game) != 0 && !memcmp(h->magic, TB_MAGIC, 8) && known)
            util_error(err, errlen, "%s: %s ('%.63s', expected '%s')", path, why, h->game, g->name);
        else
            util_error(err, errlen, "%s: %s", path, why);
        tb_file_close(f);
        f->damaged = damaged;
        return -1;
    }
    return 0;
}

void tb_file_close(tb_file *f)
{
    tb_file_drop_decoded(f);
    if (f->map)
        munmap(f->map, f->map_len);
    memset(f, 0, sizeof *f);
}

/* The values hash's input is each entry as two little-endian bytes: a
 * 16-bit file's bytes as they are, others widened a run at a time. */
enum { HASH_RUN = 1 << 12 };
typedef struct {
    crypto_generichash_blake2b_state st;
    uint32_t entry_bytes;
    unsigned char le[2 * HASH_RUN];
} hashing;

static void put_le(unsigned char *le, uint64_t j, tb_entry e)
{
    le[2 * j] = (unsigned char)(e & 0xFF);
    le[2 * j + 1] = (unsigned char)(e >> 8);
}

static int hash_run(void *ctx, uint64_t first, const unsigned char *bytes, uint64_t n)
{
    (void)first;
    hashing *h = ctx;
    if (h->entry_bytes == 2)
        return crypto_generichash_blake2b_update(&h->st, bytes, 2 * n);
    /* each byte's two bytes from a table: decoding them one by one was a
     * fifth of a six-piece table's hash */
    unsigned char wide[2 * 256];
    for (unsigned b = 0; b < 256; b++) {
        unsigned char byte = (unsigned char)b;
        put_le(wide, b, tb_entry_in(&byte, 1, 0));
    }
    for (uint64_t i = 0; i < n; i += HASH_RUN) {
        uint64_t m = n - i < HASH_RUN ? n - i : HASH_RUN;
        for (uint64_t j = 0; j < m; j++)
            memcpy(h->le + 2 * j, wide + 2 * bytes[i + j], 2);
        if (crypto_generichash_blake2b_update(&h->st, h->le, 2 * m) != 0)
            return -1;
    }
    return 0;
}

/* Every entry of f, read one by one (a raw or decoded file), into h. */
static int hash_entries(const tb_file *f, hashing *h)
{
    for (uint64_t i = 0; i < f->h.entries; i += HASH_RUN) {
        uint64_t m = f->h.entries - i < HASH_RUN ? f->h.entries - i : HASH_RUN;
        for (uint64_t j = 0; j < m; j++) {
            tb_entry e = tb_file_entry(f, i + j);
            if (e == TB_ENTRY_BAD)
                return -1;
            put_le(h->le, j, e);
        }
        if (crypto_generichash_blake2b_update(&h->st, h->le, 2 * m) != 0)
            return -1;
    }
    return 0;
}

int tb_file_hash(const tb_file *f, unsigned char out[TB_HASH_BYTES])
{
    if (f->hash_known) {
        memcpy(out, f->hash, TB_HASH_BYTES);
        return 0;
    }
    /* without it libsodium hashes with its portable code (1.3x the time) */
    if (sodium_init() < 0)
        return -1;
    hashing *h = malloc(sizeof *h);
    if (!h)
        return -1;
    h->entry_bytes = f->h.entry_bytes;
    crypto_generichash_blake2b_init(&h->st, NULL, 0, TB_HASH_BYTES);
    /* block by block where compressed: an entry at a time through the
     * block cache took 100 s of the nine-piece Ostle table's 2e9 */
    int rc = !f->data && f->blocks ? tb_blocks_each(f, hash_run, h) : hash_entries(f, h);
    if (rc == 0)
        crypto_generichash_blake2b_final(&h->st, out, TB_HASH_BYTES);
    free(h);
    return rc == 0 ? 0 : -1;
}

void tb_hash_text(const unsigned char h[TB_HASH_BYTES], char hex[TB_HASH_HEX])
{
    for (int i = 0; i < TB_HASH_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
}

int tb_dir_lock(const char *dir, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.pnsolve-build.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return util_error(err, errlen, "%s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return util_error(err, errlen, "another build is running in %s (it holds %s)", dir, path);
    }
    return fd;
}

/* Whether name ends in suffix followed by a process id (digits only). */
static int ends_with_pid(const char *name, const char *suffix)
{
    const char *at = strstr(name, suffix);
    for (; at; at = strstr(at + 1, suffix)) {
        const char *d = at + strlen(suffix);
        if (*d && strspn(d, "0123456789") == strlen(d))
            return 1;
    }
    return 0;
}

/* A file that only a writer holding dir's lock makes, and renames or
 * removes before it lets go: a temporary table or save, a compressed copy. */
static int leftover(const char *name)
{
    size_t n = strlen(name), p = strlen(".pntb.packed");
    return ends_with_pid(name, ".pntb.tmp.") || ends_with_pid(name, ".pntb.save.tmp.") ||
           ends_with_pid(name, ".pntb.packed.tmp.") || (n > p && strcmp(name + n - p, ".pntb.packed") == 0);
}

void tb_dir_remove_leftovers(const char *dir, FILE *log)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!leftover(e->d_name) || lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || unlink(path) != 0)
            continue;
        if (log) {
            fprintf(log, "removed %s (%.1f MB), left by a build or compression that was killed\n", path,
                    (double)st.st_size / 1e6);
            fflush(log);
        }
    }
    closedir(d);
}
