/* campaign/import.c - answers from elsewhere: proof files written by an
 * earlier run of another tool (or machine), checked whole and adopted as
 * the answers of the positions they prove, so that the campaign joins them
 * instead of asking again. */
#include "internal.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

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
    char why[CAMPAIGN_PATH_MAX + 1200], to[CAMPAIGN_PATH_MAX + 128];
    FILE *in = util_open_input(path, 0, why, sizeof why);
    if (!in)
        return snprintf(err, errlen, "%s", why), -1;
    /* the claim is what the checker proved, compared as every consumer does */
    proof_fact *f = malloc(2 * sizeof *f);
    int rc = -1, k, proven, nf = 0;
    cnode *n = NULL;
    proof_check_options co = { .tb_dir = tb_dir };
    if (!f)
        snprintf(err, errlen, "out of memory");
    else if (proof_check(in, &co, f, 2, &nf, why, sizeof why) != 0)
        snprintf(err, errlen, "%s: not sound: %s", path, why);
    else if (nf != 1)
        snprintf(err, errlen, "%s: it holds %d proofs: import each bound as a file of its own", path, nf);
    else if (strcmp(f->game, c->g->name) != 0 || strcmp(f->content, c->g->content) != 0)
        snprintf(err, errlen, "%s: a proof of %s%s, not of the campaign's %s", path, f->game,
                 strcmp(f->game, c->g->name) == 0 ? " of another content (its game-blake2b differs)" : "", c->g->name);
    else if (!(n = campaign_tree_find(c, f->position, why, sizeof why)))
        snprintf(err, errlen, "%s: %s", path, why);
    /* adopted as exactly what it proves, in the mover's terms; the match
     * refuses another kind of question */
    else if (proof_fact_as_side(f, c->g, n->mover, &k, &proven),
             !proof_fact_matches(f, c->g, &n->s, n->mover, c->scores, k, proven, 0, why, sizeof why))
        snprintf(err, errlen, "%s: %s", path, why);
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
    free(f);
    fclose(in);
    return rc;
}
