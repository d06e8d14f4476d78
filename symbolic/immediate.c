/* symbolic/immediate.c - the states immediately won by White as a BDD:
 * valid boards (an empty square's colour held at 0), over (no legal move
 * for either side) and with more white discs than black, counted over a
 * state's variables (relation.c builds each part). */
#include "internal.h"

int sym_immediate_wins(int w, int h, int node_limit, sym_count *c, char *err, size_t errlen)
{
    if (sym_bdd_start(w, h, node_limit, err, errlen) != 0)
        return -1;
    BDD won = sym_join(sym_valid_states(), sym_won(1), bddop_and);
    int rc = sym_bdd_failed(err, errlen);
    if (rc == 0) {
        BDD vars = sym_current_vars();
        c->states = bdd_satcountset(won, vars);
        c->nodes = bdd_nodecount(won);
        c->table_nodes = bdd_getnodenum();
        bdd_delref(vars);
    }
    bdd_delref(won);
    bdd_done();
    return rc;
}
