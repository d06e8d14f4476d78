/* tests/fuzz/fuzz_proof.c - libFuzzer target (`make fuzz`): mutants of valid
 * proofs against the truth.  The input picks a random cyclic graph, the
 * question, the prover and the changes; a mutant the checker accepts must
 * claim something true of the graph, by every path (tests/graphs.c), or the
 * target aborts. */
#include "../../pns/pns.h"
#include "../../pwrite/pwrite.h"
#include "../graphs.h"
#include "../mutate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 14)
        return 0;
    unsigned seed;
    unsigned long long rng;
    memcpy(&seed, data, sizeof seed);
    memcpy(&rng, data + 4, sizeof rng);
    char gtext[2048];
    random_graph(&seed, gtext, sizeof gtext);
    game *g = graph_keep(gtext);
    if (!g)
        return 0;
    game_state s;
    game_start(g, &s);
    int truth = graph_truth(g);
    pns_options o;
    pns_defaults(&o);
    o.memory = 1 << 20;
    o.prover = data[12] & 1;
    int q = (data[12] >> 1) % 6;
    o.question = q == 0 ? PNS_WIN : q == 1 ? PNS_ADVANTAGE : PNS_SCORE;
    o.score_target = q - 3;  /* -1, 0, 1, 2 */
    char *proof = NULL, *mutant = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&proof, &len);
    pns_result r;
    int rc = pwrite_proof(g, &s, &o, f, &r);
    fclose(f);
    if (rc == 0) {
        proof_lines L = { 0 };
        mutant = proof_mutant(proof, &L, &rng);
        for (int k = data[13] % 3; k > 0; k--) {
            char *again = proof_mutant(mutant, &L, &rng);
            free(mutant);
            mutant = again;
        }
        free(L.line);
        char err[512];
        FILE *in = fmemopen(mutant, strlen(mutant), "r");
        if (in && proof_verify(in, NULL, NULL, 0, err, sizeof err) == 0 && !proof_claims_hold(mutant, truth)) {
            fprintf(stderr, "accepted a false claim (truth %d for player 0):\n%s\n", truth, mutant);
            abort();
        }
        if (in)
            fclose(in);
    }
    free(mutant);
    free(proof);
    unlink_graph(g);
    game_close(g);
    return 0;
}
