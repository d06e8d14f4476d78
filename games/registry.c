/* games/registry.c - the games game_open knows.  Adding a game: write
 * games/<name>.c with a game_ops table and an opener, declare the opener in
 * game_impl.h and add its line here (docs/design.md, "Adding a game"). */
#include "game_impl.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

typedef game *(*game_opener)(const char *args, const char *variant, char *err, size_t errlen);

static const struct {
    const char *name;
    game_opener open;
    const char *usage;  /* how a user names it */
} registry[] = {
    { "jungle", jungle_open, "jungle [--variant classic]" },
    { "ostle", ostle_open, "ostle[:WxH] (3..5 each)" },
    { "othello", othello_open, "othello:WxH (4..8 each)" },
    { "graph", graph_open, "graph:FILE" },
    { "tictactoe", tictactoe_open, "tictactoe" },
};

enum { GAMES = sizeof registry / sizeof registry[0] };

void game_names(char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < GAMES && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", registry[i].usage);
}

game *game_open(const char *spec, const char *variant, char *err, size_t errlen)
{
    char names[512];
    game_names(names, sizeof names);
    if (!spec || !*spec) {
        util_error(err, errlen, "no game given (%s)", names);
        return NULL;
    }
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    for (int i = 0; i < GAMES; i++)
        if (strlen(registry[i].name) == n && strncmp(spec, registry[i].name, n) == 0)
            return registry[i].open(colon ? colon + 1 : "", variant, err, errlen);
    util_error(err, errlen, "unknown game '%s' (%s)", spec, names);
    return NULL;
}

void game_close(game *g)
{
    if (!g)
        return;
    if (g->ops->destroy)
        g->ops->destroy(g);
    free(g);
}
