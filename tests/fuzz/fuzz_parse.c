/* tests/fuzz/fuzz_parse.c - libFuzzer target for every parser (`make fuzz`).
 * The first byte picks a game; the rest is a position (or a graph file, or a
 * proof file for the proof checker, or a child's proof to join below the
 * 4x4 Othello start).  Whatever parses must print, re-parse to the same key,
 * and survive moves. */
#include "../../games/game.h"
#include "../../pns/pns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const specs[] = { "jungle", "ostle", "ostle:4x3", "othello:8x8", "othello:5x7", "graph", "proof", "join" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4000)
        return 0;
    const char *spec = specs[data[0] % (sizeof specs / sizeof specs[0])];
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char err[256], path[64] = "";
    game *g;
    if (strcmp(spec, "proof") == 0) {
        FILE *f = size > 1 ? fmemopen(text, size - 1, "r") : NULL;
        if (f) {
            char summary[512];
            proof_verify(f, NULL, summary, sizeof summary, err, sizeof err);
            rewind(f);
            proof_fact *fact = malloc(sizeof *fact);  /* the claim read the checker's way, alone */
            if (fact)
                proof_claim_read(f, fact, err, sizeof err);
            free(fact);
            fclose(f);
        }
        free(text);
        return 0;
    }
    if (strcmp(spec, "join") == 0) {
        FILE *f = size > 1 ? fmemopen(text, size - 1, "r") : NULL;
        g = game_open("othello:4x4", NULL, err, sizeof err);
        if (f && g) {
            game_state root;
            game_start(g, &root);
            char *out = NULL, summary[512];
            size_t len = 0;
            FILE *o = open_memstream(&out, &len);
            int rc = proof_join(g, &root, &f, 1, o, NULL, err, sizeof err);
            fclose(o);
            FILE *in = rc == 0 ? fmemopen(out, len, "r") : NULL;
            if (in) {
                proof_verify(in, NULL, summary, sizeof summary, err, sizeof err);
                fclose(in);
            }
            free(out);
        }
        if (f)
            fclose(f);
        game_close(g);
        free(text);
        return 0;
    }
    if (strcmp(spec, "graph") == 0) {
        snprintf(path, sizeof path, "/tmp/pnsolve-fuzz-%d.txt", (int)getpid());
        FILE *f = fopen(path, "w");
        fwrite(text, 1, size - 1, f);
        fclose(f);
        char gspec[80];
        snprintf(gspec, sizeof gspec, "graph:%s", path);
        g = game_open(gspec, NULL, err, sizeof err);
        unlink(path);
    } else {
        g = game_open(spec, data[0] & 0x80 ? "classic" : NULL, err, sizeof err);
        if (!g)
            g = game_open(spec, NULL, err, sizeof err);
    }
    if (g) {
        game_state s, t;
        char out[GAME_TEXT_MAX];
        int ok = strcmp(spec, "graph") == 0 ? (game_start(g, &s), 1) : game_parse(g, text, &s, err, sizeof err) == 0;
        if (ok) {
            game_format(g, &s, out, sizeof out);
            if (game_parse(g, out, &t, err, sizeof err) != 0 || !game_key_equal(game_key_of(g, &s), game_key_of(g, &t)))
                abort();
            for (int ply = 0; ply < 20; ply++) {
                game_move list[GAME_MAX_MOVES];
                int n = game_moves(g, &s, list);
                if (n != game_count(g, &s))
                    abort();
                if (!n)
                    break;
                game_move m;
                game_format_move(g, &s, list[ply % n], out, sizeof out);
                if (game_parse_move(g, &s, out, &m, err, sizeof err) != 0)
                    abort();
                game_play(g, &s, m);
            }
            game_result_of(g, &s);
            FILE *devnull = fopen("/dev/null", "w");
            game_diagram(g, &s, devnull);
            fclose(devnull);
        }
        game_close(g);
    }
    free(text);
    return 0;
}
