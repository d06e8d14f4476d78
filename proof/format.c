/* proof/format.c - the proof header, printed and read. */
#include "proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* Whether text holds a control byte (a line of a header is one line). */
static int has_control(const char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            return 1;
    return 0;
}

int proof_header_write(FILE *out, const proof_claim *c, tb_set *tb, const proof_tables *t, const char *extra_tables,
                       char *err, size_t errlen)
{
    const game *g = c->g;
    if (has_control(g->name))
        return util_error(err, errlen, "the game's name holds a control byte: no proof header can name it");
    if (fprintf(out, "pnsolve-proof %d\ngame %s\n", PROOF_VERSION, g->name) < 0 ||
        (g->content[0] && fprintf(out, "game-blake2b %s\n", g->content) < 0) ||
        fprintf(out, "position %s\nprover %d\nquestion %s\nresult %s\n", c->position, c->prover, c->question,
                c->proven ? "proven" : "disproven") < 0)
        return util_error(err, errlen, "cannot write the proof");
    if (t && tb) {
        /* hashed together first: a six-piece table takes half a minute */
        int *mats = malloc(65536 * sizeof *mats), n = 0;
        for (int mat = 0; mats && mat < 65536; mat++)
            if (t->bits[mat >> 6] >> (mat & 63) & 1)
                mats[n++] = mat;
        if (mats)
            tb_hash_ahead(tb, mats, n, 0);
        free(mats);
    }
    for (int mat = 0; t && mat < 65536; mat++) {
        if (!(t->bits[mat >> 6] >> (mat & 63) & 1))
            continue;
        char name[32], hex[TB_HASH_HEX];
        game_tables(g)->material_name(g, mat, name, sizeof name);
        int rc = tb ? tb_hash(tb, mat, hex, err, errlen) : 0;
        if (rc == 0)
            util_error(err, errlen, "table %s is gone", name);
        if (rc <= 0)
            return -1;
        fprintf(out, "table %s %s\n", name, hex);
    }
    if (extra_tables)
        fputs(extra_tables, out);
    if (fputs("# depth move kind: node | end | exact | tb VALUE DISTANCE | rep ID | ref ID | sym ID"
              " (IDs count nodes from 0)\n", out) < 0)
        return util_error(err, errlen, "cannot write the proof");
    return 0;
}

void proof_header_clear(proof_header *h)
{
    memset(h, 0, sizeof *h);
    h->prover = -1;
    h->version = -1;
}

int proof_header_read(proof_header *h, const char *line, char *err, size_t errlen)
{
    const char *sp = strchr(line, ' ');
    if (!sp)
        return 0;
    size_t kw = (size_t)(sp - line);
    const char *arg = sp + 1;
    char word[64];
    if (kw >= sizeof word)
        return 0;
    memcpy(word, line, kw);
    word[kw] = 0;
    /* each line but 'table' once: a second one would silently win */
    static const char *const once[] = { "pnsolve-proof", "game", "game-blake2b", "position", "prover", "question", "result" };
    for (int i = 0; i < (int)(sizeof once / sizeof once[0]); i++)
        if (!strcmp(word, once[i])) {
            if (h->seen & 1u << i)
                return util_error(err, errlen, "a second '%s' line", word);
            h->seen |= 1u << i;
        }
    if (!strcmp(word, "pnsolve-proof")) {
        if (util_read_long(arg, 0, 1000000, &h->version) != 0)
            return util_error(err, errlen, "bad format version '%.100s'", arg);
        if (h->version < PROOF_VERSION_OLDEST || h->version > PROOF_VERSION)
            return util_error(err, errlen, "proof format version %ld (this checker reads %d to %d): write the proof again",
                              h->version, PROOF_VERSION_OLDEST, PROOF_VERSION);
    } else if (!strcmp(word, "game")) {
        if (strlen(arg) >= sizeof h->spec || !*arg || has_control(arg))
            return util_error(err, errlen, "bad game '%.100s'", arg);
        strcpy(h->spec, arg);
    } else if (!strcmp(word, "game-blake2b")) {
        if (strlen(arg) != 64 || strspn(arg, "0123456789abcdef") != 64)
            return util_error(err, errlen, "bad game-blake2b (64 lower-case hex digits)%s", "");
        strcpy(h->content, arg);
    } else if (!strcmp(word, "position")) {
        if (strlen(arg) >= sizeof h->pos)
            return util_error(err, errlen, "the position is too long");
        strcpy(h->pos, arg);
    } else if (!strcmp(word, "prover")) {
        if (util_read_long(arg, 0, 1, &h->prover) != 0)
            return util_error(err, errlen, "bad prover '%.100s' (0 or 1)", arg);
    } else if (!strcmp(word, "question")) {
        if (!strncmp(arg, "score ", 6)) {
            if (util_read_long(arg + 6, -1000000, 1000000, &h->target) != 0)
                return util_error(err, errlen, "bad score target '%.100s'", arg + 6);
            strcpy(h->question, "score");
        } else if (!strcmp(arg, "win") || !strcmp(arg, "advantage")) {
            strcpy(h->question, arg);
        } else {
            return util_error(err, errlen, "bad question '%.100s'", arg);
        }
    } else if (!strcmp(word, "result")) {
        if (strcmp(arg, "proven") != 0 && strcmp(arg, "disproven") != 0)
            return util_error(err, errlen, "bad result '%.100s'", arg);
        strcpy(h->result, arg);
    } else if (!strcmp(word, "table")) {
        char name[64], hash[128], rest;
        if (h->ntables == PROOF_MAX_TABLES)
            return util_error(err, errlen, "too many tables");
        if (sscanf(arg, "%63s %127s %c", name, hash, &rest) != 2 || strlen(name) >= 32 ||
            strlen(hash) != TB_HASH_HEX - 1 || strspn(hash, "0123456789abcdef") != TB_HASH_HEX - 1)
            return util_error(err, errlen, "bad table line: expected 'table MATERIAL HASH'");
        strcpy(h->table_name[h->ntables], name);
        strcpy(h->table_hash[h->ntables++], hash);
    } else {
        return 0;
    }
    return 1;
}

int proof_header_game(const proof_header *h, game **g, char *err, size_t errlen)
{
    char why[512];
    if (!(*g = game_open(h->spec, NULL, why, sizeof why)))
        return util_error(err, errlen, "%s", why);
    if (!strcmp((*g)->content, h->content))
        return 0;
    const char *what = !h->content[0] ? (h->version < 3 ? "a proof of format 2 does not bind the file's content: write it again"
                                                         : "the header has no game-blake2b line")
                       : !(*g)->content[0] ? "a game-blake2b line for a game no file defines"
                                           : "the file's content differs from the one the proof was written for (its BLAKE2b differs)";
    util_error(err, errlen, "%.200s: %s", h->spec, what);
    game_close(*g);
    *g = NULL;
    return -1;
}
