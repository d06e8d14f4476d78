/* render/dot.c - pictures in Graphviz's DOT language (`dot -Tsvg` draws them):
 * a game's positions from one position (made for the GHI graphs), and the
 * tree of a proof file.  OR positions (player 0 to move) are boxes, AND
 * positions ellipses, finished games filled by their result; a move back
 * to a position on the path (a repetition) is dashed; in a proof the
 * prover's moves are bold and the lines that name another line (rep, ref,
 * sym) are edges to it. */
#include "render.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define DOT_MAX RENDER_DOT_MAX
#define DOT_DEPTH DOT_MAX /* a proof's depth drawn: no deeper than its lines */

/* Writes s quoted for DOT. */
static void dot_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s == '\n' ? ' ' : *s, out);
    }
    fputc('"', out);
}

/* The attributes of position s's node: its shape by the side to move, its
 * fill by the result of a finished game (seen from player 0). */
static void node_style(FILE *out, const game *g, const game_state *s)
{
    game_result r = game_result_of(g, s);
    if (r == GAME_ONGOING)
        fprintf(out, ", shape=%s", game_to_move(g, s) == 0 ? "box" : "ellipse");
    else
        fprintf(out, ", shape=box, style=\"rounded,filled\", fillcolor=%s, xlabel=\"%s\"",
                r == GAME_WIN0 ? "palegreen" : r == GAME_WIN1 ? "lightpink" : "lightgray",
                r == GAME_WIN0 ? "win" : r == GAME_WIN1 ? "loss" : "draw");
}

typedef struct {
    game_key key;
    game_state s;
    int next_move, on_path;
} dot_node;

static int find_node(const dot_node *nodes, int n, game_key k)
{
    for (int i = 0; i < n; i++)
        if (nodes[i].key.lo == k.lo && nodes[i].key.hi == k.hi)
            return i;
    return -1;
}

/* Every position reachable from nodes[0] and its moves, depth first (the
 * moves back onto the path dashed); 0, or -1 past DOT_MAX positions. */
static int walk_positions(const game *g, dot_node *nodes, int *count, FILE *out)
{
    int stack[DOT_MAX], depth = 1, n = 1;
    stack[0] = 0;
    nodes[0].on_path = 1;
    while (depth > 0) {
        dot_node *top = &nodes[stack[depth - 1]];
        game_move moves[GAME_MAX_MOVES];
        int nm = game_result_of(g, &top->s) == GAME_ONGOING ? game_moves(g, &top->s, moves) : 0;
        if (top->next_move >= nm) {
            top->on_path = 0;
            depth--;
            continue;
        }
        game_move m = moves[top->next_move++];
        game_state t = top->s;
        char name[GAME_TEXT_MAX];  /* a graph's node names run long: uncut */
        game_format_move(g, &top->s, m, name, sizeof name);
        game_play(g, &t, m);
        int from = stack[depth - 1], to = find_node(nodes, n, game_key_of(g, &t));
        if (to < 0) {
            if (n == DOT_MAX)
                return -1;
            to = n++;
            nodes[to] = (dot_node){ game_key_of(g, &t), t, 0, 0 };
        }
        fprintf(out, "  n%d -> n%d [label=", from, to);
        dot_string(out, name);
        fprintf(out, "%s];\n", nodes[to].on_path ? ", style=dashed, color=red, fontcolor=red, xlabel=\"cycle\"" : "");
        if (!nodes[to].on_path && nodes[to].next_move == 0 && to == n - 1) {
            nodes[to].on_path = 1;
            stack[depth++] = to;
        }
    }
    *count = n;
    return 0;
}

/* The picture's output: path's temporary file, renamed when complete, or
 * standard output for "-" (as '-' is standard input elsewhere). */
static int out_create(util_file *f, const char *path, char *err, size_t errlen)
{
    if (strcmp(path, "-") != 0)
        return util_file_create(f, path, "w", err, errlen);
    memset(f, 0, sizeof *f);
    f->f = stdout;
    return 0;
}

static int out_commit(util_file *f, int ok, char *err, size_t errlen)
{
    if (f->f != stdout)
        return util_file_commit(f, ok, err, errlen);
    return fflush(stdout) == 0 || !ok ? 0 : util_error(err, errlen, "standard output: cannot write it");
}

int render_dot_positions(const game *g, const game_state *s, const char *path, char *err, size_t errlen)
{
    char why[4400];
    util_file f;
    dot_node *nodes = malloc(DOT_MAX * sizeof *nodes);
    if (!nodes)
        return util_error(err, errlen, "out of memory");
    if (out_create(&f, path, why, sizeof why) != 0) {
        free(nodes);
        return util_error(err, errlen, "cannot write the picture: %s", why);
    }
    fprintf(f.f, "digraph positions {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n");
    nodes[0] = (dot_node){ game_key_of(g, s), *s, 0, 0 };
    int n = 0, rc = walk_positions(g, nodes, &n, f.f);
    for (int i = 0; rc == 0 && i < n; i++) {
        char text[GAME_TEXT_MAX];
        game_format(g, &nodes[i].s, text, sizeof text);
        fprintf(f.f, "  n%d [label=", i);
        dot_string(f.f, text);
        node_style(f.f, g, &nodes[i].s);
        fprintf(f.f, "%s];\n", i == 0 ? ", penwidth=2" : "");
    }
    fputs("}\n", f.f);
    free(nodes);
    if (rc != 0) {
        out_commit(&f, 0, NULL, 0);
        return util_error(err, errlen, "more than %d positions: too many to draw, nothing written", DOT_MAX);
    }
    if (out_commit(&f, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write the picture: %s", why);
    return 0;
}

/* One line of a proof's tree drawn: a node (node, end, tb, exact) with the
 * edge from its parent, or an edge to the line it names (rep, ref, sym).
 * 0, or -1 with err. */
typedef struct {
    const game *g;
    int prover, lines;
    game_state at[DOT_DEPTH + 1];
    int line_at[DOT_DEPTH + 1];
    char prefix[16];  /* of the node names: "" for a file's first proof, "p1" for its second (a score's bounds) */
} proof_walk;

static int draw_line(proof_walk *w, FILE *out, int no, const char *text, char *err, size_t errlen)
{
    int depth, at = 0, used = 0;
    char move[GAME_TEXT_MAX], kind[16];
    long target = -1;
    size_t mlen = 0;
    if (sscanf(text, "%d %n", &depth, &at) == 1 && at > 0) {  /* the move as long as it is */
        mlen = strcspn(text + at, " \t");
        if (mlen > 0 && mlen < sizeof move)
            memcpy(move, text + at, mlen), move[mlen] = 0, at += (int)mlen, at += (int)strspn(text + at, " \t");
    }
    if (mlen == 0 || mlen >= sizeof move || sscanf(text + at, "%15s %n", kind, &used) < 1 || depth < 0 ||
        depth > DOT_DEPTH || (depth > 0 && w->line_at[depth - 1] < 0))
        return util_error(err, errlen, "line %d: not a line of a proof tree", no);
    const char *rest = text + at;
    game_state s = depth ? w->at[depth - 1] : w->at[0];
    if (depth > 0) {
        game_move m;
        if (game_parse_move(w->g, &s, move, &m, err, errlen) != 0)
            return util_error(err, errlen, "line %d: move %s: not legal there", no, move);
        game_play(w->g, &s, m);
    }
    int names = strcmp(kind, "rep") == 0 || strcmp(kind, "ref") == 0 || strcmp(kind, "sym") == 0;
    if (names && sscanf(rest + used, "%ld", &target) != 1)
        return util_error(err, errlen, "line %d: %s names no line", no, kind);
    if (!names) {
        char label[GAME_TEXT_MAX + 64];
        if (depth == 0)
            game_format(w->g, &s, label, sizeof label);
        else
            snprintf(label, sizeof label, "%s%s%s", move, strcmp(kind, "node") ? ": " : "", strcmp(kind, "node") ? rest : "");
        w->at[depth] = s;
        w->line_at[depth] = no;
        for (int d = depth + 1; d <= DOT_DEPTH && w->line_at[d] >= 0; d++)
            w->line_at[d] = -1;
        fprintf(out, "  %sl%d [label=", w->prefix, no);
        dot_string(out, label);
        node_style(out, w->g, &s);
        fprintf(out, "];\n");
    }
    if (depth > 0) {
        int mover = game_to_move(w->g, &w->at[depth - 1]);
        fprintf(out, "  %sl%d -> %sl%ld [label=", w->prefix, w->line_at[depth - 1], w->prefix, names ? target : (long)no);
        dot_string(out, move);
        fprintf(out, "%s%s];\n", mover == w->prover ? ", style=bold, penwidth=2" : "",
                strcmp(kind, "rep") == 0   ? ", style=dashed, color=red, xlabel=\"repetition\""
                : names                    ? ", style=dotted, xlabel=\"same position\""
                                           : "");
    }
    return 0;
}

/* Reads a proof's header from in (its first line already in line) up to
 * its tree's first line, left in line: 0, or -1 with err. */
static int read_header(FILE *in, proof_header *h, char *line, size_t len, char *err, size_t errlen)
{
    proof_header_clear(h);
    int head = *line == '#' ? 1 : proof_header_read(h, line, err, errlen);
    while (head == 1 && fgets(line, (int)len, in)) {
        line[strcspn(line, "\n")] = 0;
        head = *line == '#' ? 1 : proof_header_read(h, line, err, errlen);  /* a comment */
    }
    if (head == 1)
        snprintf(err, errlen, "no tree");
    return head == 0 ? 0 : -1;
}

/* Starts walking the tree of header h (the n-th proof of its file, from 0):
 * the root's state, the prover, the node names' prefix. */
static int walk_start(proof_walk *w, const proof_header *h, int n, char *err, size_t errlen)
{
    if (game_parse(w->g, h->pos, &w->at[0], err, errlen) != 0)
        return -1;
    w->prover = (int)h->prover;
    w->lines = 0;
    for (int d = 0; d <= DOT_DEPTH; d++)
        w->line_at[d] = -1;
    snprintf(w->prefix, sizeof w->prefix, n ? "p%d" : "", n);
    return 0;
}

/* The title of a proof: its game, position, question and result. */
static void proof_title(FILE *out, const proof_header *h)
{
    char title[GAME_NAME_MAX + GAME_TEXT_MAX + 80];
    snprintf(title, sizeof title, "%s %s: %s %s", h->spec, h->pos, h->question, h->result);
    dot_string(out, title);
}

int render_dot_proof(const char *proof_path, const char *path, char *error, size_t errorlen)
{
    char err[4400], line[8192] = "";
    FILE *in = util_fopen_regular(proof_path);
    proof_header *h = calloc(1, sizeof *h);
    proof_walk *w = calloc(1, sizeof *w);
    game *g = NULL;
    util_file f;
    int rc = -1, proofs = 1, total = 0;
    if (!in || !h || !w || !fgets(line, sizeof line, in)) {
        snprintf(err, sizeof err, "%s: cannot read it", proof_path);
        goto out;
    }
    line[strcspn(line, "\n")] = 0;
    if (read_header(in, h, line, sizeof line, err, sizeof err) != 0 || proof_header_game(h, &g, err, sizeof err) != 0)
        goto out;
    w->g = g;
    if (walk_start(w, h, 0, err, sizeof err) != 0 || out_create(&f, path, err, sizeof err) != 0)
        goto out;
    fprintf(f.f, "digraph proof {\n  node [fontname=\"Helvetica\"];\n  label=");
    proof_title(f.f, h);
    fputs(";\n", f.f);
    rc = 0;
    for (int first = 1; rc == 0 && (first || fgets(line, sizeof line, in)); first = 0) {
        if (!first)
            line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "pnsolve-proof ", 14) == 0) {  /* a file of two proofs (a score's bounds): a cluster each */
            if ((rc = read_header(in, h, line, sizeof line, err, sizeof err)) != 0 ||
                (rc = walk_start(w, h, proofs, err, sizeof err)) != 0)
                break;
            fprintf(f.f, "%s  subgraph cluster_%d {\n  label=", proofs > 1 ? "  }\n" : "", proofs);
            proof_title(f.f, h);
            fputs(";\n", f.f);
            proofs++;
        }
        if (!*line || *line == '#')
            continue;
        if (++total > DOT_MAX) {
            rc = util_error(err, sizeof err, "more than %d lines: too big to draw, nothing written", DOT_MAX);
            break;
        }
        rc = draw_line(w, f.f, w->lines++, line, err, sizeof err);
    }
    fputs(proofs > 1 ? "  }\n}\n" : "}\n", f.f);
    if (rc == 0 && total == 0)
        rc = util_error(err, sizeof err, "no tree");
    if (out_commit(&f, rc == 0, rc ? NULL : err, sizeof err) != 0 && rc == 0)
        rc = -1;
out:
    if (in)
        fclose(in);
    free(h);
    free(w);
    game_close(g);
    return rc == 0 ? 0 : util_error(error, errorlen, "%s", err);
}
