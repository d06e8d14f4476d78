/* pns/proof_format.h - private to pns/: what the proof writers (proof_write.c,
 * proof_closed.c, proof_join.c) share of the file format
 * (docs/proof-format.md).  The checker (proof_check.c) reads the format on
 * its own, so that a writer's mistake is not repeated by the checker. */
#ifndef PNSOLVE_PNS_PROOF_FORMAT_H
#define PNSOLVE_PNS_PROOF_FORMAT_H

#include "pns.h"

/* The materials whose tables a proof's 'tb' leaves read (ids < 65536). */
typedef struct {
    uint64_t bits[1024];
} proof_tables;

/* Adds the material of s (a position a 'tb' leaf reads) to t. */
static inline void proof_tables_add(proof_tables *t, const game *g, const game_state *s)
{
    int mat = game_tables(g)->material_of(g, s);
    if (mat >= 0 && mat < 65536)
        t->bits[mat >> 6] |= (uint64_t)1 << (mat & 63);
}

/* A table value's word in a proof file's 'tb' leaf. */
static inline const char *proof_tb_word(tb_wdl w) { return w == TB_WIN ? "win" : w == TB_LOSS ? "loss" : "draw"; }

/* What a proof claims. */
typedef struct proof_claim {
    const game *g;
    const char *position;      /* the root in the game's notation */
    int prover;
    const char *question;      /* "win", "advantage" or "score K" */
    int proven;
} proof_claim;

/* Writes the header of claim c: the format version, game, position,
 * prover, question, result, then 'table MATERIAL HASH' for each material of
 * t (hashes from tb) and the lines given in extra_tables (already in that
 * form, may be NULL).  0, or -1 with err (a table is bad or out failed). */
int pns_proof_header_write(FILE *out, const proof_claim *c, tb_set *tb, const proof_tables *t, const char *extra_tables,
                       char *err, size_t errlen);

#endif
