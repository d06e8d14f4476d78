/* campaign/journal.c - the campaign's one file of state, DIR/journal: a
 * header naming the campaign, then one line a record, each appended and
 * flushed to the disk as it happens:
 *
 *   run WORKERS                 a run started with so many workers
 *   options TEXT                its search options (those that cannot change
 *                               an answer may differ from the header's)
 *   ask K POSITION              a question handed to a worker
 *   answer K proven|disproven NODES SOLVER_NODES SECONDS POSITION
 *   open K PN DN NODES SECONDS POSITION   not answered: the root's numbers when it stopped
 *   best MOVE POSITION          proven, its proof too big: the search's move
 *   deeper POSITION             split a move deeper
 *
 * A killed run leaves at most a last line without its newline, which is
 * ignored; answers whose proof files are gone are asked again. */
#include "internal.h"
#include "../util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Format 2 binds the game as a proof does: its canonical spec, variant
 * included, and the BLAKE2b of a file that defines it (format 1 bound a
 * graph by its path alone, so it is refused). */
#define JOURNAL_MAGIC "pnsolve-campaign 2"

const char *campaign_kind_word(campaign_kind kind, int k, char *buf, size_t len)
{
    switch (kind) {
    case CAMPAIGN_WIN: snprintf(buf, len, "win"); break;
    case CAMPAIGN_ADVANTAGE: snprintf(buf, len, "advantage"); break;
    case CAMPAIGN_AT_LEAST: snprintf(buf, len, "score:%d", k); break;
    case CAMPAIGN_SCORE: snprintf(buf, len, "score (guess %d)", k); break;
    }
    return buf;
}

/* A journal header's fields, as text: the spec, the game's canonical name
 * and its content's hash ("-" for none). */
typedef struct {
    char game[256], variant[64], canonical[GAME_NAME_MAX], content[65], position[GAME_TEXT_MAX], question[64];
    char depth[16], options[1024];
} header_fields;

static void fields_of(const campaign *c, header_fields *f)
{
    const campaign_spec *s = &c->spec;
    snprintf(f->game, sizeof f->game, "%s", s->game);
    snprintf(f->variant, sizeof f->variant, "%s", s->variant);
    snprintf(f->canonical, sizeof f->canonical, "%s", c->g->name);
    snprintf(f->content, sizeof f->content, "%s", c->g->content[0] ? c->g->content : "-");
    snprintf(f->position, sizeof f->position, "%s", s->position);
    campaign_kind_word(s->kind, s->k, f->question, sizeof f->question);
    snprintf(f->depth, sizeof f->depth, "%d", s->depth);
    snprintf(f->options, sizeof f->options, "%s", s->options);
}

#define NFIELDS 8
static const char *const field_name[NFIELDS] = { "game", "variant", "game-name", "game-blake2b", "position", "question",
                                                 "depth", "options" };

static char *field_at(header_fields *f, int i, size_t *size)
{
    char *at[NFIELDS] = { f->game, f->variant, f->canonical, f->content, f->position, f->question, f->depth, f->options };
    size_t sz[NFIELDS] = { sizeof f->game, sizeof f->variant, sizeof f->canonical, sizeof f->content, sizeof f->position,
                           sizeof f->question, sizeof f->depth, sizeof f->options };
    *size = sz[i];
    return at[i];
}

static void header_write(FILE *out, header_fields *f)
{
    fprintf(out, JOURNAL_MAGIC "\n");
    for (int i = 0; i < NFIELDS; i++) {
        size_t size;
        fprintf(out, "%s %s\n", field_name[i], field_at(f, i, &size));
    }
    fprintf(out, ".\n");
}

/* The fields of header text h (its lines after the magic, to "."). */
static int header_fields_read(const char *h, header_fields *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < NFIELDS; i++) {
        char at[32];
        snprintf(at, sizeof at, "\n%s ", field_name[i]);
        const char *p = strstr(h, at), *e;
        if (!p || !(e = strchr(p + strlen(at), '\n')))
            return snprintf(err, errlen, "the journal's header lacks its %s line", field_name[i]), -1;
        p += strlen(at);
        size_t size;
        char *to = field_at(f, i, &size);
        if ((size_t)(e - p) >= size)
            return snprintf(err, errlen, "the journal's %s line is too long", field_name[i]), -1;
        memcpy(to, p, (size_t)(e - p));
        to[e - p] = 0;
    }
    return 0;
}

/* The spec the fields name, into c->spec. */
static int spec_of_fields(campaign *c, const header_fields *f, char *err, size_t errlen)
{
    campaign_spec *s = &c->spec;
    long depth;
    snprintf(s->game, sizeof s->game, "%s", f->game);
    snprintf(s->variant, sizeof s->variant, "%s", f->variant);
    snprintf(s->position, sizeof s->position, "%s", f->position);
    snprintf(s->options, sizeof s->options, "%s", f->options);
    if (util_read_long(f->depth, 0, 64, &depth) != 0)
        return snprintf(err, errlen, "the journal's depth is not a number of moves"), -1;
    s->depth = (int)depth;
    const char *q = f->question;
    if (strcmp(q, "win") == 0) s->kind = CAMPAIGN_WIN, s->k = 1;
    else if (strcmp(q, "advantage") == 0) s->kind = CAMPAIGN_ADVANTAGE, s->k = 0;
    else if (sscanf(q, "score:%d", &s->k) == 1) s->kind = CAMPAIGN_AT_LEAST;
    else if (sscanf(q, "score (guess %d)", &s->k) == 1) s->kind = CAMPAIGN_SCORE;
    else return snprintf(err, errlen, "the journal's question '%s' is none the campaign asks", q), -1;
    return 0;
}

/* The options that can change an answer or what it rests on: the GHI
 * handling (naive is unsound), the tables a proof's leaves read, and the
 * leaves a proof holds.  The rest (limits, memory, threads, workers, the
 * search's order: --algo, --epsilon, --init, --sum, --tb-cache,
 * --tb-decode) change which questions a search settles in its limits,
 * never what an answer says: every answer is a proof the checker read. */
static const char *const binding[] = { "ghi", "tb-dir", "no-tb", "exact-empties", "proof-exact", NULL };

int campaign_option_binds(const char *name)
{
    for (int i = 0; binding[i]; i++)
        if (strcmp(binding[i], name) == 0)
            return 1;
    return 0;
}

/* Option name's value in options text ("--a 1 --b"): into buf, "" for a
 * flag; NULL when absent. */
static const char *option_value(const char *text, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, "--")) != NULL; p += 2) {
        if ((p != text && p[-1] != ' ') || strncmp(p + 2, name, n) != 0 || (p[2 + n] != ' ' && p[2 + n] != 0))
            continue;
        const char *v = p + 2 + n;
        while (*v == ' ')
            v++;
        size_t vl = *v && strncmp(v, "--", 2) != 0 ? strcspn(v, " ") : 0;
        snprintf(buf, len, "%.*s", (int)vl, v);
        return buf;
    }
    return NULL;
}

/* Whether this run's options may go on from the journal's: those that
 * bind (campaign_option_binds) must be the same; -1 naming the first that
 * differs in err. */
static int options_compare(const char *journal, const char *mine, char *err, size_t errlen)
{
    for (int i = 0; binding[i]; i++) {
        char a[512], b[512];
        const char *x = option_value(journal, binding[i], a, sizeof a), *y = option_value(mine, binding[i], b, sizeof b);
        if ((!x && !y) || (x && y && strcmp(x, y) == 0))
            continue;
        return snprintf(err, errlen, "--%s can change an answer, and the campaign began with %s%s%s%s, this run has "
                        "%s%s%s%s (run it with the campaign's, or in another directory)", binding[i],
                        x ? "--" : "no --", binding[i], x && x[0] ? " " : "", x ? x : "", y ? "--" : "no --", binding[i],
                        y && y[0] ? " " : "", y ? y : ""), -1;
    }
    return 0;
}

/* Whether the journal's fields j are this run's (c): else -1 with what
 * differs in err. */
static int fields_compare(const campaign *c, header_fields *j, char *err, size_t errlen)
{
    header_fields mine;
    fields_of(c, &mine);
    for (int i = 0; i < NFIELDS; i++) {
        size_t size;
        const char *a = field_at(j, i, &size), *b = field_at(&mine, i, &size);
        if (strcmp(a, b) == 0)
            continue;
        if (i == 7) {  /* the options: only those that can change an answer must match */
            if (options_compare(a, b, err, errlen) != 0)
                return -1;
            continue;
        }
        if (i == 3)
            return snprintf(err, errlen, "the file of %.200s has changed since the campaign began (its BLAKE2b is not the "
                            "journal's): start again in another directory", c->g->name), -1;
        return snprintf(err, errlen, "it holds a campaign of other options (its journal's %s is '%.200s', this run's "
                        "'%.200s': run it as it started, or in another directory)", field_name[i], a, b), -1;
    }
    return 0;
}

/* One record, the tree and the answers updated; 0, or -1 with err. */
static int replay(campaign *c, char *line, char *err, size_t errlen)
{
    char word[16], res[16], move[32];
    int k, used = 0;
    unsigned long long nodes, solver;
    double secs;
    char why[512];
    if (sscanf(line, "%15s%n", word, &used) != 1)
        return snprintf(err, errlen, "an empty record"), -1;
    if (strcmp(word, "run") == 0)
        return sscanf(line + used, "%d", &c->workers) == 1 ? 0 : (snprintf(err, errlen, "a run record without workers"), -1);
    if (strcmp(word, "options") == 0) {  /* a run's own: checked against the header's when it began */
        snprintf(c->run_options, sizeof c->run_options, "%s", line[used] == ' ' ? line + used + 1 : "");
        return options_compare(c->spec.options, c->run_options, err, errlen);
    }
    const char *pos;
    cnode *n;
    int at = 0;
    if (strcmp(word, "ask") == 0 && sscanf(line + used, " %d %n", &k, &at) == 1 && at > 0) {
        if (!(n = campaign_tree_find(c, line + used + at, why, sizeof why)))
            return snprintf(err, errlen, "%s", why), -1;
        c->asks++;
        return campaign_flight_add(c, n->id, k, -1) == 0 ? 0 : (snprintf(err, errlen, "out of memory"), -1);
    }
    unsigned pn, dn;
    if (strcmp(word, "open") == 0)  /* a record for the reader: the deeper record after it acts */
        return sscanf(line + used, " %d %u %u %llu %lf %n", &k, &pn, &dn, &nodes, &secs, &at) == 5 && at > 0
                   ? 0 : (snprintf(err, errlen, "an open record without its numbers"), -1);
    if (strcmp(word, "deeper") == 0) {
        pos = line + used + 1;
        if (!(n = campaign_tree_find(c, pos, why, sizeof why)) || campaign_tree_deepen(c, n, why, sizeof why) != 0)
            return snprintf(err, errlen, "%s", why), -1;
        campaign_flight_drop(c, n->id, INT_MIN);
        c->deeper++;
        return 0;
    }
    if (strcmp(word, "best") == 0 && sscanf(line + used, " %31s %n", move, &used) == 1) {
        if (!(n = campaign_tree_find(c, line + strlen(word) + 1 + strlen(move) + 1, why, sizeof why)))
            return snprintf(err, errlen, "%s", why), -1;
        snprintf(n->best, sizeof n->best, "%s", move);
        return 0;
    }
    at = 0;
    if (strcmp(word, "answer") == 0 &&
        sscanf(line + used, " %d %15s %llu %llu %lf %n", &k, res, &nodes, &solver, &secs, &at) == 5 && at > 0 &&
        (strcmp(res, "proven") == 0 || strcmp(res, "disproven") == 0)) {
        if (!(n = campaign_tree_find(c, line + used + at, why, sizeof why)))
            return snprintf(err, errlen, "%s", why), -1;
        char path[CAMPAIGN_PATH_MAX + 128];
        campaign_flight_drop(c, n->id, k);
        campaign_answers_path(c, n, k, path, sizeof path);
        if (access(path, R_OK) != 0)
            return 0;  /* its proof is gone: asked again */
        /* the line and its proof must say the same: neither is trusted alone */
        if (campaign_answers_claimed(c, n, k, strcmp(res, "proven") == 0, 0, path, NULL, err, errlen) != 0)
            return -1;
        campaign_answers_add(c, n, k, strcmp(res, "proven") == 0, path);
        c->answered++;
        c->seconds += secs;
        return 0;
    }
    return snprintf(err, errlen, "a record of no known kind"), -1;
}

/* Reads DIR/journal: its header (into c->spec when loading, else checked
 * against it; the game's file against its hash either way) and every whole
 * record; *whole is the length of the file's whole lines (a kill may leave
 * a part of one after them).  -2: the header is another campaign's. */
static int journal_read(campaign *c, FILE *f, int load, long *whole, char *err, size_t errlen)
{
    char got[8192] = "", *line = NULL, why[512];
    size_t cap = 0, used = 0;
    long no = 0, len;
    while ((len = util_read_line(f, &line, &cap, &no, why, sizeof why)) >= 0 && used < sizeof got - 1) {
        used += (size_t)snprintf(got + used, sizeof got - used, "%s\n", line);
        if (strcmp(line, ".") == 0)
            break;
    }
    if (strncmp(got, "pnsolve-campaign 1\n", 19) == 0)
        return free(line), snprintf(err, errlen, "its journal is of format 1, which binds no game's content: "
                                    "start the campaign again in another directory"), -1;
    if (len < 0 || strcmp(line, ".") != 0 || strncmp(got, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1) != 0)
        return free(line), snprintf(err, errlen, "its journal is damaged (no whole campaign header)"), -1;
    header_fields *j = malloc(sizeof *j);
    int rc = !j ? (snprintf(err, errlen, "out of memory"), -1) : header_fields_read(got, j, err, errlen);
    if (rc == 0 && load)
        rc = spec_of_fields(c, j, err, errlen);
    if (rc == 0 && fields_compare(c, j, err, errlen) != 0)
        rc = load || strcmp(j->content, c->g->content[0] ? c->g->content : "-") != 0 ? -1 : -2;
    free(j);
    if (rc != 0)
        return free(line), rc;
    if (campaign_tree_root(c, err, errlen) != 0)
        return free(line), -1;
    *whole = ftell(f);
    while (rc == 0 && (len = util_read_line(f, &line, &cap, &no, why, sizeof why)) != -1) {
        if (len < 0) {
            rc = (snprintf(err, errlen, "journal %s", why), -1);
        } else if (!feof(f)) {  /* a last line without its newline was cut off by a kill */
            char reason[CAMPAIGN_PATH_MAX + 1200];
            if (replay(c, line, reason, sizeof reason) != 0)
                rc = (snprintf(err, errlen, "journal line %ld: %s", no, reason), -1);
            *whole = ftell(f);
        }
    }
    free(line);
    return rc;
}

int campaign_journal_open(campaign *c, int create, char *err, size_t errlen)
{
    char path[CAMPAIGN_PATH_MAX + 16], why[CAMPAIGN_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/journal", c->dir);
    FILE *f = util_open_input(path, 0, why, sizeof why);
    if (!f && (!create || errno != ENOENT))
        return snprintf(err, errlen, "cannot read the journal: %s", why), -1;
    if (f) {
        long whole = 0;
        int rc = journal_read(c, f, !create, &whole, err, errlen);
        fclose(f);
        if (rc != 0 || !create)
            return rc;  /* status and verify only read */
        if (truncate(path, whole) != 0)  /* the next record must not join a cut-off line */
            return snprintf(err, errlen, "cannot mend %s: %s", path, strerror(errno)), -1;
    } else if (campaign_tree_root(c, err, errlen) != 0) {
        return -1;
    }
    if (!(c->journal = fopen(path, "a")))
        return snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno)), -1;
    if (!f) {
        header_fields h;
        fields_of(c, &h);
        header_write(c->journal, &h);
        if (campaign_journal_append(c, "%s", "") != 0)
            return snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno)), -1;
    }
    return 0;
}

int campaign_journal_append(campaign *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int bad = vfprintf(c->journal, fmt, ap) < 0;
    va_end(ap);
    /* on the disk before the next question starts: a kill loses at most those in flight */
    return bad || fflush(c->journal) != 0 || fdatasync(fileno(c->journal)) != 0 ? -1 : 0;
}
