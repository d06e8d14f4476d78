/* tbfile/checksum.c - the 64-bit checksum of table files. */
#include "tbfile.h"

#include <string.h>

/* 64-bit multiply-rotate hash over 8-byte words; streaming works when every
 * piece but the last has a length divisible by 8. */
uint64_t tb_checksum_update(uint64_t h, const unsigned char *p, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    for (; i < len; i++)
        h = (h ^ p[i]) * 0x100000001B3ULL;
    return h;
}

uint64_t tb_checksum(const void *data, size_t len)
{
    return tb_checksum_update(TB_CHECKSUM_SEED, data, len);
}
