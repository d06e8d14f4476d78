/* proof/join.c - one proof from proofs of a position's children, so that
 * a question split by its first move (each child searched on its own
 * machine or core) ends in a single file the checker reads whole.
 *
 * Score proofs join too: a child's file holds the two bounds of its score
 * (as `prove --score --proof` writes them), and the join writes the root's
 * two: at least the best child's lower bound (that child's proof alone) and
 * below the greatest of the children's upper bounds (every child's).  A
 * frontier several moves deep joins level by level. */
#include "proof.h"
#include "../util/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* What a proof shows, whatever words its header uses: which side it is for
 * (the claim side: it has one move listed where it is to move) and whether
 * a draw counts for that side.  "can X force a win?" disproven and "can Y
 * avoid losing?" proven are the same claim, with the same tree. */
typedef struct {
    int side, draw_counts;
    int score;       /* a score claim: the root's mover finishes at least (side = mover) or less than bound */
    long bound;
} claim;

typedef struct {
    claim c;
    game_key key;    /* its position */
    int move;        /* the first root move to it */
    uint64_t lines;  /* tree lines: the ids it takes */
} child_info;

static int join_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int join_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Adds a child's 'table NAME HASH' line to the joined header's lines in
 * *all (each table once); 0, or -1 with err when two children name two
 * different tables of one material. */
static int add_table(char **all, const char *line, int k, char *err, size_t errlen)
{
    char name[64], hash[128];
    if (sscanf(line, "table %63s %127s", name, hash) != 2)
        return join_fail(err, errlen, "proof %d: bad table line", k + 1);
    size_t len = *all ? strlen(*all) : 0;
    for (char *at = *all; at && *at; at = strchr(at, '\n') + 1) {
        char n2[64], h2[128];
        if (sscanf(at, "table %63s %127s", n2, h2) == 2 && strcmp(n2, name) == 0) {
            if (strcmp(h2, hash) != 0)
                return join_fail(err, errlen, "proof %d rests on another table %s than the proofs before it", k + 1,
                                 name);
            return 0;
        }
    }
    char *grown = realloc(*all, len + strlen(line) + 2);
    if (!grown)
        return join_fail(err, errlen, "out of memory");
    sprintf(grown + len, "%s\n", line);
    *all = grown;
    return 0;
}

/* Checks child k's complete header h (read up to its first tree line,
 * line) for a join into game g: 0, or -1 with err. */
static int header_done(const proof_header *h, int k, const game *g, const char *line, char *err, size_t errlen)
{
    if (h->version < PROOF_VERSION_OLDEST || h->version > PROOF_VERSION)
        return join_fail(err, errlen, "proof %d is of format version %ld (this program reads %d to %d)", k + 1,
                         h->version, PROOF_VERSION_OLDEST, PROOF_VERSION);
    if (!*h->spec || !*h->pos || h->prover < 0 || !*h->question || !*h->result)
        return join_fail(err, errlen, "proof %d: incomplete or unknown header", k + 1);
    if (strcmp(h->spec, g->name) != 0)
        return join_fail(err, errlen, "proof %d is of the game '%.200s', not '%.200s'", k + 1, h->spec, g->name);
    if (strcmp(h->content, g->content) != 0)
        return join_fail(err, errlen, "proof %d is of another content of %.200s (its game-blake2b differs)", k + 1, g->name);
    if (strcmp(h->question, "advantage") != 0 && strcmp(h->question, "win") != 0 && strcmp(h->question, "score") != 0)
        return join_fail(err, errlen, "proof %d: an unknown question '%s'", k + 1, h->question);
    if (strcmp(line, "0 -") != 0 && strncmp(line, "0 - ", 4) != 0)
        return join_fail(err, errlen, "proof %d: its tree does not start at its root", k + 1);
    return 0;
}

/* Reads child k's header, works out which root move leads to its position,
 * and counts its tree lines; its table lines go to *tables.  0, or -1 with
 * err. */
/* The claim of a proof with header h, a score claim put in terms of the
 * root's mover: "the other side finishes at least K" is "the mover finishes
 * at most -K", so less than the next score the game can end with, and "the
 * other side finishes less than K" is "the mover finishes at least the
 * first such score above -K": the same tree either way. */
static claim claim_of(const game *g, const proof_header *h, int mover)
{
    int proven = strcmp(h->result, "proven") == 0;
    claim c = { .side = proven ? (int)h->prover : 1 - (int)h->prover };
    if (strcmp(h->question, "score") == 0) {
        c.score = 1;
        c.bound = h->target;
        if (h->prover != mover)
            for (c.bound = 1 - h->target; c.bound < game_score_bound(g) && !game_score_possible(g, (int)c.bound);)
                c.bound++;
    } else {
        c.draw_counts = proven == (strcmp(h->question, "advantage") == 0);
    }
    return c;
}

static int read_child(const game *g, int mover, const game_key *move_key, int n, FILE *in, int k, child_info *ci,
                      char **tables, char *err, size_t errlen)
{
    char *line = NULL, why[256];
    size_t cap = 0;
    int rc = -1;
    proof_header *h = malloc(sizeof *h);
    if (!h)
        return join_fail(err, errlen, "out of memory");
    proof_header_clear(h);
    ci->lines = 0;
    ci->move = -1;
    long at = 0, got;
    while ((got = util_read_line(in, &line, &cap, &at, why, sizeof why)) != -1) {
        if (got < 0) {
            join_fail(err, errlen, "proof %d: %s", k + 1, why);
            goto out;
        }
        if (line[0] == '#' || line[0] == 0)  /* as copy_child skips them */
            continue;
        if (strncmp(line, "pnsolve-proof ", 14) == 0 && (ci->lines > 0 || h->version >= 0)) {
            join_fail(err, errlen, "proof %d holds more than one proof", k + 1);
            goto out;
        }
        if (ci->lines == 0) {
            int hr = proof_header_read(h, line, why, sizeof why);
            if (hr < 0) {
                join_fail(err, errlen, "proof %d: %s", k + 1, why);
                goto out;
            }
            if (hr > 0)
                continue;
            if (header_done(h, k, g, line, err, errlen) != 0)
                goto out;
        } else if (strncmp(line, "0 ", 2) == 0) {
            join_fail(err, errlen, "proof %d: a second root", k + 1);
            goto out;
        }
        ci->lines++;
    }
    if (ci->lines == 0) {
        join_fail(err, errlen, "proof %d: no proof tree", k + 1);
        goto out;
    }
    for (int i = 0; i < h->ntables; i++) {
        char t[128];
        snprintf(t, sizeof t, "table %s %s", h->table_name[i], h->table_hash[i]);
        if (add_table(tables, t, k, err, errlen) != 0)
            goto out;
    }
    ci->c = claim_of(g, h, mover);
    game_state s;
    if (game_parse(g, h->pos, &s, why, sizeof why) != 0) {
        join_fail(err, errlen, "proof %d: %s", k + 1, why);
        goto out;
    }
    ci->key = game_key_of(g, &s);
    for (int i = 0; i < n && ci->move < 0; i++)
        if (game_key_equal(move_key[i], ci->key))
            ci->move = i;
    if (ci->move < 0) {
        join_fail(err, errlen, "proof %d: its position %s follows no move of the root", k + 1, h->pos);
        goto out;
    }
    rc = 0;
out:
    free(h);
    free(line);
    return rc;
}

/* Copies child in's tree below the root: one ply deeper, its root line
 * named by the move, its node ids shifted by offset; the root line's kind
 * and reason go to root_kind. */
static int copy_child(FILE *in, const char *move, uint64_t offset, FILE *out, char *root_kind, size_t kind_len, int k,
                      char *err, size_t errlen)
{
    char *line = NULL, why[256];
    size_t cap = 0;
    int in_tree = 0, rc = 0;
    long at = 0, got;
    while (rc == 0 && (got = util_read_line(in, &line, &cap, &at, why, sizeof why)) != -1) {
        if (got < 0) {
            rc = join_fail(err, errlen, "proof %d: %s", k + 1, why);
            break;
        }
        if (!in_tree && strcmp(line, "0 -") != 0 && strncmp(line, "0 - ", 4) != 0)
            continue;  /* the header */
        if (line[0] == '#' || line[0] == 0)
            continue;
        in_tree = 1;
        char *save, *depth = strtok_r(line, " \t", &save), *mv = strtok_r(NULL, " \t", &save);
        char *kind = strtok_r(NULL, " \t", &save), *rest = strtok_r(NULL, "", &save);
        long d;
        /* the checker bounds a path far below this: what it refuses, it names */
        if (util_read_long(depth, 0, 1L << 30, &d) != 0 || !mv || !kind) {
            rc = join_fail(err, errlen, "proof %d line %ld: expected 'DEPTH MOVE KIND' with DEPTH 0 to 2^30", k + 1, at);
            break;
        }
        if (d == 0)
            snprintf(root_kind, kind_len, "%s%s%s", kind, rest ? " " : "", rest ? rest : "");
        fprintf(out, "%ld %s %s", d + 1, d == 0 ? move : mv, kind);
        if (strcmp(kind, "rep") == 0 || strcmp(kind, "ref") == 0 || strcmp(kind, "sym") == 0) {
            uint64_t id;
            if (util_read_u64(rest, 0, UINT64_MAX - offset, &id) != 0) {
                rc = join_fail(err, errlen, "proof %d line %ld: '%s' needs one node id (and nothing after it)", k + 1, at, kind);
                break;
            }
            fprintf(out, " %llu", (unsigned long long)(id + offset));
        } else if (rest) {
            fprintf(out, " %s", rest);
        }
        fputc('\n', out);
    }
    free(line);
    return rc;
}

/* Joins the n_child one-proof files child into one proof of root on out;
 * its claim into *joined. */
/* A join in progress: the root's moves, the positions they reach, and which
 * child's file answers each. */
typedef struct {
    const game *g;
    const game_state *root;
    game_move moves[GAME_MAX_MOVES];
    int n, mover, sym;
    game_key move_key[GAME_MAX_MOVES], move_sym[GAME_MAX_MOVES];  /* of the position each move reaches */
    /* by[i]: 1 + the child whose file answers move i; where none does,
     * copy[i]: 1 + the child whose position move i reaches too, mirror[i]:
     * 1 + the child whose position move i reaches a symmetric image of */
    int by[GAME_MAX_MOVES], copy[GAME_MAX_MOVES], mirror[GAME_MAX_MOVES];
    child_info *ci;
    int n_child;
    char *tables;  /* the children's 'table' lines */
} join;

/* Reads every child's header and tree shape into J->ci and the claim they
 * share into *c: 0, or -1 with err. */
static int join_read(join *J, FILE **child, const int *file, claim *c, char *err, size_t errlen)
{
    child_info *ci = J->ci;
    for (int k = 0; k < J->n_child; k++) {
        if (read_child(J->g, J->mover, J->move_key, J->n, child[k], file[k], &ci[k], &J->tables, err, errlen) != 0)
            return -1;
        int first = ci[k].move;  /* several moves may lead to one position: the first not answered */
        while (ci[k].move < J->n && (J->by[ci[k].move] || !game_key_equal(J->move_key[ci[k].move], ci[k].key)))
            ci[k].move++;
        if (ci[k].move == J->n) {
            char mv[GAME_TEXT_MAX];
            game_format_move(J->g, J->root, J->moves[first], mv, sizeof mv);
            return join_fail(err, errlen, "two proofs after the move %s", mv);
        }
        J->by[ci[k].move] = k + 1;
        if (ci[k].c.side != ci[0].c.side)
            return join_fail(err, errlen, "proof %d is a proof for the other side than proof %d", file[k] + 1, file[0] + 1);
        if (ci[k].c.score != ci[0].c.score)
            return join_fail(err, errlen, "proof %d is %sa score proof and proof %d is %s", file[k] + 1,
                             ci[k].c.score ? "" : "not ", file[0] + 1, ci[0].c.score ? "one" : "not");
        /* a tree that shows a win shows "avoids losing" too, and one that
         * shows a score beyond a bound shows the bound: the join claims the
         * weakest */
        c->side = ci[k].c.side;
        c->score = ci[k].c.score;
        c->draw_counts |= ci[k].c.draw_counts;
        if (k == 0 || (c->side == J->mover ? ci[k].c.bound < c->bound : ci[k].c.bound > c->bound))
            c->bound = ci[k].c.bound;
    }
    return 0;
}

/* The claim side needs one move at the root, the other side an answer to
 * every one: a child's proof, the same position's, or its symmetric
 * image's.  0, or -1 with err. */
static int join_cover(join *J, const claim *c, char *err, size_t errlen)
{
    if (c->side == J->mover && J->n_child != 1)
        return join_fail(err, errlen, "the claim's side moves at the root: give the proof after one move, not %d",
                         J->n_child);
    for (int i = 0; i < J->n; i++)
        for (int k = 0; k < J->n_child && !J->by[i] && !J->copy[i]; k++)
            if (game_key_equal(J->move_key[i], J->ci[k].key))
                J->copy[i] = k + 1;
    for (int i = 0; i < J->n && J->sym && c->side != J->mover; i++)
        for (int k = 0; k < J->n_child && !J->by[i] && !J->copy[i] && !J->mirror[i]; k++)
            if (game_key_equal(J->move_sym[i], J->move_sym[J->ci[k].move]))
                J->mirror[i] = k + 1;
    for (int i = 0; c->side != J->mover && i < J->n; i++)
        if (!J->by[i] && !J->copy[i] && !J->mirror[i]) {
            char mv[GAME_TEXT_MAX];
            game_format_move(J->g, J->root, J->moves[i], mv, sizeof mv);
            return join_fail(err, errlen, "no proof after the move %s", mv);
        }
    return 0;
}

/* Writes the joined proof of claim c: the header (asking about the root's
 * mover; proven iff the claim is his), then each child's tree under its
 * move, and the other moves' lines naming it.  0, or -1 with err. */
static int join_write(join *J, FILE **child, const int *file, const claim *c, FILE *out, char *err, size_t errlen)
{
    const game *g = J->g;
    char text[GAME_TEXT_MAX];
    game_format(g, J->root, text, sizeof text);
    int proven = c->side == J->mover, advantage = proven == c->draw_counts;
    char question[32];
    snprintf(question, sizeof question, "score %ld", c->bound);
    proof_claim claim = { g, text, J->mover, c->score ? question : advantage ? "advantage" : "win", proven };
    if (proof_header_write(out, &claim, NULL, NULL, J->tables, err, errlen) != 0)
        return -1;
    fprintf(out, "# joined from %d proofs of the root's children (pnsolve join-proofs)\n0 - node\n", J->n_child);
    uint64_t offset = 1;
    for (int k = 0; k < J->n_child; k++) {
        char mv[GAME_TEXT_MAX];
        game_format_move(g, J->root, J->moves[J->ci[k].move], mv, sizeof mv);
        if (fseek(child[k], 0, SEEK_SET) != 0)
            return join_fail(err, errlen, "proof %d cannot be read twice", file[k] + 1);
        char kind[GAME_TEXT_MAX];
        if (copy_child(child[k], mv, offset, out, kind, sizeof kind, file[k], err, errlen) != 0)
            return -1;
        uint64_t at = offset;
        offset += J->ci[k].lines;
        /* the other moves to it name its line, or repeat it where it is a leaf
         * (an end has no ref); moves to a symmetric image name it as one */
        for (int i = 0; i < J->n && !proven; i++)
            if (J->copy[i] == k + 1 || J->mirror[i] == k + 1) {
                game_format_move(g, J->root, J->moves[i], mv, sizeof mv);
                if (J->mirror[i] || strcmp(kind, "node") == 0)
                    fprintf(out, "1 %s %s %llu\n", mv, J->mirror[i] ? "sym" : "ref", (unsigned long long)at);
                else
                    fprintf(out, "1 %s %s\n", mv, kind);
                offset++;
            }
    }
    return ferror(out) ? join_fail(err, errlen, "cannot write the joined proof") : 0;
}

static int join_claim(const game *g, const game_state *root, FILE **child, const int *file, int n_child, FILE *out,
                      claim *joined, char *err, size_t errlen)
{
    join J;
    memset(&J, 0, sizeof J);
    J.g = g;
    J.root = root;
    J.n = game_moves(g, root, J.moves);
    if (J.n == 0)
        return join_fail(err, errlen, "the root has no moves: nothing to join");
    if (n_child < 1)
        return join_fail(err, errlen, "no proofs to join");
    if (!(J.ci = calloc((size_t)n_child, sizeof *J.ci)))
        return join_fail(err, errlen, "out of memory");
    J.n_child = n_child;
    J.mover = game_to_move(g, root);
    J.sym = game_has_symmetry(g);
    for (int i = 0; i < J.n; i++) {
        game_state c = *root;
        game_play(g, &c, J.moves[i]);
        J.move_key[i] = game_key_of(g, &c);
        if (J.sym)
            J.move_sym[i] = game_symmetric_key(g, &c);
    }
    claim c = { 0 };
    int rc = join_read(&J, child, file, &c, err, errlen) == 0 && join_cover(&J, &c, err, errlen) == 0 &&
                     join_write(&J, child, file, &c, out, err, errlen) == 0 ? 0 : -1;
    if (rc == 0)
        *joined = c;
    free(J.tables);
    free(J.ci);
    return rc;
}

/* Puts the proofs of the score file in (each from its 'pnsolve-proof'
 * line) in sec[*n ...], a temporary file each (owned[i] set: to close).  0,
 * or -1 with err. */
static int split_proofs(FILE *in, int k, FILE **sec, int *owned, int max, int *n, char *err, size_t errlen)
{
    char *line = NULL, why[256];
    size_t cap = 0;
    FILE *cur = NULL;
    int rc = 0;
    long at = 0, got;
    while (rc == 0 && (got = util_read_line(in, &line, &cap, &at, why, sizeof why)) != -1) {
        if (got < 0) {
            rc = join_fail(err, errlen, "proof %d: %s", k + 1, why);
            break;
        }
        if (strncmp(line, "pnsolve-proof ", 14) == 0 || !cur) {
            if (*n == max)
                rc = join_fail(err, errlen, "proof %d: too many proofs to join", k + 1);
            else if (!(cur = sec[*n] = tmpfile()))
                rc = join_fail(err, errlen, "no temporary file for proof %d", k + 1);
            else
                owned[(*n)++] = 1;
        }
        if (rc == 0 && fprintf(cur, "%s\n", line) < 0)
            rc = join_fail(err, errlen, "cannot copy proof %d", k + 1);
    }
    free(line);
    return rc;
}

/* The claim of the one proof in f (read from its start, left there). */
static int peek_claim(const game *g, FILE *f, int mover, int k, claim *c, char *err, size_t errlen)
{
    proof_header *h = malloc(sizeof *h);
    char *line = NULL, why[256];
    size_t cap = 0;
    int rc = -1;
    if (!h)
        return join_fail(err, errlen, "out of memory");
    proof_header_clear(h);
    rewind(f);
    long at = 0, got;
    while ((got = util_read_line(f, &line, &cap, &at, why, sizeof why)) != -1) {
        if (got < 0) {
            join_fail(err, errlen, "proof %d: %s", k + 1, why);
            goto out;
        }
        if (line[0] == '#' || line[0] == 0)
            continue;
        int hr = proof_header_read(h, line, why, sizeof why);
        if (hr < 0) {
            join_fail(err, errlen, "proof %d: %s", k + 1, why);
            goto out;
        }
        if (hr == 0)
            break;
    }
    if (h->prover < 0 || !*h->question || !*h->result) {
        join_fail(err, errlen, "proof %d: incomplete or unknown header", k + 1);
        goto out;
    }
    *c = claim_of(g, h, mover);
    rc = 0;
out:
    rewind(f);
    free(line);
    free(h);
    return rc;
}

int proof_join(const game *g, const game_state *root, FILE **child, int n_child, FILE *out, proof_join_info *info,
                    char *err, size_t errlen)
{
    proof_join_info none;
    info = info ? info : &none;
    memset(info, 0, sizeof *info);
    if (n_child < 1)
        return join_fail(err, errlen, "no proofs to join");
    /* each score file's proofs apart (it holds two, the bounds); a win or
     * advantage file is joined as it is, read only by the join */
    int max = 2 * n_child, n = 0, rc = -1, mover = game_to_move(g, root);
    FILE **sec = calloc((size_t)max, sizeof *sec);
    int *owned = calloc((size_t)max, sizeof *owned), *file = calloc((size_t)max, sizeof *file);
    claim *c = calloc((size_t)max, sizeof *c);
    if (!sec || !owned || !file || !c) {
        join_fail(err, errlen, "out of memory");
        goto out;
    }
    for (int k = 0; k < n_child; k++) {
        int from = n;
        if (n == max) {
            join_fail(err, errlen, "proof %d: too many proofs to join", k + 1);
            goto out;
        }
        if (peek_claim(g, child[k], mover, k, &c[n], err, errlen) != 0)
            goto out;
        if (!c[n].score) {
            file[n] = k;
            sec[n++] = child[k];
            continue;
        }
        if (split_proofs(child[k], k, sec, owned, max, &n, err, errlen) != 0)
            goto out;
        for (int i = from; i < n; i++) {
            file[i] = k;
            if (peek_claim(g, sec[i], mover, k, &c[i], err, errlen) != 0)
                goto out;
            if (n - from > 1 && !c[i].score) {
                join_fail(err, errlen, "proof %d holds more than one proof", k + 1);
                goto out;
            }
        }
        if (n == from) {
            join_fail(err, errlen, "proof %d: no proof tree", k + 1);
            goto out;
        }
    }
    if (!c[0].score) {
        claim j;
        rc = join_claim(g, root, sec, file, n, out, &j, err, errlen);
        goto out;
    }
    /* score proofs: the best lower bound alone, then every upper bound */
    FILE **pick = calloc((size_t)n, sizeof *pick);
    int *pick_file = calloc((size_t)n, sizeof *pick_file);
    if (!pick || !pick_file) {
        free(pick);
        join_fail(err, errlen, "out of memory");
        goto out;
    }
    int best = -1, m = 0;
    for (int i = 0; i < n; i++)
        if (c[i].score && c[i].side == mover && (best < 0 || c[i].bound > c[best].bound))
            best = i;
    claim j;
    rc = 0;
    if (best >= 0) {
        pick[0] = sec[best];
        pick_file[0] = file[best];
        rc = join_claim(g, root, pick, pick_file, 1, out, &j, err, errlen);
        info->has_lower = rc == 0;
        info->lower = j.bound;
    }
    for (int i = 0; i < n; i++)
        if (!c[i].score || c[i].side != mover) {
            pick_file[m] = file[i];
            pick[m++] = sec[i];
        }
    if (rc == 0 && m > 0) {
        rc = join_claim(g, root, pick, pick_file, m, out, &j, err, errlen);
        info->has_upper = rc == 0;
        info->upper = j.bound;
    }
    if (rc == 0 && best < 0 && m == 0)
        rc = join_fail(err, errlen, "no score proofs");
    free(pick);
    free(pick_file);
out:
    for (int i = 0; i < n; i++)
        if (owned[i])
            fclose(sec[i]);
    free(sec);
    free(owned);
    free(file);
    free(c);
    return rc;
}
