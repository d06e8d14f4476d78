/* tablebase/hash.c - a table's identity for proofs (tb_hash), kept beside
 * the table where asked so that a writer need not hash it again. */
#include "set.h"
#include "../util/util.h"

#include <string.h>

/* A hash file: its magic, the table file's header as it was hashed (its
 * checksums name the stored entries), the hash. */
#define HASH_FILE_MAGIC "PNTBHASH"
#define HASH_FILE_BYTES (8 + sizeof(tb_header) + TB_HASH_BYTES)

static void hash_file_path(const tb_set *t, int mat, char *path, size_t len)
{
    char table[4200];
    tb_path(t->g, t->dir, mat, table, sizeof table);
    snprintf(path, len, "%s.b2", table);
}

/* The hash kept beside table f into h: 0, or -1 when there is none for
 * this very file. */
static int hash_file_read(const tb_set *t, int mat, const tb_file *f, unsigned char h[TB_HASH_BYTES])
{
    char path[4300];
    hash_file_path(t, mat, path, sizeof path);
    FILE *in = util_open_input(path, 0, NULL, 0);
    if (!in)
        return -1;
    unsigned char b[HASH_FILE_BYTES + 1];
    size_t n = fread(b, 1, sizeof b, in);
    fclose(in);
    if (n != HASH_FILE_BYTES || memcmp(b, HASH_FILE_MAGIC, 8) != 0 || memcmp(b + 8, f->map, sizeof(tb_header)) != 0)
        return -1;
    memcpy(h, b + 8 + sizeof(tb_header), TB_HASH_BYTES);
    return 0;
}

/* Keeps h beside table f; where it cannot (a read-only directory), the
 * next run hashes the table again. */
static void hash_file_write(const tb_set *t, int mat, const tb_file *f, const unsigned char h[TB_HASH_BYTES])
{
    char path[4300];
    hash_file_path(t, mat, path, sizeof path);
    util_file out;
    if (util_file_create(&out, path, "wb", NULL, 0) != 0)
        return;
    int ok = fwrite(HASH_FILE_MAGIC, 1, 8, out.f) == 8 && fwrite(f->map, 1, sizeof(tb_header), out.f) == sizeof(tb_header) &&
             fwrite(h, 1, TB_HASH_BYTES, out.f) == TB_HASH_BYTES;
    util_file_commit(&out, ok, NULL, 0);
}

int tb_hash(tb_set *t, int mat, char hex[TB_HASH_HEX], char *err, size_t errlen)
{
    if (t->layers)
        return 0;
    int rc = tb_load(t, mat, err, errlen);
    if (rc <= 0)
        return rc;
    slot *s = t->slots[mat];
    pthread_mutex_lock(&t->lock);
    int known = s->hash[0] != 0;
    pthread_mutex_unlock(&t->lock);
    if (!known) {
        /* outside the lock (a six-piece table takes half a minute), so that
         * tb_hash_ahead's threads hash their tables at once; a table two
         * threads ask for is hashed twice, to the same answer */
        unsigned char h[TB_HASH_BYTES];
        char text[TB_HASH_HEX];
        if (!t->hash_files || hash_file_read(t, mat, &s->f, h) != 0) {
            if (tb_file_hash(&s->f, h) != 0)
                return util_error(err, errlen, "table %s: a compressed block does not decode", s->f.h.material);
            if (t->hash_files)
                hash_file_write(t, mat, &s->f, h);
        }
        tb_hash_text(h, text);
        pthread_mutex_lock(&t->lock);
        memcpy(s->hash, text, TB_HASH_HEX);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_lock(&t->lock);
    memcpy(hex, s->hash, TB_HASH_HEX);
    pthread_mutex_unlock(&t->lock);
    return 1;
}

typedef struct {
    tb_set *t;
    const int *mats;
} hash_ahead;

static void hash_some(void *ctx, uint64_t first, uint64_t end)
{
    hash_ahead *a = ctx;
    char hex[TB_HASH_HEX], err[300];
    for (uint64_t i = first; i < end; i++)
        tb_hash(a->t, a->mats[i], hex, err, sizeof err);  /* its caller's tb_hash says what went wrong */
}

void tb_hash_ahead(tb_set *t, const int *mats, int n, int threads)
{
    hash_ahead a = { t, mats };
    if (n > 0)
        util_parallel(threads, (uint64_t)n, 1, hash_some, &a);
}
