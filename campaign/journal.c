/* campaign/journal.c - the campaign's one file of state, DIR/journal: a
 * header naming the campaign, then one line a record, each appended and
 * flushed to the disk as it happens:
 *
 *   run WORKERS                 a run started with so many workers
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

#define JOURNAL_MAGIC "pnsolve-campaign 1"

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

static void header_text(const campaign_spec *s, char *out, size_t len)
{
    char q[64];
    snprintf(out, len, JOURNAL_MAGIC "\ngame %s\nvariant %s\nposition %s\nquestion %s\ndepth %d\noptions %s\n.\n",
             s->game, s->variant, s->position, campaign_kind_word(s->kind, s->k, q, sizeof q), s->depth, s->options);
}

/* The spec a header names, into c->spec. */
static int header_parse(campaign *c, const char *h, char *err, size_t errlen)
{
    campaign_spec *s = &c->spec;
    char q[64] = "";
    const char *at[] = { "\ngame ", "\nvariant ", "\nposition ", "\nquestion ", "\ndepth ", "\noptions " };
    char *field[] = { s->game, s->variant, s->position, q, NULL, s->options };
    size_t size[] = { sizeof s->game, sizeof s->variant, sizeof s->position, sizeof q, 0, sizeof s->options };
    for (int i = 0; i < 6; i++) {
        const char *p = strstr(h, at[i]), *e;
        if (!p || !(e = strchr(p + strlen(at[i]), '\n')))
            return snprintf(err, errlen, "the journal's header lacks its %s line", at[i] + 1), -1;
        p += strlen(at[i]);
        if (field[i]) {
            if ((size_t)(e - p) >= size[i])
                return snprintf(err, errlen, "the journal's %s line is too long", at[i] + 1), -1;
            memcpy(field[i], p, (size_t)(e - p));
            field[i][e - p] = 0;
        } else if (sscanf(p, "%d", &s->depth) != 1 || s->depth < 0 || s->depth > 64) {
            return snprintf(err, errlen, "the journal's depth is not a number of moves"), -1;
        }
    }
    if (strcmp(q, "win") == 0) s->kind = CAMPAIGN_WIN, s->k = 1;
    else if (strcmp(q, "advantage") == 0) s->kind = CAMPAIGN_ADVANTAGE, s->k = 0;
    else if (sscanf(q, "score:%d", &s->k) == 1) s->kind = CAMPAIGN_AT_LEAST;
    else if (sscanf(q, "score (guess %d)", &s->k) == 1) s->kind = CAMPAIGN_SCORE;
    else return snprintf(err, errlen, "the journal's question '%s' is none the campaign asks", q), -1;
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
        campaign_answers_add(c, n, k, strcmp(res, "proven") == 0, path);
        c->answered++;
        c->seconds += secs;
        return 0;
    }
    return snprintf(err, errlen, "a record of no known kind"), -1;
}

/* Reads DIR/journal: its header (into c->spec when loading, else checked
 * against it) and every whole record; *whole is the length of the file's
 * whole lines (a kill may leave a part of one after them). */
static int journal_read(campaign *c, FILE *f, int load, long *whole, char *err, size_t errlen)
{
    char want[4096], got[4096] = "", *line = NULL, why[512];
    size_t cap = 0, used = 0;
    long no = 0, len;
    header_text(&c->spec, want, sizeof want);
    while ((len = util_read_line(f, &line, &cap, &no, why, sizeof why)) >= 0 && used < sizeof got - 1) {
        used += (size_t)snprintf(got + used, sizeof got - used, "%s\n", line);
        if (strcmp(line, ".") == 0)
            break;
    }
    if (len < 0 || strcmp(line, ".") != 0 || strncmp(got, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1) != 0)
        return free(line), snprintf(err, errlen, "its journal is damaged (no whole campaign header)"), -1;
    if (load ? header_parse(c, got, err, errlen) != 0 : strcmp(got, want) != 0) {
        if (!load)
            snprintf(err, errlen, "it holds a campaign of other options (its journal's header differs: "
                     "run it as it started, or in another directory)");
        return free(line), load ? -1 : -2;
    }
    if (campaign_tree_root(c, err, errlen) != 0)
        return free(line), -1;
    int rc = 0;
    *whole = ftell(f);
    while (rc == 0 && (len = util_read_line(f, &line, &cap, &no, why, sizeof why)) != -1) {
        if (len < 0) {
            rc = (snprintf(err, errlen, "journal %s", why), -1);
        } else if (!feof(f)) {  /* a last line without its newline was cut off by a kill */
            char reason[600];
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
        char h[4096];
        header_text(&c->spec, h, sizeof h);
        if (campaign_journal_append(c, "%s", h) != 0)
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
