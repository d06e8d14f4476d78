/* games/graph.c - hand-written game graphs (docs/rules.md section 4) for GHI tests.
 *
 * A state is a node index (w[0]); a move is the index of the child node, so
 * play() is one assignment.  The prover is player 0: OR nodes are player 0 to
 * move, AND nodes player 1.  Repetition is the searcher's business (it is a
 * property of the path, not of the node).
 */
#include "game_impl.h"
#include "../util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <uthash.h>

#define GRAPH_MAX_BYTES ((size_t)64 << 20)

enum node_kind { NODE_OR, NODE_AND, NODE_WIN, NODE_LOSS, NODE_DRAW };
static const char *const kind_words[] = { "or", "and", "win", "loss", "draw" };

typedef struct {
    char *name;
    enum node_kind kind;
    int first, count;  /* children: child[first .. first+count) */
    int line;
} graph_node;

typedef struct {
    graph_node *node;
    int nodes, root;
    int *child;
} graph_data;

typedef struct name_entry {
    const char *name;
    int index;
    UT_hash_handle hh;
} name_entry;

static inline const graph_data *gdata(const game *g) { return g->data; }
static inline const graph_node *node_of(const game *g, const game_state *s) { return &gdata(g)->node[s->w[0]]; }

static void graph_start(const game *g, game_state *s)
{
    memset(s, 0, sizeof *s);
    s->w[0] = (uint64_t)gdata(g)->root;
}

static int graph_moves(const game *g, const game_state *s, game_move *out)
{
    const graph_node *n = node_of(g, s);
    for (int i = 0; i < n->count; i++)
        out[i] = (game_move)gdata(g)->child[n->first + i];
    return n->count;
}

static int graph_count(const game *g, const game_state *s) { return node_of(g, s)->count; }

static void graph_play(const game *g, game_state *s, game_move m) { (void)g; s->w[0] = m; }

static game_result graph_result(const game *g, const game_state *s)
{
    const graph_node *n = node_of(g, s);
    switch (n->kind) {
    case NODE_WIN: return GAME_WIN0;
    case NODE_LOSS: return GAME_WIN1;
    case NODE_DRAW: return GAME_DRAW;
    case NODE_OR: return n->count ? GAME_ONGOING : GAME_WIN1;  /* no move: the mover loses */
    default: return n->count ? GAME_ONGOING : GAME_WIN0;
    }
}

static int graph_to_move(const game *g, const game_state *s) { return node_of(g, s)->kind == NODE_AND; }

static game_key graph_key(const game *g, const game_state *s) { (void)g; return (game_key){ s->w[0], 0 }; }
static void graph_unkey(const game *g, game_key k, game_state *s)
{
    (void)g;
    *s = (game_state){ { k.lo, 0, 0, 0 } };
}

static int graph_score(const game *g, const game_state *s)
{
    return game_outcome_for(graph_result(g, s), 0);
}

static int graph_parse_state(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    const graph_data *d = gdata(g);
    for (int i = 0; i < d->nodes; i++)
        if (strcmp(d->node[i].name, text) == 0) {
            s->w[0] = (uint64_t)i;
            return 0;
        }
    return util_error(err, errlen, "unknown node '%s'", text);
}

static void graph_format(const game *g, const game_state *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", node_of(g, s)->name);
}

static void graph_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len)
{
    (void)s;
    snprintf(buf, len, "%s", gdata(g)->node[m].name);
}

static void graph_diagram(const game *g, const game_state *s, FILE *out)
{
    const graph_node *n = node_of(g, s);
    fprintf(out, "node %s: %s", n->name, kind_words[n->kind]);
    for (int i = 0; i < n->count; i++)
        fprintf(out, " %s", gdata(g)->node[gdata(g)->child[n->first + i]].name);
    fputc('\n', out);
}

static void graph_free(graph_data *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nodes; i++)
        free(d->node[i].name);
    free(d->node);
    free(d->child);
    free(d);
}

static void graph_destroy(game *g) { graph_free(g->data); }

static const game_ops graph_ops = {
    .name = "graph",
    .player = { "prover", "opponent" },
    .finished_is_perft_leaf = 0,
    .player0_proves = 1,
    .start = graph_start,
    .moves = graph_moves,
    .count = graph_count,
    .play = graph_play,
    .result = graph_result,
    .to_move = graph_to_move,
    .key = graph_key,
    .unkey = graph_unkey,
    .score = graph_score,
    .parse = graph_parse_state,
    .format = graph_format,
    .format_move = graph_format_move,
    .diagram = graph_diagram,
    .destroy = graph_destroy,
};

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* Splits a line (comment removed) into whitespace-separated words in place. */
static int split_words(char *line, char **word, int max)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (n == max)
            return max + 1;
        word[n++] = tok;
    }
    return n;
}

/* Children are named before they may be defined, so names are kept as text
 * (with their line) until every node is known. */
typedef struct {
    char *name;
    int line;
} pending_child;

/* A graph file being read. */
typedef struct {
    graph_data *d;
    const char *file;
    char *err;
    size_t errlen;
    pending_child *pend;
    size_t pend_n, pend_cap, node_cap;
    name_entry *names;
    char *root_name;
    int root_line;
} loader;

enum { LOAD_OK = 0, LOAD_BAD = -1, LOAD_NO_MEMORY = -2 };

/* "root NAME" */
static int read_root(loader *L, char **word, int n, int lineno)
{
    if (n != 2 || !valid_name(word[1]))
        return util_error(L->err, L->errlen, "%s:%d: expected 'root NAME'", L->file, lineno);
    if (L->root_name)
        return util_error(L->err, L->errlen, "%s:%d: second root line (first on line %d)", L->file, lineno, L->root_line);
    if (!(L->root_name = strdup(word[1])))
        return LOAD_NO_MEMORY;
    L->root_line = lineno;
    return LOAD_OK;
}

/* The kind of node word[0] after its colon at word[k]; -1 (said) if bad. */
static int node_kind_of(const loader *L, char **word, int n, int k, int lineno)
{
    if (!valid_name(word[0]))
        return util_error(L->err, L->errlen, "%s:%d: bad node name '%s' (letters, digits, _)", L->file, lineno, word[0]);
    if (n - k - 1 > GAME_MAX_MOVES)  /* either form of the colon */
        return util_error(L->err, L->errlen, "%s:%d: more than %d children", L->file, lineno, GAME_MAX_MOVES);
    if (k >= n)
        return util_error(L->err, L->errlen, "%s:%d: node '%s' has no kind word (or, and, win, loss, draw)", L->file,
                          lineno, word[0]);
    int kind = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(word[k], kind_words[i]) == 0)
            kind = i;
    if (kind < 0)
        return util_error(L->err, L->errlen, "%s:%d: bad value word '%s' (or, and, win, loss, draw)", L->file, lineno,
                          word[k]);
    if (kind >= NODE_WIN && n > k + 1)
        return util_error(L->err, L->errlen, "%s:%d: terminal node '%s' cannot have children", L->file, lineno, word[0]);
    name_entry *e;
    HASH_FIND_STR(L->names, word[0], e);
    if (e)
        return util_error(L->err, L->errlen, "%s:%d: duplicate node '%s' (first on line %d)", L->file, lineno, word[0],
                          L->d->node[e->index].line);
    return kind;
}

/* "NAME: kind children..." with the colon attached or standing alone */
static int read_node(loader *L, char **word, int n, int lineno)
{
    int k = 1;
    size_t len = strlen(word[0]);
    if (len > 1 && word[0][len - 1] == ':')
        word[0][len - 1] = 0;
    else if (n > 1 && strcmp(word[1], ":") == 0)
        k = 2;
    else
        return util_error(L->err, L->errlen, "%s:%d: expected 'NAME: or|and|win|loss|draw ...' or 'root NAME'", L->file,
                          lineno);
    int kind = node_kind_of(L, word, n, k, lineno);
    if (kind < 0)
        return LOAD_BAD;
    graph_data *d = L->d;
    if ((size_t)d->nodes == L->node_cap) {
        L->node_cap = L->node_cap ? 2 * L->node_cap : 16;
        graph_node *nn = realloc(d->node, L->node_cap * sizeof *nn);
        if (!nn)
            return LOAD_NO_MEMORY;
        d->node = nn;
    }
    graph_node *nd = &d->node[d->nodes];
    *nd = (graph_node){ .name = strdup(word[0]), .kind = (enum node_kind)kind,
                        .first = (int)L->pend_n, .count = n - k - 1, .line = lineno };
    name_entry *e = malloc(sizeof *e);
    if (!nd->name || !e) {
        free(e);
        return LOAD_NO_MEMORY;
    }
    d->nodes++;
    e->name = nd->name;
    e->index = d->nodes - 1;
    HASH_ADD_KEYPTR(hh, L->names, e->name, strlen(e->name), e);
    for (int i = k + 1; i < n; i++) {
        if (L->pend_n == L->pend_cap) {
            L->pend_cap = L->pend_cap ? 2 * L->pend_cap : 64;
            pending_child *np = realloc(L->pend, L->pend_cap * sizeof *np);
            if (!np)
                return LOAD_NO_MEMORY;
            L->pend = np;
        }
        L->pend[L->pend_n] = (pending_child){ strdup(word[i]), lineno };
        if (!L->pend[L->pend_n++].name)
            return LOAD_NO_MEMORY;
    }
    return LOAD_OK;
}

/* The root and every child by name, once the whole file is read. */
static int resolve(loader *L)
{
    name_entry *e;
    if (!L->root_name)
        return util_error(L->err, L->errlen, "%s: missing root line ('root NAME')", L->file);
    HASH_FIND_STR(L->names, L->root_name, e);
    if (!e)
        return util_error(L->err, L->errlen, "%s:%d: root '%s' is not defined", L->file, L->root_line, L->root_name);
    L->d->root = e->index;
    L->d->child = malloc((L->pend_n ? L->pend_n : 1) * sizeof *L->d->child);
    if (!L->d->child)
        return LOAD_NO_MEMORY;
    for (size_t i = 0; i < L->pend_n; i++) {
        HASH_FIND_STR(L->names, L->pend[i].name, e);
        if (!e)
            return util_error(L->err, L->errlen, "%s:%d: unknown child '%s'", L->file, L->pend[i].line, L->pend[i].name);
        L->d->child[i] = e->index;
    }
    return LOAD_OK;
}

/* The bytes of a regular file of sane size, or of standard input for "-"
 * (a device or a FIFO named in a proof's header would block or be read
 * until memory runs out), into a new buffer: 0, or -1 with err. */
static int read_whole(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = util_open_input(path, 1, err, errlen);
    if (!f)
        return -1;
    size_t cap = 0;
    *text = NULL;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *t = cap <= (size_t)GRAPH_MAX_BYTES + 1 ? realloc(*text, cap) : NULL;
            if (!t) {
                free(*text);
                util_close_input(f);
                return util_error(err, errlen, "%s: %s", path, cap > (size_t)GRAPH_MAX_BYTES + 1 ? "graph file larger than 64 MiB" : "out of memory");
            }
            *text = t;
        }
        size_t n = fread(*text + *len, 1, cap - *len, f);
        *len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    util_close_input(f);
    if (bad) {
        free(*text);
        return util_error(err, errlen, "%s: read error", path);
    }
    return 0;
}

static int graph_load(FILE *f, const char *file, graph_data *d, char *err, size_t errlen)
{
    enum { MAX_WORDS = GAME_MAX_MOVES + 3 };
    char *line = NULL, *word[MAX_WORDS + 1];
    size_t cap = 0;
    int lineno = 0, rc = LOAD_OK;
    loader L = { .d = d, .file = file, .err = err, .errlen = errlen };
    long got, at = 0;
    char why[256];
    while (rc == LOAD_OK && (got = util_read_line(f, &line, &cap, &at, why, sizeof why)) != -1) {
        lineno = (int)at;
        if (got < 0) {
            rc = util_error(err, errlen, "%s:%s", file, why + 5);  /* "line N: ..." as "FILE:N: ..." */
            break;
        }
        int n = split_words(line, word, MAX_WORDS);
        if (n == 0)
            continue;
        if (n > MAX_WORDS)
            rc = util_error(err, errlen, "%s:%d: more than %d children", file, lineno, GAME_MAX_MOVES);
        else if (strcmp(word[0], "root") == 0 && !(n > 1 && strcmp(word[1], ":") == 0))
            rc = read_root(&L, word, n, lineno);
        else
            rc = read_node(&L, word, n, lineno);
    }
    if (rc == LOAD_OK && ferror(f))
        rc = util_error(err, errlen, "%s: read error: %s", file, strerror(errno));
    if (rc == LOAD_OK)
        rc = resolve(&L);
    if (rc == LOAD_NO_MEMORY)
        util_error(err, errlen, "%s: out of memory", file);
    name_entry *e, *tmp;
    HASH_ITER(hh, L.names, e, tmp) {
        HASH_DEL(L.names, e);
        free(e);
    }
    for (size_t i = 0; i < L.pend_n; i++)
        free(L.pend[i].name);
    free(L.pend);
    free(L.root_name);
    free(line);
    return rc == LOAD_OK ? 0 : -1;
}

game *graph_open(const char *args, const char *variant, char *err, size_t errlen)
{
    if (!*args) {
        util_error(err, errlen, "graph needs a file: graph:FILE");
        return NULL;
    }
    if (variant) {
        util_error(err, errlen, "graph has no variant '%s'", variant);
        return NULL;
    }
    /* the whole file first: its BLAKE2b names the graph in proofs */
    char *text = NULL;
    size_t len = 0;
    if (read_whole(args, &text, &len, err, errlen) != 0)
        return NULL;
    FILE *f = fmemopen(text, len ? len : 1, "r");
    if (!f) {
        free(text);
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    graph_data *d = calloc(1, sizeof *d);
    int rc = d ? graph_load(f, args, d, err, errlen) : util_error(err, errlen, "out of memory");
    fclose(f);
    unsigned char hash[32];
    crypto_generichash(hash, sizeof hash, (const unsigned char *)text, len, NULL, 0);
    free(text);
    if (rc != 0) {
        graph_free(d);
        return NULL;
    }
    char name[GAME_NAME_MAX];
    if (snprintf(name, sizeof name, "graph:%s", args) >= (int)sizeof name) {
        graph_free(d);
        util_error(err, errlen, "graph file name longer than %d bytes", GAME_NAME_MAX - 7);
        return NULL;
    }
    game *g = game_alloc(&graph_ops, name);
    if (!g) {
        graph_free(d);
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    g->data = d;
    for (int i = 0; i < 32; i++)
        snprintf(g->content + 2 * i, 3, "%02x", hash[i]);
    return g;
}
