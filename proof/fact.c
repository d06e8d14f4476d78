/* proof/fact.c - what a proof claims, read the checker's way, and the one
 * comparison of a claim with what a consumer expects of it. */
#include "fact.h"
#include "../util/util.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

int proof_header_root(const proof_header *h, game **g, game_state *root, char *err, size_t errlen)
{
    if (h->version < 0 || !*h->spec || !*h->pos || h->prover < 0 || !*h->question || !*h->result)
        return util_error(err, errlen, "incomplete header before the tree");
    char why[512];
    if (proof_header_game(h, g, why, sizeof why) != 0)
        return util_error(err, errlen, "%s", why);
    if (game_parse(*g, h->pos, root, why, sizeof why) != 0) {
        game_close(*g);
        *g = NULL;
        return util_error(err, errlen, "%s", why);
    }
    return 0;
}

void proof_fact_fill(proof_fact *f, const proof_header *h, const game *g, const game_state *root)
{
    memset(f, 0, sizeof *f);
    snprintf(f->game, sizeof f->game, "%s", g->name);
    snprintf(f->content, sizeof f->content, "%s", g->content);
    game_format(g, root, f->position, sizeof f->position);
    f->key = game_key_of(g, root);
    f->mover = game_to_move(g, root);
    f->prover = (int)h->prover;
    f->scores = strcmp(h->question, "score") == 0;
    f->k = f->scores ? (int)h->target : strcmp(h->question, "win") == 0;
    f->proven = strcmp(h->result, "proven") == 0;
    f->ntables = h->ntables;
    if (h->ntables > 0) {
        crypto_generichash_state st;
        unsigned char d[32];
        crypto_generichash_init(&st, NULL, 0, sizeof d);
        for (int i = 0; i < h->ntables; i++) {
            char line[128];
            int n = snprintf(line, sizeof line, "%s %s\n", h->table_name[i], h->table_hash[i]);
            crypto_generichash_update(&st, (const unsigned char *)line, (unsigned long long)n);
        }
        crypto_generichash_final(&st, d, sizeof d);
        for (int i = 0; i < 32; i++)
            snprintf(f->tables + 2 * i, 3, "%02x", d[i]);
    }
}

int proof_claim_read(FILE *in, proof_fact *f, char *err, size_t errlen)
{
    proof_header *h = malloc(sizeof *h);
    char *line = NULL, why[512];
    size_t cap = 0;
    long no = 0, got;
    int rc = -1;
    if (!h)
        return util_error(err, errlen, "out of memory");
    proof_header_clear(h);
    while ((got = util_read_line(in, &line, &cap, &no, why, sizeof why)) != -1) {
        if (got < 0) {
            util_error(err, errlen, "proof %s", why);
            goto out;
        }
        if (line[0] == '#' || line[0] == 0)
            continue;
        int hr = proof_header_read(h, line, why, sizeof why);
        if (hr < 0) {
            util_error(err, errlen, "proof line %ld: %s", no, why);
            goto out;
        }
        if (hr > 0)
            continue;
        if (line[0] < '0' || line[0] > '9') {
            util_error(err, errlen, "proof line %ld: unknown header line '%.60s'", no, line);
            goto out;
        }
        game *g;
        game_state root;
        if (proof_header_root(h, &g, &root, why, sizeof why) != 0) {
            util_error(err, errlen, "proof line %ld: %s", no, why);
            goto out;
        }
        proof_fact_fill(f, h, g, &root);
        game_close(g);
        rc = 0;
        goto out;
    }
    util_error(err, errlen, "no proof tree");
out:
    free(line);
    free(h);
    return rc;
}

/* A claim of side "at least *k" (*proven) put in to's terms: "the other
 * side finishes at least k" is "to finishes less than 1 - k" (in a game of
 * win, draw and loss: the other's win is to's loss, "at least 0"
 * disproven); then k moved up to the least score the game can end on. */
static void as_side(const game *g, int to, int scores, int side, int *k, int *proven)
{
    if (side != to)
        *k = 1 - *k, *proven = !*proven;
    if (scores)
        while (*k < game_score_bound(g) && !game_score_possible(g, *k))
            ++*k;
}

void proof_fact_as_side(const proof_fact *f, const game *g, int side, int *k, int *proven)
{
    *k = f->k, *proven = f->proven;
    as_side(g, side, f->scores, f->prover, k, proven);
}

static const char *claim_words(int scores, int k, char *buf, size_t len)
{
    if (scores)
        snprintf(buf, len, "finishes at least %d ahead", k);
    else
        snprintf(buf, len, "%s", k > 0 ? "wins" : "avoids losing");
    return buf;
}

int proof_fact_matches(const proof_fact *f, const game *g, const game_state *root, int side, int scores, int k,
                       int proven, int implied, char *why, size_t len)
{
    char pos[GAME_TEXT_MAX];
    if (strcmp(f->game, g->name) != 0)
        return util_error(why, len, "it proves a claim of %.200s, not of %.200s", f->game, g->name), 0;
    if (strcmp(f->content, g->content) != 0)
        return util_error(why, len, "it is of another content of %.200s (its game-blake2b differs)", g->name), 0;
    game_format(g, root, pos, sizeof pos);
    if (!game_key_equal(f->key, game_key_of(g, root)))
        return util_error(why, len, "it is about %.200s, not %.200s", f->position, pos), 0;
    if (f->scores != scores)
        return util_error(why, len, "it answers a %s question, not a %s one", f->scores ? "score" : "win or advantage",
                          scores ? "score" : "win or advantage"), 0;
    int mover = game_to_move(g, root), fk = f->k, fp = f->proven;
    as_side(g, mover, scores, f->prover, &fk, &fp);
    as_side(g, mover, scores, side, &k, &proven);
    int holds = fp == proven && (fk == k || (implied && (proven ? fk > k : fk < k)));
    if (!holds) {
        char a[64], b[64];
        return util_error(why, len, "it proves '%s' %s of the side to move, not '%s' %s%s", claim_words(scores, fk, a, sizeof a),
                          fp ? "proven" : "disproven", claim_words(scores, k, b, sizeof b), proven ? "proven" : "disproven",
                          implied ? " or a claim that implies it" : ""), 0;
    }
    return 1;
}
