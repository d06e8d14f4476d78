/* cli/serve_proof.c - the proof files of the served directory, node by
 * node: GET /api/v1/proofs lists them, /api/v1/proof?file=F&node=K gives
 * node K (its line, move, kind, position and children).
 *
 * A file is indexed once, when first asked for: each line's offset, its
 * parent and where its subtree ends (16 bytes a line), so that a node's
 * children and position come from a few reads however large the file.
 * An xz-compressed file (the committed proofs, up to 900 MB expanded) is
 * expanded first into a temporary file of the server's own, through
 * liblzma; files past max_bytes expanded, or deeper than DEPTH_MAX, are
 * refused by name.  The last CACHED indices are kept. */
#include "serve.h"
#include "../util/util.h"

#include <dirent.h>
#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHED 8
#define DEPTH_MAX 4096
#define CHILDREN_MAX 512

typedef struct {
    char name[256];
    time_t mtime;
    off_t size;
    char path[PATH_MAX];      /* the text read: the file, or its expansion */
    int expanded;             /* path is a temporary file of ours */
    FILE *f;
    uint64_t n;               /* node lines */
    uint64_t *offset;
    uint32_t *parent, *end;   /* parent line (UINT32_MAX: the root); first line after the subtree */
    char game[256], position[512], prover[16], question[64], result[32];
} proof_index;

struct serve_proofs {
    char dir[PATH_MAX];
    char tmp[PATH_MAX - 64];  /* our temporary directory ("" until needed) */
    uint64_t max_bytes;
    pthread_mutex_t lock;
    proof_index *cache[CACHED];
    int n;
};

serve_proofs *serve_proofs_new(const char *dir, uint64_t max_bytes)
{
    serve_proofs *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    p->max_bytes = max_bytes;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

static void index_free(proof_index *x)
{
    if (!x)
        return;
    if (x->f)
        fclose(x->f);
    if (x->expanded)
        unlink(x->path);
    free(x->offset);
    free(x->parent);
    free(x->end);
    free(x);
}

void serve_proofs_free(serve_proofs *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        index_free(p->cache[i]);
    if (p->tmp[0])
        rmdir(p->tmp);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void serve_proofs_list(serve_proofs *p, serve_reply *r)
{
    if (!p->dir[0])
        return serve_error(r, 404, "no proofs are served (--proofs DIR)");
    DIR *d = opendir(p->dir);
    if (!d)
        return serve_error(r, 500, "proofs: %s", strerror(errno));
    json_t *list = json_array();
    struct dirent *e;
    while ((e = readdir(d)) && json_array_size(list) < 10000) {
        char path[PATH_MAX + 300];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        json_array_append_new(list, json_pack("{ss sI sb}", "file", e->d_name, "bytes", (json_int_t)st.st_size,
                                              "proof", strstr(e->d_name, ".proof") != NULL));
    }
    closedir(d);
    serve_json(r, 200, json_pack("{so}", "files", list));
}

/* src (xz) expanded into a temporary file of p's: 0, or -1 with err. */
static int expand(serve_proofs *p, FILE *src, proof_index *x, char *err, size_t errlen)
{
    if (!p->tmp[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(p->tmp, sizeof p->tmp, "%s/pnsolve-serve-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(p->tmp))
            return p->tmp[0] = 0, util_error(err, errlen, "cannot make a temporary directory: %s", strerror(errno));
    }
    snprintf(x->path, sizeof x->path, "%s/proof-XXXXXX", p->tmp);
    int fd = mkstemp(x->path);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        if (fd >= 0)
            close(fd), unlink(x->path);
        return util_error(err, errlen, "cannot make a temporary file: %s", strerror(errno));
    }
    x->expanded = 1;
    lzma_stream z = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
        fclose(out);
        return util_error(err, errlen, "xz: cannot start the decoder");
    }
    static __thread uint8_t in[1 << 16], buf[1 << 16];
    uint64_t total = 0;
    lzma_ret ret = LZMA_OK;
    int rc = 0;
    while (ret == LZMA_OK) {
        if (z.avail_in == 0 && !feof(src)) {
            z.next_in = in;
            z.avail_in = fread(in, 1, sizeof in, src);
        }
        z.next_out = buf;
        z.avail_out = sizeof buf;
        ret = lzma_code(&z, feof(src) && z.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
        size_t got = sizeof buf - z.avail_out;
        total += got;
        if (total > p->max_bytes) {
            rc = util_error(err, errlen, "more than %llu bytes expanded, more than this server reads",
                            (unsigned long long)p->max_bytes);
            break;
        }
        if (got && fwrite(buf, 1, got, out) != got) {
            rc = util_error(err, errlen, "cannot write the expansion: %s", strerror(errno));
            break;
        }
    }
    if (rc == 0 && ret != LZMA_STREAM_END)
        rc = util_error(err, errlen, "not a whole xz file (liblzma error %d)", (int)ret);
    lzma_end(&z);
    if (fclose(out) != 0 && rc == 0)
        rc = util_error(err, errlen, "cannot write the expansion: %s", strerror(errno));
    return rc;
}

/* A header line "key value" into x. */
static void header_line(proof_index *x, const char *line)
{
    struct { const char *key; char *into; size_t len; } keys[] = {
        { "game ", x->game, sizeof x->game },       { "position ", x->position, sizeof x->position },
        { "prover ", x->prover, sizeof x->prover }, { "question ", x->question, sizeof x->question },
        { "result ", x->result, sizeof x->result },
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strncmp(line, keys[k].key, strlen(keys[k].key)) == 0)
            snprintf(keys[k].into, keys[k].len, "%s", line + strlen(keys[k].key));
}

/* The index of x's text: 0, or -1 with err. */
static int build(proof_index *x, uint64_t max_lines, char *err, size_t errlen)
{
    static __thread uint32_t stack[DEPTH_MAX];
    uint64_t cap = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    int top = -1, rc = 0;
    for (uint64_t at = 0; (len = getline(&line, &lcap, x->f)) > 0; at += (uint64_t)len) {
        if (len > 0 && line[len - 1] == '\n')
            line[len - 1] = 0;
        if (line[0] < '0' || line[0] > '9') {
            if (x->n == 0)
                header_line(x, line);
            continue;
        }
        char *end;
        long depth = strtol(line, &end, 10);
        if (depth < 0 || depth >= DEPTH_MAX || depth > top + 1 || (x->n == 0) != (depth == 0)) {
            rc = util_error(err, errlen, "line %llu of the tree: depth %ld out of place (or past %d)",
                            (unsigned long long)x->n, depth, DEPTH_MAX);
            break;
        }
        if (x->n == max_lines) {
            rc = util_error(err, errlen, "more than %llu lines, more than this server indexes",
                            (unsigned long long)max_lines);
            break;
        }
        if (x->n == cap) {
            cap = cap ? 2 * cap : 4096;
            uint64_t *o = realloc(x->offset, cap * sizeof *o);
            uint32_t *pa = realloc(x->parent, cap * sizeof *pa), *en = realloc(x->end, cap * sizeof *en);
            x->offset = o ? o : x->offset, x->parent = pa ? pa : x->parent, x->end = en ? en : x->end;
            if (!o || !pa || !en) {
                rc = util_error(err, errlen, "out of memory for the index");
                break;
            }
        }
        uint32_t i = (uint32_t)x->n++;
        for (; top >= depth; top--)
            x->end[stack[top]] = i;
        x->offset[i] = at;
        x->parent[i] = depth ? stack[depth - 1] : UINT32_MAX;
        stack[++top] = i;
    }
    for (; top >= 0; top--)
        x->end[stack[top]] = (uint32_t)x->n;
    free(line);
    if (rc == 0 && x->n == 0)
        rc = util_error(err, errlen, "no tree in it: not a proof file");
    return rc;
}

/* The index of dir/name, built now or kept: NULL with err. */
static proof_index *index_of(serve_proofs *p, const char *name, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return util_error(err, errlen, "%s: %s", name, strerror(errno)), NULL;
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->cache[i]->name, name) == 0) {
            if (p->cache[i]->mtime == st.st_mtime && p->cache[i]->size == st.st_size)
                return p->cache[i];
            index_free(p->cache[i]);  /* the file changed: indexed again */
            p->cache[i] = p->cache[--p->n];
            break;
        }
    proof_index *x = calloc(1, sizeof *x);
    if (!x)
        return util_error(err, errlen, "out of memory"), NULL;
    snprintf(x->name, sizeof x->name, "%s", name);
    x->mtime = st.st_mtime, x->size = st.st_size;
    FILE *src = util_fopen_regular(path);
    unsigned char magic[6] = { 0 };
    int rc = src ? 0 : util_error(err, errlen, "%s: %s", name, strerror(errno));
    int xz = rc == 0 && fread(magic, 1, 6, src) == 6 && memcmp(magic, "\xfd" "7zXZ\0", 6) == 0;
    if (rc == 0) {
        rewind(src);
        if (xz) {
            rc = expand(p, src, x, err, errlen);
            fclose(src);
            x->f = rc == 0 ? fopen(x->path, "r") : NULL;
        } else if ((uint64_t)st.st_size > p->max_bytes) {
            fclose(src);
            rc = util_error(err, errlen, "more than %llu bytes, more than this server reads",
                            (unsigned long long)p->max_bytes);
        } else {
            snprintf(x->path, sizeof x->path, "%s", path);
            x->f = src;
        }
    }
    if (rc == 0 && !x->f)
        rc = util_error(err, errlen, "%s: cannot read its text", name);
    if (rc == 0)
        rc = build(x, (uint64_t)UINT32_MAX - 1, err, errlen);
    if (rc != 0) {
        index_free(x);
        return NULL;
    }
    if (p->n == CACHED) {
        index_free(p->cache[0]);
        memmove(&p->cache[0], &p->cache[1], sizeof p->cache[0] * (CACHED - 1));
        p->n--;
    }
    p->cache[p->n++] = x;
    return x;
}

/* Line i's fields: its move and kind, and what follows (args). */
static int read_node(proof_index *x, uint32_t i, char *move, char *kind, char *args, size_t len)
{
    char line[1200];
    if (fseeko(x->f, (off_t)x->offset[i], SEEK_SET) != 0 || !fgets(line, sizeof line, x->f))
        return -1;
    line[strcspn(line, "\n")] = 0;
    int depth, used = 0;
    move[0] = kind[0] = args[0] = 0;
    if (sscanf(line, "%d %255s %63s %n", &depth, move, kind, &used) < 3)
        return -1;
    snprintf(args, len, "%s", used ? line + used : "");
    return 0;
}

/* The position of node i: the root's, the moves down to i played. */
static int node_position(serve_ctx *c, proof_index *x, uint32_t i, char *out, size_t len)
{
    char err[1600], spec[300];
    const char *g = x->game;
    if (strncmp(g, "graph:", 6) == 0) {  /* a graph's file looked for beside the proof */
        const char *base = strrchr(g, '/');
        snprintf(spec, sizeof spec, "graph:%s", base ? base + 1 : g + 6);
        g = spec;
    }
    serve_game *sg = serve_game_get(c, g, err, sizeof err);
    game_state s;
    if (!sg || game_parse(sg->g, x->position, &s, err, sizeof err) != 0)
        return -1;
    uint32_t chain[DEPTH_MAX];
    int n = 0;
    for (uint32_t k = i; k != UINT32_MAX && k != 0 && n < DEPTH_MAX; k = x->parent[k])
        chain[n++] = k;
    while (n-- > 0) {
        char move[256], kind[64], args[8];
        game_move m;
        if (read_node(x, chain[n], move, kind, args, sizeof args) != 0 ||
            game_parse_move(sg->g, &s, move, &m, err, sizeof err) != 0)
            return -1;
        game_play(sg->g, &s, m);
    }
    game_format(sg->g, &s, out, len);
    return 0;
}

static json_t *node_json(proof_index *x, uint32_t i)
{
    char move[256], kind[64], args[1024];
    if (read_node(x, i, move, kind, args, sizeof args) != 0)
        return NULL;
    json_t *o = json_pack("{sI ss ss ss sI}", "node", (json_int_t)i, "move", move, "kind", kind, "args", args,
                          "descendants", (json_int_t)(x->end[i] - i - 1));
    return o;
}

void serve_proofs_node(serve_ctx *c, const char *file, const char *node, serve_reply *r)
{
    serve_proofs *p = c->proof_files;
    char path[PATH_MAX], err[1600];
    if (!p->dir[0])
        return serve_error(r, 404, "no proofs are served (--proofs DIR)");
    if (!file)
        return serve_error(r, 400, "file: missing");
    if (serve_confined(p->dir, file, path, sizeof path, err, sizeof err) != 0)
        return serve_error(r, 400, "file: %s", err);
    char *end;
    unsigned long k = node ? strtoul(node, &end, 10) : 0;
    if (node && (!*node || *end))
        return serve_error(r, 400, "node: '%s' is not a line number", node);
    pthread_mutex_lock(&p->lock);
    proof_index *x = index_of(p, file, path, err, sizeof err);
    if (!x) {
        pthread_mutex_unlock(&p->lock);
        return serve_error(r, 400, "file: %s", err);
    }
    if (k >= x->n) {
        uint64_t n = x->n;
        pthread_mutex_unlock(&p->lock);
        return serve_error(r, 400, "node: %lu past the tree's %llu lines", k, (unsigned long long)n);
    }
    uint32_t i = (uint32_t)k;
    json_t *o = node_json(x, i);
    if (!o) {
        pthread_mutex_unlock(&p->lock);
        return serve_error(r, 500, "file: line %u cannot be read", i);
    }
    json_object_set_new(o, "file", json_string(file));
    json_object_set_new(o, "claim", json_pack("{ss ss ss ss ss}", "game", x->game, "position", x->position, "prover",
                                              x->prover, "question", x->question, "result", x->result));
    json_object_set_new(o, "lines", json_integer((json_int_t)x->n));
    json_object_set_new(o, "parent", x->parent[i] == UINT32_MAX ? json_null() : json_integer(x->parent[i]));
    char pos[GAME_TEXT_MAX];
    json_object_set_new(o, "position", node_position(c, x, i, pos, sizeof pos) == 0 ? json_string(pos) : json_null());
    json_t *kids = json_array();
    int more = 0;
    for (uint32_t ch = i + 1; ch < x->end[i]; ch = x->end[ch]) {
        if (json_array_size(kids) == CHILDREN_MAX) {
            more = 1;
            break;
        }
        json_t *kj = node_json(x, ch);
        if (kj)
            json_array_append_new(kids, kj);
    }
    pthread_mutex_unlock(&p->lock);
    json_object_set_new(o, "children", kids);
    json_object_set_new(o, "children_cut", json_boolean(more));
    serve_json(r, 200, o);
}
