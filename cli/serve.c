/* cli/serve.c - `pnsolve serve`: the explorer, an HTTP server on
 * libmicrohttpd (here alone) with a JSON API under /api/v1 and one page
 * (docs/serve.md).  This file holds the command, the tables it opens at
 * start, and the HTTP layer: routing, the token, the size caps; the
 * endpoints are in serve_api.c, serve_jobs.c and serve_proof.c, what they
 * share in serve_common.c. */
#include "serve.h"
#include "../util/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <signal.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
    "usage: pnsolve serve [--tb-dir D] [--proofs DIR] [--campaign DIR] [--puzzles FILE]\n"
    "                     [--port N] [--bind ADDR [--token T]] [--read-only]\n"
    "                     [--time S] [--nodes N] [--memory MB] [--threads N] [--queue N]\n"
    "An explorer in the browser: every move's value and the mainline from the\n"
    "tables of D (every game's, as tb build names them, opened and checked at\n"
    "start), searches where no table reaches, the proof files of DIR node by\n"
    "node, a campaign's status and a puzzles --json file.  The page and a JSON\n"
    "API under /api/v1 (docs/serve.md); it prints the address to open.\n"
    "  --port N        the port (default 8080; 0: any free one)\n"
    "  --bind ADDR     listen on ADDR (default 127.0.0.1, this machine alone); any\n"
    "                  other address asks for a token: --token T, or one made up\n"
    "                  and printed with the address\n"
    "  --read-only     values and files only: no search is run\n"
    "  --time S, --nodes N, --memory MB, --threads N   each search's caps\n"
    "                  (default 10 s, no node cap, 256 MB, 1 thread)\n"
    "  --queue N       searches waiting at most (default 4; past it: 503)\n"
    "Searches run one at a time.  Ctrl-C stops the server; it writes nothing\n"
    "but its own temporary files (a compressed proof expanded to be read).\n";

enum { OPT_TB_DIR = 256, OPT_PROOFS, OPT_CAMPAIGN, OPT_PUZZLES, OPT_PORT, OPT_BIND, OPT_TOKEN, OPT_READ_ONLY,
       OPT_TIME, OPT_NODES, OPT_MEMORY, OPT_THREADS, OPT_QUEUE };

static const struct option serve_long[] = {
    { "tb-dir", required_argument, NULL, OPT_TB_DIR },   { "proofs", required_argument, NULL, OPT_PROOFS },
    { "campaign", required_argument, NULL, OPT_CAMPAIGN }, { "puzzles", required_argument, NULL, OPT_PUZZLES },
    { "port", required_argument, NULL, OPT_PORT },       { "bind", required_argument, NULL, OPT_BIND },
    { "token", required_argument, NULL, OPT_TOKEN },     { "read-only", no_argument, NULL, OPT_READ_ONLY },
    { "time", required_argument, NULL, OPT_TIME },       { "nodes", required_argument, NULL, OPT_NODES },
    { "memory", required_argument, NULL, OPT_MEMORY },   { "threads", required_argument, NULL, OPT_THREADS },
    { "queue", required_argument, NULL, OPT_QUEUE },     { NULL, 0, NULL, 0 },
};

typedef struct {
    const char *tb_dir, *proofs, *campaign, *puzzles, *bind, *token;
    int port, read_only, queue;
    serve_caps caps;
} serve_opts;

static int on_option(int opt, const char *arg, void *ctx)
{
    serve_opts *o = ctx;
    long v;
    switch (opt) {
    case OPT_TB_DIR: return cli_store_string(opt, arg, &o->tb_dir);
    case OPT_PROOFS: return cli_store_string(opt, arg, &o->proofs);
    case OPT_CAMPAIGN: return cli_store_string(opt, arg, &o->campaign);
    case OPT_PUZZLES: return cli_store_string(opt, arg, &o->puzzles);
    case OPT_BIND: return cli_store_string(opt, arg, &o->bind);
    case OPT_TOKEN: return cli_store_string(opt, arg, &o->token);
    case OPT_PORT: return cli_int(arg, 0, 65535, &o->port);
    case OPT_READ_ONLY: o->read_only = 1; return 0;
    case OPT_TIME: return cli_double(arg, 0.01, 86400, &o->caps.seconds);
    case OPT_NODES: return cli_long(arg, 1, 1L << 62, &v) == 0 ? (o->caps.nodes = (uint64_t)v, 0) : -1;
    case OPT_MEMORY: return cli_long(arg, 16, 1L << 20, &v) == 0 ? (o->caps.memory_mb = (size_t)v, 0) : -1;
    case OPT_THREADS: return cli_int(arg, 1, 256, &o->caps.threads);
    case OPT_QUEUE: return cli_int(arg, 0, 1000, &o->queue);
    default: return -1;
    }
}

/* Every game whose tables D holds, opened with them (the eager open: every
 * table checked now); a damaged table is said and its game served without
 * tables. */
static void open_tables(serve_ctx *c)
{
    /* every game a table directory can hold: Jungle, Ostle of each size,
     * Othello of each size a strong solution is built for (at most 40 squares) */
    char specs[64][32];
    int n = 0;
    snprintf(specs[n++], sizeof specs[0], "jungle");
    for (int w = 3; w <= 5; w++)
        for (int h = 3; h <= 5; h++)
            snprintf(specs[n++], sizeof specs[0], w == 5 && h == 5 ? "ostle" : "ostle:%dx%d", w, h);
    for (int w = 4; w <= 8; w++)
        for (int h = 4; h <= 8; h++)
            if (w * h <= 40)
                snprintf(specs[n++], sizeof specs[0], "othello:%dx%d", w, h);
    for (int i = 0; i < n && c->tb_dir; i++) {
        char err[4600];
        game *g = game_open(specs[i], NULL, err, sizeof err);
        if (!g)
            continue;
        int has = game_tables(g) || game_has_layers(g);
        tb_set *t = has ? tb_open(g, c->tb_dir, err, sizeof err) : NULL;
        if (!t) {
            if (has && !strstr(err, "no table of") && !strstr(err, "has no tables") && !strstr(err, "is not solved in"))
                fprintf(stderr, "pnsolve serve: %s served without tables: %s\n", specs[i], err);
            game_close(g);
            continue;
        }
        serve_game *s = &c->games[c->ngames++];
        snprintf(s->spec, sizeof s->spec, "%s", specs[i]);
        s->g = g;
        s->tables = t;
        fprintf(stderr, "pnsolve serve: %s: tables of %s\n", specs[i], c->tb_dir);
    }
    c->nstart = c->ngames;
}

static void close_games(serve_ctx *c)
{
    for (int i = 0; i < c->ngames; i++) {
        tb_close(c->games[i].tables);
        game_close(c->games[i].g);
    }
    c->ngames = 0;
}

/* ---- HTTP ---- */

typedef struct {
    char body[SERVE_QUERY_MAX];
    size_t len;
    int too_big;
} upload;

static const char *param(void *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

/* Whether the request carries the token (in the Authorization header as
 * "Bearer T", or as ?token=T for a link), compared in constant time. */
static int authorised(const serve_ctx *c, struct MHD_Connection *conn)
{
    if (!c->token[0])
        return 1;
    const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    const char *given = h && strncmp(h, "Bearer ", 7) == 0 ? h + 7 : param(conn, "token");
    size_t n = strlen(c->token);
    return given && strlen(given) == n && sodium_memcmp(given, c->token, n) == 0;
}

/* Every parameter within the size cap: the first too long, else NULL. */
static enum MHD_Result check_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    const char **bad = cls;
    if ((value && strlen(value) > SERVE_QUERY_MAX) || strlen(key) > 64) {
        *bad = key;
        return MHD_NO;
    }
    return MHD_YES;
}

static void route(serve_ctx *c, struct MHD_Connection *conn, const char *url, const char *method, const upload *up,
                  serve_reply *r)
{
    int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get)
            serve_error(r, 405, "%s is not allowed on %s", method, url);
        else if (serve_page(url, r) != 0)
            serve_error(r, 404, "no such path: %s", url);
        return;
    }
    const char *bad = NULL;
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, check_length, &bad);
    if (bad)
        return serve_error(r, 400, "%s: longer than %d bytes", bad, SERVE_QUERY_MAX);
    if (!authorised(c, conn))
        return serve_error(r, 401, "token: missing or wrong (the one printed with the address)");
    if (strncmp(url, "/api/v1/", 8) != 0)
        return serve_error(r, 404, "no such path: %s (the API is /api/v1/)", url);
    const char *path = url + 8;
    if (strcmp(path, "prove") == 0) {
        if (strcmp(method, "POST") != 0)
            return serve_error(r, 405, "prove: POST a JSON object");
        if (c->read_only)
            return serve_error(r, 403, "prove: this server is read-only (--read-only)");
        if (up->too_big)
            return serve_error(r, 413, "body: longer than %d bytes", SERVE_QUERY_MAX);
        return serve_jobs_post(c->jobs, up->body, up->len, r);
    }
    if (strncmp(path, "jobs/", 5) == 0) {
        int del = strcmp(method, "DELETE") == 0;
        if (!get && !del)
            return serve_error(r, 405, "jobs: GET or DELETE");
        return serve_jobs_get(c->jobs, path + 5, del, r);
    }
    if (!get)
        return serve_error(r, 405, "%s is not allowed on %s", method, url);
    if (strcmp(path, "proofs") == 0)
        return serve_proofs_list(c->proof_files, r);
    if (strcmp(path, "proof") == 0)
        return serve_proofs_node(c, param(conn, "file"), param(conn, "node"), r);
    if (serve_api_get(c, path, param, conn, r) != 0)
        serve_error(r, 404, "no such path: %s", url);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *data, size_t *data_size, void **state)
{
    (void)version;
    serve_ctx *c = cls;
    if (!*state) {  /* the headers: a place for the body, if any */
        upload *up = calloc(1, sizeof *up);
        if (!up)
            return MHD_NO;
        *state = up;
        if (strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0)
            return MHD_YES;
    }
    upload *up = *state;
    if (*data_size) {
        if (up->len + *data_size >= sizeof up->body)
            up->too_big = 1;
        else {
            memcpy(up->body + up->len, data, *data_size);
            up->len += *data_size;
        }
        *data_size = 0;
        return MHD_YES;
    }
    serve_reply r = { 0 };
    route(c, conn, url, method, up, &r);
    struct MHD_Response *res = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
    if (!res) {
        free(r.body);
        return MHD_NO;
    }
    MHD_add_response_header(res, "Content-Type", r.type ? r.type : "application/json");
    MHD_add_response_header(res, "Cache-Control", "no-store");
    MHD_add_response_header(res, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(res, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'");
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)r.status, res);
    MHD_destroy_response(res);
    return ok;
}

static void on_done(void *cls, struct MHD_Connection *conn, void **state, enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)conn, (void)why;
    free(*state);
    *state = NULL;
}

static int is_loopback(const char *addr) { return strcmp(addr, "127.0.0.1") == 0 || strncmp(addr, "127.", 4) == 0; }

/* Fills c from o: the directories resolved, the token; an exit code (said). */
static int setup(serve_ctx *c, const serve_opts *o)
{
    struct stat st;
    if (o->proofs && (!realpath(o->proofs, c->proofs) || stat(c->proofs, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_fail(1, "serve: --proofs %s: not a directory", o->proofs);
    if (o->campaign && (!realpath(o->campaign, c->campaign) || stat(c->campaign, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_fail(1, "serve: --campaign %s: not a directory", o->campaign);
    if (o->puzzles && (stat(o->puzzles, &st) != 0 || !S_ISREG(st.st_mode)))
        return cli_fail(1, "serve: --puzzles %s: not a regular file", o->puzzles);
    if (o->tb_dir && (stat(o->tb_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_fail(1, "serve: --tb-dir %s: not a directory", o->tb_dir);
    c->tb_dir = o->tb_dir;
    c->puzzles = o->puzzles;
    c->read_only = o->read_only;
    c->caps = o->caps;
    const char *bind = o->bind ? o->bind : "127.0.0.1";
    if (o->token) {
        if (strlen(o->token) < 8 || strlen(o->token) >= sizeof c->token)
            return cli_fail(EXIT_USAGE, "serve: --token: 8 to %zu characters", sizeof c->token - 1);
        snprintf(c->token, sizeof c->token, "%s", o->token);
    } else if (!is_loopback(bind)) {
        unsigned char raw[16];
        randombytes_buf(raw, sizeof raw);
        sodium_bin2hex(c->token, sizeof c->token, raw, sizeof raw);
    }
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    cli_game_opts go;
    serve_opts o = { .port = 8080, .queue = 4, .caps = { .seconds = 10, .memory_mb = 256, .threads = 1 } };
    int first;
    if (cli_parse(argc, argv, &go, serve_long, on_option, &o, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc != first)
        return cli_fail(EXIT_USAGE, "serve: unexpected argument '%s' (see 'pnsolve serve --help')", argv[first]);
    if (sodium_init() < 0)
        return cli_fail(1, "serve: libsodium cannot start");
    static serve_ctx c;
    int rc = setup(&c, &o);
    if (rc)
        return rc;
    const char *bind = o.bind ? o.bind : "127.0.0.1";
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o.port) };
    if (inet_pton(AF_INET, bind, &addr.sin_addr) != 1)
        return cli_fail(EXIT_USAGE, "serve: --bind %s: not an IPv4 address", bind);
    pthread_mutex_init(&c.lock, NULL);
    open_tables(&c);
    c.jobs = serve_jobs_new(&c, o.queue, 1);
    c.proof_files = serve_proofs_new(c.proofs, (uint64_t)4 << 30);
    if (!c.jobs || !c.proof_files) {
        serve_jobs_free(c.jobs);
        serve_proofs_free(c.proof_files);
        close_games(&c);
        return cli_fail(1, "serve: out of memory");
    }
    /* the signals go to the main thread alone, which waits for them */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, &c,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)4,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)128, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
        MHD_OPTION_END);
    if (!d) {
        rc = cli_fail(1, "serve: cannot listen on %s:%d (%s)", bind, o.port, strerror(errno));
    } else {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        unsigned port = info ? info->port : (unsigned)o.port;
        if (!is_loopback(bind))
            fprintf(stderr, "pnsolve serve: warning: listening on %s, open to other machines; every API request "
                    "needs the token\n", bind);
        printf("pnsolve serve: open http://%s:%u/%s%s\n", strcmp(bind, "0.0.0.0") ? bind : "127.0.0.1", port,
               c.token[0] ? "?token=" : "", c.token);
        fflush(stdout);
        int sig;
        sigwait(&sigs, &sig);
        fprintf(stderr, "pnsolve serve: stopped by %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
        MHD_stop_daemon(d);
    }
    serve_jobs_free(c.jobs);
    serve_proofs_free(c.proof_files);
    close_games(&c);
    pthread_mutex_destroy(&c.lock);
    return rc ? rc : 0;
}
