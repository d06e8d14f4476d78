/* pwrite/pwrite_int.h - private to pwrite/: the two writers (tree.c, the
 * tree; closed.c, a closed set read off df-pn's table).  The format is in
 * docs/proof-format.md. */
#ifndef PNSOLVE_PWRITE_INT_H
#define PNSOLVE_PWRITE_INT_H

#include "pwrite.h"
#include "../proof/proof.h"

/* The o->solved hook of pwrite_proof and pwrite_score: writes the solution
 * tree of D's answered question (*answer the root's numbers) to the FILE
 * ctx, reusing whatever D knows; fills r (pwrite_proof's contract). */
int pwrite_tree(pns_dfpn *D, const game_state *s, const pns_child *answer, pns_result *r, void *ctx);

/* Writes the proof of claim c, which a draw supports (a win disproven, an
 * advantage proven, "at least K" proven for K <= 0 or disproven for K > 0),
 * header first, as a closed set read off D's table (closed.c); 0, 1 when
 * the table's positions do not hold the root (nothing written), -1 when
 * out of memory, stopped, a table is bad or out cannot be written
 * (pns_dfpn_error).  Adds to rep what it read and repaired. */
int pwrite_closed(pns_dfpn *D, const game_state *root, const proof_claim *c, FILE *out, pns_proof_report *rep);

/* Edge targets of a closed set's graph other than positions (which are
 * below all of them): a position the search reached but left open, not read
 * yet; a move of the other side to a position the table does not hold; a
 * leaf that supports the claim; anything else. */
enum {
    PROOF_EDGE_OPEN = UINT32_MAX - 3,
    PROOF_EDGE_MISSING = UINT32_MAX - 2,
    PROOF_EDGE_GOOD = UINT32_MAX - 1,
    PROOF_EDGE_BAD = UINT32_MAX
};

/* A graph the closed-set writer closed, and the set it kept. */
typedef struct {
    uint32_t n;              /* positions; 0 is the root */
    const uint64_t *first;   /* the edges of v: edge[first[v] .. first[v + 1]) */
    const uint32_t *edge;    /* a position, or a PROOF_EDGE_ target */
    const uint8_t *all;      /* v needs every move to keep to the set (else one) */
    const uint8_t *in;       /* kept */
    int optimistic;          /* 1: PROOF_EDGE_MISSING counts as kept; 2: PROOF_EDGE_OPEN too */
} pwrite_closed_graph;

#endif
