/* pns/proof.h - private to pns/: the proof writers (proof_write.c, the
 * tree; proof_closed.c, a closed set read off df-pn's table).  The format is
 * in docs/proof-format.md. */
#ifndef PNSOLVE_PNS_PROOF_H
#define PNSOLVE_PNS_PROOF_H

#include "dfpn.h"

/* pns_write_proof's contract, on the caller's stack. */
int pns_proof_write(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r);

/* Searches D's question from s (its tables first) and writes the solution
 * tree to out (pns_write_proof's contract), reusing whatever D knows. */
int pns_proof_write_dfpn(dfpn *D, const game_state *s, FILE *out, pns_result *r);

/* Writes the proof of claim c, which a draw supports (a win disproven, an
 * advantage proven, "at least K" proven for K <= 0 or disproven for K > 0),
 * header first, as a closed set read off D's table (proof_closed.c); 0, 1
 * when the table's positions do not hold the root (nothing written), -1
 * when out of memory, stopped, a table is bad or out cannot be written
 * (D->S.error).  Adds to *repaired the positions the table had lost that
 * it searched again. */
struct proof_claim;
int pns_proof_write_closed(dfpn *D, const game_state *root, const struct proof_claim *c, FILE *out,
                           pns_proof_report *rep);

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
} pns_closed_graph;

#endif
