/* pns/proof_format.h - private to pns/: the proof file format
 * (docs/proof-format.md) as the writers (proof_write.c, proof_closed.c),
 * the joiner (proof_join.c) and the checker (proof_check.c) share it: the
 * header, printed and read.  What a line means is the
 * checker's alone, so that a writer's mistake is not repeated by it. */
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

#define PROOF_MAX_TABLES 4096  /* 'table' lines a header may hold */

/* A header as read, before the tree; unset numbers are -1. */
typedef struct {
    long version, prover, target;
    unsigned seen;  /* the lines read that may come once */
    char spec[GAME_NAME_MAX], content[65], pos[GAME_TEXT_MAX], question[32], result[32];  /* question: win, advantage or score */
    char table_name[PROOF_MAX_TABLES][32], table_hash[PROOF_MAX_TABLES][TB_HASH_HEX];
    int ntables;
} proof_header;

void pns_proof_header_clear(proof_header *h);
/* Reads one header line into h: 1 read, 0 not a header line, -1 with a
 * reason in err (a malformed or repeated header line). */
int pns_proof_header_read(proof_header *h, const char *line, char *err, size_t errlen);
/* Opens the game of header h into *g, the file that defines it (graphs)
 * with the content h names: 0, or -1 with err. */
int pns_proof_header_game(const proof_header *h, game **g, char *err, size_t errlen);

#endif
