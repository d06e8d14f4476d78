/* tbfile/stream.c - large checksummed files written and read in chunks
 * without filling the page cache: the builder's saves (retro_save.c) and
 * the reachability checkpoints (reach.c). */
#include "tbfile.h"

#include <fcntl.h>
#include <unistd.h>

#define CHUNK ((size_t)64 << 20)  /* a multiple of 8: the checksum streams across chunks */

static void drop_cache(FILE *f, int written)
{
#ifdef POSIX_FADV_DONTNEED
    int fd = fileno(f);
    if (written) {
        fflush(f);
        fdatasync(fd);  /* only clean pages can be dropped */
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#else
    (void)f;
    (void)written;
#endif
}

int tb_stream_put(FILE *f, const void *p, size_t len, uint64_t *sum)
{
    const unsigned char *c = p;
    for (size_t at = 0; at < len; at += CHUNK) {
        size_t k = len - at < CHUNK ? len - at : CHUNK;
        if (fwrite(c + at, 1, k, f) != k)
            return -1;
        *sum = tb_checksum_update(*sum, c + at, k);
        drop_cache(f, 1);
    }
    return 0;
}

int tb_stream_get(FILE *f, void *p, size_t len, uint64_t *sum)
{
    unsigned char *c = p;
    for (size_t at = 0; at < len; at += CHUNK) {
        size_t k = len - at < CHUNK ? len - at : CHUNK;
        if (fread(c + at, 1, k, f) != k)
            return -1;
        *sum = tb_checksum_update(*sum, c + at, k);
        drop_cache(f, 0);
    }
    return 0;
}
