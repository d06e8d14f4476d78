/* pns/proof_format.c - the header every proof writer writes. */
#include "proof_format.h"

#include <string.h>

int pns_proof_header_write(FILE *out, const proof_claim *c, tb_set *tb, const proof_tables *t, const char *extra_tables,
                       char *err, size_t errlen)
{
    const game *g = c->g;
    if (fprintf(out, "pnsolve-proof %d\ngame %s\nposition %s\nprover %d\nquestion %s\nresult %s\n", PNS_PROOF_VERSION,
                g->name, c->position, c->prover, c->question, c->proven ? "proven" : "disproven") < 0)
        return game_error(err, errlen, "cannot write the proof");
    for (int mat = 0; t && mat < 65536; mat++) {
        if (!(t->bits[mat >> 6] >> (mat & 63) & 1))
            continue;
        char name[32], hex[TB_HASH_HEX];
        game_tables(g)->material_name(g, mat, name, sizeof name);
        int rc = tb ? tb_hash(tb, mat, hex, err, errlen) : 0;
        if (rc == 0)
            game_error(err, errlen, "table %s is gone", name);
        if (rc <= 0)
            return -1;
        fprintf(out, "table %s %s\n", name, hex);
    }
    if (extra_tables)
        fputs(extra_tables, out);
    if (fputs("# depth move kind: node | end | exact | tb VALUE DISTANCE | rep ID | ref ID | sym ID"
              " (IDs count nodes from 0)\n", out) < 0)
        return game_error(err, errlen, "cannot write the proof");
    return 0;
}
