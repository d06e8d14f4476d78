/* util/efset.c - sorted sets of 64-bit values in Elias-Fano form. */
#include "util.h"

#include <stdlib.h>
#include <string.h>

int util_efset_init(util_efset *e, uint64_t n, uint64_t universe)
{
    memset(e, 0, sizeof *e);
    e->n = n, e->universe = universe;
    /* low bits floor(log2(universe / n)): the unary part then has at most 2n
     * bits (an empty set: none at all) */
    uint64_t per = universe / (n ? n : 1);
    while (e->low_bits < 63 && per >> (e->low_bits + 1))
        e->low_bits++;
    uint64_t low_words = util_efset_low_words(e);
    e->high_words = (n + (universe >> e->low_bits)) / 64 + 2;
    e->low = calloc(low_words ? low_words : 1, 8);
    e->high = calloc(e->high_words, 8);
    if (!e->low || !e->high) {
        util_efset_free(e);
        return -1;
    }
    return 0;
}

uint64_t util_efset_low_words(const util_efset *e)
{
    return (e->n * e->low_bits + 63) / 64 + 1;
}

int util_efset_check(const util_efset *e)
{
    uint64_t lw = util_efset_low_words(e), used = e->n * e->low_bits;
    for (uint64_t w = used / 64; w < lw; w++)  /* the low part's padding is zero */
        if ((w == used / 64 ? e->low[w] >> (used % 64) : e->low[w]) != 0)
            return -1;
    /* read in order without the samples seal makes: they trust the count */
    uint64_t i = 0, prev = 0;
    for (uint64_t w = 0; w < e->high_words; w++)
        for (uint64_t b = e->high[w]; b; b &= b - 1, i++) {
            if (i >= e->n)
                return -1;
            uint64_t h = w * 64 + (uint64_t)__builtin_ctzll(b) - i;  /* the i-th one lies at i or later */
            uint64_t v = h << e->low_bits | util_efset_low(e, i);
            if (h > e->universe >> e->low_bits || v >= e->universe || (i > 0 && v <= prev))
                return -1;
            prev = v;
        }
    return i == e->n ? 0 : -1;
}

int util_efset_seal(util_efset *e)
{
    uint64_t zeros = e->high_words * 64 - e->n;
    e->samples = zeros / UTIL_EFSET_SAMPLE + 1;
    free(e->zero_at);
    free(e->ones_before);
    e->zero_at = malloc(e->samples * 8);
    e->ones_before = malloc((e->high_words / 1024 + 1) * 8);
    if (!e->zero_at || !e->ones_before)
        return -1;
    uint64_t ones = 0;
    for (uint64_t w = 0; w < e->high_words; w++) {
        if (w % 1024 == 0)
            e->ones_before[w / 1024] = ones;
        ones += (uint64_t)__builtin_popcountll(e->high[w]);
    }
    uint64_t seen = 0, next = 0;
    for (uint64_t w = 0; w < e->high_words; w++) {
        uint64_t z = ~e->high[w];
        unsigned c = (unsigned)__builtin_popcountll(z);
        while (next < e->samples && seen + c > next * UTIL_EFSET_SAMPLE) {
            uint64_t k = next * UTIL_EFSET_SAMPLE - seen, zz = z;
            for (; k; k--)
                zz &= zz - 1;
            e->zero_at[next++] = w * 64 + (uint64_t)__builtin_ctzll(zz);
        }
        seen += c;
    }
    e->samples = next;
    return 0;
}

/* The place in high of zero number k (k < the zeros of high). */
static uint64_t select_zero(const util_efset *e, uint64_t k)
{
    uint64_t at = e->zero_at[k / UTIL_EFSET_SAMPLE];
    k %= UTIL_EFSET_SAMPLE;
    uint64_t w = at / 64, z = ~e->high[w] & (~0ULL << (at % 64));
    for (;;) {
        unsigned c = (unsigned)__builtin_popcountll(z);
        if (k < c)
            break;
        k -= c;
        z = ~e->high[++w];
    }
    for (; k; k--)
        z &= z - 1;
    return w * 64 + (uint64_t)__builtin_ctzll(z);
}

int64_t util_efset_find(const util_efset *e, uint64_t v)
{
    if (v >= e->universe || e->n == 0)
        return -1;
    uint64_t h = v >> e->low_bits, lo = v & ((1ULL << e->low_bits) - 1);
    /* the values of high part h lie between zero h - 1 and zero h */
    uint64_t at = h ? select_zero(e, h - 1) + 1 : 0, i = at - h;
    for (;; at++, i++) {
        if (!(e->high[at / 64] >> (at % 64) & 1))
            return -1;
        uint64_t l = util_efset_low(e, i);
        if (l == lo)
            return (int64_t)i;
        if (l > lo)
            return -1;
    }
}

void util_efset_free(util_efset *e)
{
    free(e->low);
    free(e->high);
    free(e->zero_at);
    free(e->ones_before);
    e->low = e->high = e->zero_at = e->ones_before = NULL;
}

void util_efset_walk_start(util_efset_walk *w, const util_efset *e, uint64_t word, uint64_t end)
{
    if (word > e->high_words)
        word = e->high_words;
    uint64_t index = e->ones_before[word / 1024];
    for (uint64_t k = word / 1024 * 1024; k < word; k++)
        index += (uint64_t)__builtin_popcountll(e->high[k]);
    w->e = e;
    w->word = word;
    w->end = end < e->high_words ? end : e->high_words;
    w->bits = word < w->end ? e->high[word] : 0;
    w->index = index;
}
