/* pns/dfpn.h - private to pns/: the df-pn searcher, shared by the search
 * entry point and the proof writer (which re-searches inside a proof). */
#ifndef PNSOLVE_PNS_DFPN_H
#define PNSOLVE_PNS_DFPN_H

#include "pns_internal.h"
#include "tt.h"

typedef struct {
    game_key key;
    uint32_t pn, dn;
    uint32_t dep;     /* repetition tag of a solved, path-dependent value */
    game_move move;
} child_t;

typedef struct {
    pns_search S;
    tt_table tt;
    child_t **frames; /* children of the node at each depth */
    int frames_cap;
} dfpn;

int dfpn_init(dfpn *D, const game *g, const game_state *root, const pns_options *o);
void dfpn_free(dfpn *D);
/* Evaluates child state cs into c (leaf, repetition, table or fresh). */
void dfpn_child(dfpn *D, const game_state *cs, child_t *c);
/* Searches s (whose key is self->key, at the current path depth) until it
 * is solved or the search stops; 1 when solved. */
int dfpn_run(dfpn *D, const game_state *s, child_t *self);
/* One MID call: searches st until pn >= thpn, dn >= thdn or solved. */
void dfpn_mid(dfpn *D, const game_state *st, int depth, uint32_t thpn, uint32_t thdn, child_t *self);

#endif
