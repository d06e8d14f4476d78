/* campaign/import.c - answers from elsewhere: proof files written by an
 * earlier run of another tool (or machine), checked whole and adopted as
 * the answers of the positions they prove, so that the campaign joins them
 * instead of asking again. */
#include "internal.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* The claim of the proof file in: its header read, the file rewound. */
static int read_claim(FILE *in, proof_header *h, char *err, size_t errlen)
{
    char *line = NULL, why[256];
    size_t cap = 0;
    long no = 0, got;
    int rc = -1;
    proof_header_clear(h);
    while ((got = util_read_line(in, &line, &cap, &no, why, sizeof why)) >= 0) {
        int hr = proof_header_read(h, line, why, sizeof why);
        if (hr < 0)
            break;
        if (hr == 0) {
            rc = 0;
            break;
        }
    }
    if (rc != 0)
        snprintf(err, errlen, "%s", got < -1 || no > 0 ? why : "no proof header");
    free(line);
    rewind(in);
    return rc;
}

/* The claim as "the mover at n finishes at least *k", proven or not. */
static int claim_k(const campaign *c, const cnode *n, const proof_header *h, int *k, int *proven, char *err, size_t errlen)
{
    int score = strcmp(h->question, "score") == 0;
    if (score != c->scores)
        return snprintf(err, errlen, "a %s proof, where the campaign asks %s questions", h->question,
                        c->scores ? "score" : "win or advantage"), -1;
    *k = score ? (int)h->target : strcmp(h->question, "win") == 0;
    *proven = strcmp(h->result, "proven") == 0;
    if (h->prover != n->mover)  /* the other side's "at least k" is the mover's "less than 1 - k" */
        *k = 1 - *k, *proven = !*proven;
    return 0;
}

static int copy_file(FILE *in, const char *to, char *err, size_t errlen)
{
    util_file out;
    char buf[1 << 16];
    size_t n;
    if (util_file_create(&out, to, "w", err, errlen) != 0)
        return -1;
    int ok = 1;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out.f) == n;
    ok = ok && !ferror(in);
    return util_file_commit(&out, ok, err, errlen) == 0 && ok ? 0 : -1;
}

int campaign_import(campaign *c, const char *path, const char *tb_dir, char *err, size_t errlen)
{
    char why[CAMPAIGN_PATH_MAX + 600], to[CAMPAIGN_PATH_MAX + 128];
    FILE *in = util_open_input(path, 0, why, sizeof why);
    if (!in)
        return snprintf(err, errlen, "%s", why), -1;
    proof_header *h = malloc(sizeof *h);
    int rc = -1, k, proven;
    cnode *n = NULL;
    proof_check_options co = { .tb_dir = tb_dir };
    if (!h)
        snprintf(err, errlen, "out of memory");
    else if (read_claim(in, h, why, sizeof why) != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    else if (strcmp(h->spec, c->spec.game) != 0)
        snprintf(err, errlen, "%s: a proof of %s, not of %s", path, h->spec, c->spec.game);
    else if (!(n = campaign_tree_find(c, h->pos, why, sizeof why)))
        snprintf(err, errlen, "%s: %s", path, why);
    else if (claim_k(c, n, h, &k, &proven, why, sizeof why) != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    else if (proof_verify(in, &co, NULL, 0, why, sizeof why) != 0)
        snprintf(err, errlen, "%s: not sound: %s", path, why);
    else if (rewind(in), campaign_answers_path(c, n, k, to, sizeof to), copy_file(in, to, why, sizeof why) != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    else if (campaign_journal_append(c, "answer %d %s 0 0 0 %s\n", k, proven ? "proven" : "disproven", n->text) != 0)
        snprintf(err, errlen, "cannot write the journal");
    else
        rc = 0;
    if (rc == 0) {
        campaign_answers_add(c, n, k, proven, to);
        c->answered++;
    }
    free(h);
    fclose(in);
    return rc;
}
