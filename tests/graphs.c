/* tests/graphs.c - game graphs for the tests: random cyclic graphs, files
 * for them, and the exhaustive value over every path (docs/rules.md section 4). */
#include "graphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Value for the prover (+1 win, 0 draw, -1 loss) of state s with path[0..depth). */
int path_value(const game *g, const game_state *s, uint64_t *path, int depth)
{
    game_result r = game_result_of(g, s);
    if (r != GAME_ONGOING)
        return game_outcome_for(r, 0);
    for (int i = 0; i < depth; i++)
        if (path[i] == s->w[0])
            return 0;
    path[depth] = s->w[0];
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), or_node = game_to_move(g, s) == 0;
    int best = or_node ? -2 : 2;
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        int v = path_value(g, &c, path, depth + 1);
        best = or_node ? (v > best ? v : best) : (v < best ? v : best);
    }
    return best;
}

int graph_truth(const game *g)
{
    game_state s;
    game_start(g, &s);
    uint64_t path[4096];
    return path_value(g, &s, path, 0);
}

/* Opens a graph written to a temporary file; the file stays until unlink_graph. */
game *graph_keep(const char *text)
{
    char path[] = "/tmp/pnsolve-graph-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "graph:%s", path);
    return game_open(spec, NULL, err, sizeof err);
}

void unlink_graph(const game *g) { unlink(strchr(g->name, ':') + 1); }

game *graph_from_text(const char *text)
{
    game *g = graph_keep(text);
    if (g)
        unlink_graph(g);
    return g;
}

/* A random graph of 2..9 nodes with cycles, terminals and dead ends. */
void random_graph(unsigned *seed, char *buf, size_t len)
{
    int n = 2 + rand_r(seed) % 8;
    size_t at = (size_t)snprintf(buf, len, "root N0\n");
    for (int i = 0; i < n; i++) {
        int k = rand_r(seed) % 10;
        if (i > 0 && k == 0) {
            static const char *const ends[] = { "win", "loss", "draw" };
            at += (size_t)snprintf(buf + at, len - at, "N%d: %s\n", i, ends[rand_r(seed) % 3]);
            continue;
        }
        at += (size_t)snprintf(buf + at, len - at, "N%d: %s", i, k < 6 ? "or" : "and");
        int kids = rand_r(seed) % 4;
        for (int c = 0; c < kids; c++)
            at += (size_t)snprintf(buf + at, len - at, " N%d", rand_r(seed) % n);
        at += (size_t)snprintf(buf + at, len - at, "\n");
    }
}

/* n OR and n AND nodes, w random moves each, an exit to a win from about a
 * third of the AND nodes: cycles everywhere, so summed proof numbers count
 * up around them to saturation. */
void dense_graph(unsigned seed, int n, int w, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "root O0\nX: win\n");
    for (int i = 0; i < n; i++) {
        at += (size_t)snprintf(buf + at, len - at, "O%d: or", i);
        for (int k = 0; k < w; k++)
            at += (size_t)snprintf(buf + at, len - at, " A%d", rand_r(&seed) % n);
        at += (size_t)snprintf(buf + at, len - at, "\nA%d: and", i);
        for (int k = 0; k < w; k++)
            at += (size_t)snprintf(buf + at, len - at, " O%d", rand_r(&seed) % n);
        at += (size_t)snprintf(buf + at, len - at, "%s\n", rand_r(&seed) % 10 < 3 ? " X" : "");
    }
}

void ladder_graph(unsigned seed, int n, int jumps, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "root O%d\nX: win\nA0: and X\nO0: or A0\n", n - 1);
    for (int i = 1; i < n; i++) {
        at += (size_t)snprintf(buf + at, len - at, "O%d: or A%d A%d\nA%d: and O%d", i, i - 1, rand_r(&seed) % n, i, i - 1);
        for (int k = 0; k < jumps; k++)
            if (rand_r(&seed) % 3 == 0)
                at += (size_t)snprintf(buf + at, len - at, " O%d", rand_r(&seed) % n);
        at += (size_t)snprintf(buf + at, len - at, "\n");
    }
}
