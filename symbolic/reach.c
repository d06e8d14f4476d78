/* symbolic/reach.c - van Dijk's algorithm 1: the states reachable from the
 * start, by images under the partitioned relation (relation.c) until an
 * image adds nothing. */
#include "internal.h"

void sym_note(sym_series *s, BDD set)
{
    int nodes = bdd_nodecount(set);
    if (s->iterations < SYM_MAX_ITERATIONS)
        s->nodes_at[s->iterations] = nodes;
    s->iterations++;
    if (nodes > s->peak_nodes)
        s->peak_nodes = nodes;
    sym_tick_now(nodes);
}

BDD sym_reachable_set(const sym_rel *r, BDD start, sym_series *s)
{
    BDD reached = bdd_addref(start), frontier = bdd_addref(start);
    while (!sym_bdd_failed(NULL, 0) && frontier != bddfalse) {
        BDD fresh = sym_join(sym_rel_image(r, frontier, SYM_ALL), bdd_addref(bdd_not(reached)), bddop_and);
        reached = sym_join(reached, bdd_addref(fresh), bddop_or);
        bdd_delref(frontier);
        frontier = fresh;
        sym_note(s, reached);
    }
    bdd_delref(frontier);
    return reached;
}
