/* campaign/flight.c - the questions under way: asked of a worker (tag) and
 * not answered yet, or asked by a run that a kill ended (tag -1). */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>

int campaign_flight_add(campaign *c, int node, int k, int tag)
{
    if (c->nflight == c->capflight) {
        int cap = c->capflight ? c->capflight * 2 : 16;
        cask *a = realloc(c->flight, sizeof *a * (size_t)cap);
        if (!a)
            return -1;
        c->flight = a, c->capflight = cap;
    }
    c->flight[c->nflight++] = (cask){ node, k, tag };
    return 0;
}

int campaign_flight_has(const campaign *c, int node, int k)
{
    for (int i = 0; i < c->nflight; i++)
        if (c->flight[i].node == node && c->flight[i].k == k)
            return 1;
    return 0;
}

int campaign_flight_drop(campaign *c, int node, int k)
{
    int tag = -1;
    for (int i = 0; i < c->nflight; i++)
        if (c->flight[i].node == node && (k == INT_MIN || c->flight[i].k == k)) {
            tag = c->flight[i].tag;
            c->flight[i--] = c->flight[--c->nflight];
        }
    return tag;
}
