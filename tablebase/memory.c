/* tablebase/memory.c - the builder's large per-position arrays. */
#include "tb_internal.h"

#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* Builder arrays are touched at random: with 4 KB pages nearly every access
 * also misses the TLB, so ask for transparent huge pages (the kernel here
 * gives them only on request).  Zeroed, like calloc. */
void *tb_alloc_big(size_t bytes)
{
    size_t len = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    if (len < bytes)
        return NULL;
    void *p = mmap(NULL, len ? len : HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len ? len : HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return p;
}

void tb_free_big(void *p, size_t bytes)
{
    if (!p)
        return;
    size_t len = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    munmap(p, len ? len : HUGE_PAGE);
}
