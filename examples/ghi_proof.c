/* examples/ghi_proof.c - the library from outside: a game graph whose
 * answer depends on the path (the Graph History Interaction), proved, its
 * proof written and checked.  Build against an installed pnsolve:
 *
 *     cc ghi_proof.c $(pkg-config --cflags --libs pnsolve) -o ghi_proof
 *     ./ghi_proof positions/ghi/kishimoto-fig3-2.graph
 */
#include <pnsolve/pnsolve.h>

#include <stdio.h>
#include <string.h>

static void progress(const pnsolve_progress *p, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "  %llu nodes, root pn %u dn %u\n", (unsigned long long)p->nodes, p->pn, p->dn);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ghi_proof GRAPH_FILE\n");
        return 2;
    }
    char spec[4200], err[600], summary[600];
    snprintf(spec, sizeof spec, "graph:%s", argv[1]);
    pnsolve_game *g = pnsolve_game_open(spec, NULL, err, sizeof err);
    if (!g) {
        fprintf(stderr, "ghi_proof: %s\n", err);
        return 1;
    }
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.question = PNSOLVE_QUESTION_WIN;
    o.proof_path = "ghi_proof.proof";
    o.progress = progress;
    pnsolve_result r;
    if (pnsolve_prove(g, NULL, &o, &r, err, sizeof err) != PNSOLVE_OK) {
        fprintf(stderr, "ghi_proof: %s\n", err);
        pnsolve_game_close(g);
        return 1;
    }
    printf("%s (pnsolve %s): the player to move %s, %llu nodes, line: %s\n", pnsolve_game_name(g), pnsolve_version(),
           r.answer == PNSOLVE_PROVEN ? "wins" : r.answer == PNSOLVE_DISPROVEN ? "does not win" : "is not known to win",
           (unsigned long long)r.nodes, r.line);
    pnsolve_game_close(g);
    if (r.answer == PNSOLVE_OPEN)
        return 1;
    int sound;
    if (pnsolve_proof_check(o.proof_path, NULL, &sound, summary, sizeof summary, err, sizeof err) != PNSOLVE_OK) {
        fprintf(stderr, "ghi_proof: %s\n", err);
        return 1;
    }
    printf("%s: %s\n", sound ? "proof sound" : "proof NOT sound", sound ? summary : err);
    return sound ? 0 : 1;
}
