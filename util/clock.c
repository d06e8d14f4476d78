/* util/clock.c - seconds on a monotonic clock. */
#include "util.h"

#include <time.h>

double util_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}
