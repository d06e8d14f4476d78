/* cli/serve_common.c - what every part of the server shares: its JSON
 * replies, the games it holds open, and the check that keeps a file name
 * inside a served directory. */
#include "serve.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void serve_json(serve_reply *r, int status, json_t *obj)
{
    r->status = status;
    r->type = "application/json";
    r->body = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    r->len = r->body ? strlen(r->body) : 0;
    json_decref(obj);
    if (!r->body) {
        r->status = 500;
        r->body = strdup("{\"error\": \"out of memory\"}");
        r->len = r->body ? strlen(r->body) : 0;
    }
}

void serve_error(serve_reply *r, int status, const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    serve_json(r, status, json_pack("{ss}", "error", msg));
}

int serve_confined(const char *root, const char *name, char *out, size_t outlen, char *err, size_t errlen)
{
    if (!root[0])
        return util_error(err, errlen, "no directory is served for files (--proofs)");
    if (!name[0] || name[0] == '/' || strstr(name, "..") || strlen(name) > 1000)
        return util_error(err, errlen, "'%s' is not a name inside the served directory", name);
    char joined[PATH_MAX + 1024], real[PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", root, name);
    if (!realpath(joined, real))
        return util_error(err, errlen, "'%s': %s", name, strerror(errno));
    size_t n = strlen(root);
    if (strncmp(real, root, n) != 0 || real[n] != '/')
        return util_error(err, errlen, "'%s' leads out of the served directory", name);
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return util_error(err, errlen, "'%s' is not a regular file", name);
    snprintf(out, outlen, "%s", real);
    return 0;
}

serve_game *serve_game_get(serve_ctx *c, const char *spec, char *err, size_t errlen)
{
    if (strlen(spec) > 200)
        return util_error(err, errlen, "game: too long"), NULL;
    char opened[PATH_MAX + 16];
    snprintf(opened, sizeof opened, "%s", spec);
    if (strncmp(spec, "graph:", 6) == 0) {  /* a graph file only from the served directory */
        char path[PATH_MAX], why[1400];
        if (serve_confined(c->proofs, spec + 6, path, sizeof path, why, sizeof why) != 0)
            return util_error(err, errlen, "game: %s", why), NULL;
        snprintf(opened, sizeof opened, "graph:%s", path);
    }
    pthread_mutex_lock(&c->lock);
    serve_game *found = NULL;
    for (int i = 0; i < c->ngames && !found; i++)
        if (strcmp(c->games[i].spec, spec) == 0)
            found = &c->games[i];
    if (!found && c->ngames == SERVE_GAMES_MAX)
        util_error(err, errlen, "game: %d games are open, the most this server holds", SERVE_GAMES_MAX);
    else if (!found) {
        char why[600];
        game *g = game_open(opened, NULL, why, sizeof why);
        if (!g)
            util_error(err, errlen, "game: %s", why);
        else {
            found = &c->games[c->ngames++];
            snprintf(found->spec, sizeof found->spec, "%s", spec);
            found->g = g;
            found->tables = NULL;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return found;
}
