/* util/memory.c - big zeroed arrays on huge pages. */
#include "util.h"

#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

static size_t big_len(size_t bytes)
{
    size_t unit = bytes < HUGE_PAGE ? 4096 : HUGE_PAGE;
    size_t len = (bytes + unit - 1) & ~(unit - 1);
    return len < bytes ? 0 : len ? len : unit;
}

/* Fresh anonymous pages are zero and cost nothing until touched (calloc
 * would clear a reused block whole).  A block of a huge page or more
 * starts on a 2 MB boundary (a huge page can only back an aligned range):
 * one huge page more is mapped and what lies outside the block unmapped.
 * Smaller ones keep 4 KB pages: a huge page is zeroed whole at its first
 * touch. */
void *util_alloc_big(size_t bytes)
{
    size_t len = big_len(bytes);
    if (len == 0 || len + HUGE_PAGE < len)
        return NULL;
    if (len < HUGE_PAGE) {
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    char *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (p + len < m + len + HUGE_PAGE)
        munmap(p + len, (size_t)(m + len + HUGE_PAGE - (p + len)));
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

/* Every page of 4 KB: a process that touches one block of 64 KB in every
 * few (a rank of a shared table build) holds only those (a huge page would
 * back 2 MB around each). */
void *util_alloc_sparse(size_t bytes)
{
    size_t len = big_len(bytes);
    if (len == 0)
        return NULL;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    madvise(p, len, MADV_NOHUGEPAGE);
#endif
    return p;
}

void util_free_big(void *p, size_t bytes)
{
    if (p)
        munmap(p, big_len(bytes));
}
