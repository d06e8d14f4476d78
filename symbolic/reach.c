/* symbolic/reach.c - van Dijk's algorithm 1: the states reachable from the
 * start, by images under the partitioned relation (relation.c) until an
 * image adds nothing. */
#include "internal.h"

int sym_reachable(int w, int h, const int *board, int white_to_move, int node_limit, sym_reach *out, char *err,
                  size_t errlen)
{
    sym_rel r;
    if (sym_rel_open(&r, w, h, node_limit, err, errlen) != 0)
        return -1;
    BDD start = sym_rel_start(&r, board, white_to_move);
    BDD reached = bdd_addref(start), frontier = start;
    out->iterations = out->peak_nodes = 0;
    while (!sym_bdd_failed(NULL, 0) && frontier != bddfalse) {
        BDD fresh = sym_join(sym_rel_image(&r, frontier), bdd_addref(bdd_not(reached)), bddop_and);
        reached = sym_join(reached, bdd_addref(fresh), bddop_or);
        bdd_delref(frontier);
        frontier = fresh;
        int nodes = bdd_nodecount(reached);
        if (out->iterations < SYM_MAX_ITERATIONS)
            out->nodes_at[out->iterations] = nodes;
        out->iterations++;
        if (nodes > out->peak_nodes)
            out->peak_nodes = nodes;
    }
    int rc = sym_bdd_failed(err, errlen);
    if (rc == 0) {
        out->states = bdd_satcountset(reached, r.current);
        out->nodes = bdd_nodecount(reached);
    }
    sym_rel_close(&r);
    return rc;
}
