/* cli/serve.h - private to the server's files (cli/serve*.c): HTTP in
 * serve.c alone (libmicrohttpd), JSON through jansson as in the engine.
 *
 * The server answers from what it opened at start (every game's tables
 * in --tb-dir, eagerly checked) and from the directories it serves; a
 * request never builds an index or writes a file, and searches run one at
 * a time (by default) on a bounded queue under the caps the server sets. */
#ifndef PNSOLVE_CLI_SERVE_H
#define PNSOLVE_CLI_SERVE_H

#include "cli.h"
#include "../tablebase/tablebase.h"

#include <jansson.h>
#include <limits.h>
#include <pthread.h>

#define SERVE_GAMES_MAX 48     /* games open at once: those with tables, then any asked for */
#define SERVE_QUERY_MAX 4096   /* bytes of a query or request body */

typedef struct serve_jobs serve_jobs;
typedef struct serve_proofs serve_proofs;

/* A game the server holds open, with its tables (NULL: none). */
typedef struct {
    char spec[PATH_MAX + 16];
    game *g;
    tb_set *tables;
} serve_game;

/* The caps every search runs under (prove's limits, named alike). */
typedef struct {
    double seconds;
    uint64_t nodes;
    size_t memory_mb;
    int threads;
} serve_caps;

typedef struct {
    const char *tb_dir;
    char proofs[PATH_MAX];     /* realpath of --proofs ("" none) */
    char campaign[PATH_MAX];   /* realpath of --campaign ("" none) */
    const char *puzzles;       /* --puzzles FILE (NULL none) */
    char token[80];            /* "" when no token is asked for */
    int read_only;
    serve_caps caps;
    pthread_mutex_t lock;      /* games[] past the ones opened at start */
    serve_game games[SERVE_GAMES_MAX];
    int ngames, nstart;
    serve_jobs *jobs;
    serve_proofs *proof_files;
} serve_ctx;

/* The answer to one request: a status and a body (malloc'd). */
typedef struct {
    int status;
    const char *type;  /* its Content-Type */
    char *body;
    size_t len;
} serve_reply;

/* A query's parameter (NULL: absent). */
typedef const char *(*serve_param_fn)(void *conn, const char *name);

/* The game of spec (a graph:FILE only from the served proofs directory),
 * opened now or at start: NULL with err (names what is wrong). */
serve_game *serve_game_get(serve_ctx *c, const char *spec, char *err, size_t errlen);
/* Whether path names a file inside root (after symlinks): the resolved
 * path into out, 0; -1 with err. */
int serve_confined(const char *root, const char *name, char *out, size_t outlen, char *err, size_t errlen);

/* serve_common.c: replies, a JSON object (its reference taken) or an
 * error naming the field; serve_game_get and serve_confined above. */
void serve_json(serve_reply *r, int status, json_t *obj);
void serve_error(serve_reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* serve_api.c: the GET endpoints of /api/v1 (path after it); 0 if handled. */
int serve_api_get(serve_ctx *c, const char *path, serve_param_fn param, void *conn, serve_reply *r);

/* serve_jobs.c: the search queue. */
serve_jobs *serve_jobs_new(serve_ctx *c, int queue, int searchers);
void serve_jobs_free(serve_jobs *j);
/* POST /api/v1/prove with a JSON body; GET and DELETE /api/v1/jobs/ID. */
void serve_jobs_post(serve_jobs *j, const char *body, size_t len, serve_reply *r);
void serve_jobs_get(serve_jobs *j, const char *id, int cancel, serve_reply *r);

/* serve_proof.c: proof files of the served directory, node by node. */
serve_proofs *serve_proofs_new(const char *dir, uint64_t max_bytes);
void serve_proofs_free(serve_proofs *p);
/* GET /api/v1/proofs (the files) and /api/v1/proof?file=&node= */
void serve_proofs_list(serve_proofs *p, serve_reply *r);
void serve_proofs_node(serve_ctx *c, const char *file, const char *node, serve_reply *r);

/* serve_page.c: the page's files, built into the binary; 0 if path is one. */
int serve_page(const char *path, serve_reply *r);

#endif
