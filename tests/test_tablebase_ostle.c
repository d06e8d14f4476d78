/* tests/test_tablebase_ostle.c - Ostle's tables against a brute-force retrograde
 * solver over explicit states (position, previous position) of the naive
 * reference rules: rule 8 there is the reference's own comparison with the
 * position two plies back, not a stored move, and there is no index, no
 * symmetry and no frontier. */
#include "mutate.h"
#include "ref.h"
#include "suites.h"
#include "../tbbuild/tb_testing.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../tbfile/tbfile.h"  /* index files from the smallest material on */
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct {
    char key[2 * REF_TEXT + 2];  /* "position|previous" */
    int id;
    UT_hash_handle hh;
} state_entry;

typedef struct {
    state_entry *map;
    char (*pos)[REF_TEXT], (*prev)[REF_TEXT];  /* prev "" for none */
    int n, cap;
} state_set;

static int state_id(state_set *S, const char *pos, const char *prev, int create)
{
    char key[2 * REF_TEXT + 2];
    snprintf(key, sizeof key, "%s|%s", pos, prev);
    state_entry *e;
    HASH_FIND_STR(S->map, key, e);
    if (e || !create)
        return e ? e->id : -1;
    if (S->n == S->cap) {
        S->cap = S->cap ? 2 * S->cap : 4096;
        S->pos = realloc(S->pos, (size_t)S->cap * sizeof *S->pos);
        S->prev = realloc(S->prev, (size_t)S->cap * sizeof *S->prev);
    }
    e = calloc(1, sizeof *e);
    if (!S->pos || !S->prev || !e) {
        /* The 3x4 brute force needs about 4 GB: say so instead of crashing. */
        fprintf(stderr, "\nostle brute force: out of memory at %d states\n", S->n);
        exit(1);
    }
    strcpy(e->key, key);
    e->id = S->n;
    strcpy(S->pos[S->n], pos);
    strcpy(S->prev[S->n], prev);
    HASH_ADD_STR(S->map, key, e);
    return S->n++;
}

static void state_set_free(state_set *S)
{
    state_entry *e, *tmp;
    HASH_ITER(hh, S->map, e, tmp) {
        HASH_DEL(S->map, e);
        free(e);
    }
    free(S->pos);
    free(S->prev);
}

static int pieces(const char *pos, char p)
{
    int n = 0;
    for (; *pos != ' '; pos++)
        n += *pos == p;
    return n;
}

/* Every live position of the w x h board with each side between lose_at+1
 * and max_side pieces, either side to move, written the reference's way. */
static void all_positions(int w, int h, int max_side, state_set *S)
{
    int cells = w * h, lose_at = w - 2;
    for (int code = 0; code < 1 << (2 * cells); code++) {
        /* two bits per cell: empty, B, W, H */
        char g[25];
        int holes = 0, nb = 0, nw = 0;
        for (int c = 0; c < cells; c++) {
            int v = (code >> (2 * c)) & 3;
            g[c] = ".BWH"[v];
            holes += v == 3;
            nb += v == 1;
            nw += v == 2;
        }
        if (holes != 1 || nb <= lose_at || nw <= lose_at || nb > max_side || nw > max_side)
            continue;
        for (int side = 0; side < 2; side++) {
            char text[REF_TEXT];
            int n = 0;
            for (int r = h - 1; r >= 0; r--) {
                int e = 0;
                for (int c = 0; c < w; c++) {
                    if (g[r * w + c] == '.') { e++; continue; }
                    if (e) text[n++] = (char)('0' + e);
                    e = 0;
                    text[n++] = g[r * w + c];
                }
                if (e) text[n++] = (char)('0' + e);
                if (r) text[n++] = '/';
            }
            sprintf(text + n, " %c", side ? 'w' : 'b');
            state_id(S, text, "", 1);
        }
    }
}

/* Brute-force values of every state: +d win in d, -d loss in d, 0 draw. */
static int *solve(int w, int h, state_set *S)
{
    int lose_at = w - 2, positions = S->n;
    ref_child kids[REF_MAX];
    char result;
    for (int i = 0; i < positions; i++) {  /* the states a move leads to */
        char from[REF_TEXT];  /* S->pos moves when the set grows */
        strcpy(from, S->pos[i]);
        int n = ref_ostle_children(w, h, from, NULL, kids, &result);
        for (int k = 0; k < n; k++)
            if (pieces(kids[k].after, 'B') > lose_at && pieces(kids[k].after, 'W') > lose_at)
                state_id(S, kids[k].after, from, 1);
    }
    /* each state's children: a state id, or -1 a win for the mover, -2 a loss */
    size_t count = (size_t)(unsigned)S->n;
    int **child = calloc(count, sizeof *child), *nchild = calloc(count, sizeof *nchild);
    for (int i = 0; i < S->n; i++) {
        int n = ref_ostle_children(w, h, S->pos[i], S->prev[i][0] ? S->prev[i] : NULL, kids, &result);
        char mine = S->pos[i][strlen(S->pos[i]) - 1] == 'b' ? 'B' : 'W', theirs = mine == 'B' ? 'W' : 'B';
        child[i] = malloc((size_t)(n ? n : 1) * sizeof **child);
        for (int k = 0; k < n; k++) {
            const char *a = kids[k].after;
            int id = state_id(S, a, S->pos[i], 0);
            child[i][k] = pieces(a, mine) <= lose_at ? -2 : pieces(a, theirs) <= lose_at ? -1 : id < 0 ? -3 : id;
            CU_ASSERT_FATAL(child[i][k] != -3);
        }
        nchild[i] = n;
    }
    int *val = calloc(count, sizeof *val);
    for (int k = 1, quiet = 0; quiet < 2; k++) {
        int changed = 0;
        for (int i = 0; i < S->n; i++) {
            if (val[i])
                continue;
            int win = 0, all_lost = nchild[i] > 0, longest = 0;
            for (int c = 0; c < nchild[i]; c++) {
                int x = child[i][c], v = x == -1 ? -0x7fff : x == -2 ? 0x7fff : val[x];
                if (x == -1 ? k == 1 : (x >= 0 && v == -(k - 1) && k > 1))
                    win = 1;
                if (x == -2)
                    longest = longest > 1 ? longest : 1;
                else if (x >= 0 && v > 0 && v <= k - 1)
                    longest = longest > v + 1 ? longest : v + 1;
                else
                    all_lost = 0;
            }
            if (win) {
                val[i] = k;
                changed = 1;
            } else if (all_lost && longest == k) {
                val[i] = -k;
                changed = 1;
            }
        }
        quiet = changed ? 0 : quiet + 1;
    }
    for (int i = 0; i < S->n; i++)
        free(child[i]);
    free(child);
    free(nchild);
    return val;
}

/* The engine's state for brute-force state i: the previous position, then
 * the move that leads to the position (so the forbidden move is the engine's). */
static int engine_state(const game *g, const state_set *S, int i, game_state *s)
{
    char text[REF_TEXT + 4], err[256];
    if (!S->prev[i][0]) {
        snprintf(text, sizeof text, "%s -", S->pos[i]);
        return game_parse(g, text, s, err, sizeof err);
    }
    game_state p;
    snprintf(text, sizeof text, "%s -", S->prev[i]);
    if (game_parse(g, text, &p, err, sizeof err) != 0)
        return -1;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, &p, mv);
    for (int k = 0; k < n; k++) {
        game_state c = p;
        game_play(g, &c, mv[k]);
        char out[GAME_TEXT_MAX];
        game_format(g, &c, out, sizeof out);
        if (strncmp(out, S->pos[i], strlen(S->pos[i])) == 0 && out[strlen(S->pos[i])] == ' ') {
            *s = c;
            return 0;
        }
    }
    return -1;
}

/* Does the line of tb_best_move from s miss the brute force's value want
 * (plies to the end, + for the side to move, 0 a draw)?  A win or loss must
 * end the game with the right winner after exactly |want| plies; a draw must
 * not end in 12 plies. */
static int best_line_mismatch(const game *g, tb_set *tb, const game_state *s0, int want)
{
    game_state s = *s0;
    int me = game_to_move(g, &s), plies = 0, limit = want ? abs(want) : 12;
    char err[256];
    for (; plies < limit && game_result_of(g, &s) == GAME_ONGOING; plies++) {
        game_move m;
        tb_value v;
        if (tb_best_move(tb, &s, &m, &v, err, sizeof err) != 1)
            return 1;
        game_play(g, &s, m);
    }
    game_result r = game_result_of(g, &s);
    if (!want)
        return r != GAME_ONGOING;
    return plies != limit || r == GAME_ONGOING || game_outcome_for(r, me) != (want > 0 ? 1 : -1);
}

/* tb_probe_moves of s against the brute force and the rules: one entry a
 * legal move; each move's value the child's (tb_probe, or the game's end)
 * turned to the mover with a ply more; ordered wins fastest, draws, losses
 * slowest; the first the brute force's value want of s (plies to the end,
 * + for the side to move, 0 a draw).  1 when any of it fails. */
static int moves_mismatch(const game *g, tb_set *tb, const game_state *s, int want)
{
    tb_move_value mv[GAME_MAX_MOVES];
    game_move legal[GAME_MAX_MOVES];
    char err[256];
    int n = tb_probe_moves(tb, s, mv, err, sizeof err), nl = game_moves(g, s, legal), me = game_to_move(g, s), bad = 0;
    if (n != nl || n <= 0)
        return 1;
    long last = -1000000;
    for (int k = 0; k < n; k++) {
        game_state c = *s;
        game_play(g, &c, mv[k].move);
        game_result r = game_result_of(g, &c);
        int v;  /* for the mover: + win in v plies, - loss, 0 draw */
        if (r != GAME_ONGOING) {
            v = game_outcome_for(r, me);
        } else {
            tb_value cv;
            if (tb_probe(tb, &c, &cv, err, sizeof err) != 1 || !mv[k].found)
                return 1;
            int d = cv.wdl == TB_WIN ? cv.distance : cv.wdl == TB_LOSS ? -cv.distance : 0;
            d = game_to_move(g, &c) == me ? d : -d;
            v = d > 0 ? d + 1 : d < 0 ? d - 1 : 0;
        }
        int got = mv[k].value.wdl == TB_WIN ? mv[k].value.distance : mv[k].value.wdl == TB_LOSS ? -mv[k].value.distance : 0;
        bad |= got != v;
        /* better first: a win's rank is its distance, a draw's 1000, a loss's 2000 - its distance */
        long rank = v > 0 ? v : v == 0 ? 1000 : 2000 + v;
        bad |= rank < last;
        last = rank;
        if (k == 0)
            bad |= got != want;
    }
    return bad;
}

/* tb_probe_each of the live children of s against tb_probe of each: how
 * many differ (found, or the value); *absent counts those with no table. */
static int probe_each_mismatches(const game *g, tb_set *tb, const game_state *s, long *absent)
{
    game_move mv[GAME_MAX_MOVES];
    game_state c[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), m = 0, found[GAME_MAX_MOVES], bad = 0;
    for (int k = 0; k < n; k++) {
        c[m] = *s;
        game_play(g, &c[m], mv[k]);
        m += game_result_of(g, &c[m]) == GAME_ONGOING;
    }
    tb_value v[GAME_MAX_MOVES];
    char err[256];
    if (tb_probe_each(tb, c, m, v, found, err, sizeof err) != 0)
        return 1;
    for (int j = 0; j < m; j++) {
        tb_value one;
        int rc = tb_probe(tb, &c[j], &one, err, sizeof err);
        bad += rc != found[j] || (rc == 1 && (one.wdl != v[j].wdl || one.distance != v[j].distance));
        *absent += rc == 0;
    }
    return bad;
}

/* The parser against the reference's rule 8: "P f" is accepted exactly when
 * some state (P, previous position) of the brute force lacks move f that P
 * alone has, and every accepted state probes its brute-force value (a state
 * refused here is one the tables have no entry for).  Returns the number of
 * wrong answers; *refused counts the fields refused. */
static long forbidden_field_mismatches(const game *g, int w, int h, const state_set *S, const int *val, tb_set *tb,
                                       long *refused)
{
    ref_child with[REF_MAX], without[REF_MAX];
    char result, err[256];
    long bad = 0;
    /* per position (a state without prev): bit m of allowed[i] = move code m */
    int *by_pos = calloc((size_t)S->n, sizeof *by_pos);
    uint64_t *allowed = calloc((size_t)S->n, sizeof *allowed);
    int *value_of = calloc((size_t)S->n * 64, sizeof *value_of);
    CU_ASSERT_FATAL(by_pos && allowed && value_of);
    for (int i = 0; i < S->n; i++)
        by_pos[i] = S->prev[i][0] ? state_id((state_set *)S, S->pos[i], "", 0) : i;
    for (int i = 0; i < S->n; i++) {
        if (!S->prev[i][0])
            continue;
        int n = ref_ostle_children(w, h, S->pos[i], S->prev[i], with, &result);
        int m = ref_ostle_children(w, h, S->pos[i], NULL, without, &result);
        for (int k = 0; k < m; k++) {
            int kept = 0;
            for (int j = 0; j < n && !kept; j++)
                kept = strcmp(with[j].move, without[k].move) == 0;
            if (kept)
                continue;
            const char *mv = without[k].move;
            int code = ((mv[1] - '1') * w + (mv[0] - 'a')) * 4 + (int)(strchr("UDLR", mv[2]) - "UDLR");
            allowed[by_pos[i]] |= 1ULL << code;
            value_of[(size_t)by_pos[i] * 64 + code] = val[i];
        }
    }
    for (int i = 0; i < S->n; i++) {
        if (S->prev[i][0])
            continue;
        for (int code = 0; code < 4 * w * h; code++) {
            char text[REF_TEXT + 8];
            snprintf(text, sizeof text, "%s %c%c%c", S->pos[i], 'a' + code / 4 % w, '1' + code / 4 / w, "UDLR"[code & 3]);
            game_state s;
            int ok = game_parse(g, text, &s, err, sizeof err) == 0, want = (int)((allowed[i] >> code) & 1);
            if (ok != want) {
                if (bad++ < 3)
                    fprintf(stderr, "\n    %s: parser %s, reference %s\n", text, ok ? "accepts" : "refuses", want ? "accepts" : "refuses");
                continue;
            }
            *refused += !ok;
            tb_value v;
            if (!ok)
                continue;
            int got = tb_probe(tb, &s, &v, err, sizeof err) == 1 ? (v.wdl == TB_WIN ? v.distance : v.wdl == TB_LOSS ? -v.distance : 0) : 9999;
            bad += got != value_of[(size_t)i * 64 + code];
        }
    }
    free(by_pos);
    free(allowed);
    free(value_of);
    return bad;
}

/* The brute force's value for player 0 of the root a proof names (+1, 0,
 * -1), judged apart from the engine: the forbidden move is read as the
 * reference's move that leads to the previous position.  2: the root is
 * not a state of S (the checker must have refused the proof). */
static int root_truth(int w, int h, const state_set *S, const int *val, const char *proof)
{
    const char *p = strstr(proof, "\nposition ");
    char pos[REF_TEXT], prev[REF_TEXT] = "", *field;
    if (!p || sscanf(p + 10, "%190[^\n]", pos) != 1 || !(field = strrchr(pos, ' ')))
        return 2;
    *field++ = 0;  /* pos: "board side", the reference's form */
    char side = pos[strlen(pos) - 1];
    if (strcmp(field, "-") != 0) {
        ref_child kids[REF_MAX];
        char result;
        int n = ref_ostle_children(w, h, pos, NULL, kids, &result);
        for (int k = 0; k < n && !prev[0]; k++)
            if (!strcmp(kids[k].move, field))
                snprintf(prev, sizeof prev, "%s", kids[k].after);
        if (!prev[0])
            return 2;
    }
    int i = state_id((state_set *)S, pos, prev, 0);
    if (i < 0)
        return 2;
    int v = val[i] > 0 ? 1 : val[i] < 0 ? -1 : 0;
    return side == 'b' ? v : -v;
}

/* Mutants of Ostle proofs, their roots' forbidden moves among the changes,
 * judged by the brute force (never by the tables, which a misread index
 * would make agree with a false claim): how many false claims passed. */
static long ostle_mutants(const game *g, int w, int h, const state_set *S, const int *val, const char *dir)
{
    const char *roots[] = { "WW1/1HW/BBB b c1U", "WW1/1HW/BBB b -", "WW1/2H/1BB w c2L", "W2/1HW/BB1 b -",
                            "H2/1WB/BWB b c2L", "HB1/WW1/BWB b -", "W1W/1H1/B1B b -" };
    char *base[64];
    int nb = 0;
    tb_set *tb = tb_open_lazy(g, dir);
    for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++)
        for (int q = 0; q < 4; q++) {
            game_state s = test_parse(g, roots[r]);
            pns_options o;
            pns_defaults(&o);
            o.memory = 4 << 20;
            o.question = q & 1 ? PNS_ADVANTAGE : PNS_WIN;
            o.prover = 0;
            o.tb = q & 2 ? tb : NULL;
            o.max_nodes = 2000000;
            pns_result res;
            char *text = test_proof_text(g, &s, &o, &res);
            if (text)
                base[nb++] = text;
        }
    tb_close(tb);
    unsigned long long rng = 20261129;
    long tried = 0, accepted = 0, moved = 0, bad = 0;
    proof_lines L = { 0 };
    char err[512];
    for (; tried < 6000; tried++) {
        const char *b = base[ref_rand(&rng) % (unsigned)nb];
        char *text = ref_rand(&rng) & 1 ? proof_root_mutant(b, w, h, &L, &rng) : proof_mutant(b, &L, &rng);
        if (strcmp(text, b) != 0 && test_check_proof(text, dir, err, sizeof err) == 0) {
            accepted++;
            int truth = root_truth(w, h, S, val, text);
            moved += strcmp(strstr(text, "\nposition "), strstr(b, "\nposition ")) != 0;
            if (truth == 2 || !proof_claims_hold(text, truth)) {
                if (bad++ < 3)
                    printf("\n    ACCEPTED FALSE OSTLE CLAIM (truth %d for Black):\n%.600s", truth, text);
            }
        }
        free(text);
    }
    free(L.line);
    for (int i = 0; i < nb; i++)
        free(base[i]);
    fprintf(stderr, "    %s mutants: %ld tried, %ld accepted (%ld of another root), %ld false claims, from %d proofs\n",
            g->name, tried, accepted, moved, bad, nb);
    CU_ASSERT(nb >= 20 && accepted > 0);
    return bad;
}

/* Builds g's tables to 2 * max_side pieces in dir and checks them; three
 * owners of 64-entry blocks, who send each other most updates, write the
 * same files. */
static void build_checked(game *g, const char *dir, int max_side)
{
    char err[512];
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 2 * max_side, &bo, err, sizeof err), 0);
    FILE *quiet = fopen("/dev/null", "w");
    CU_ASSERT_EQUAL(tb_verify(g, dir, 2, quiet, err, sizeof err), 0);
    fclose(quiet);
    /* Three owners of 64-entry blocks send each other most updates: the
     * same files. */
    char many[80];
    snprintf(many, sizeof many, "%s-owners", dir);
    tb_build_options mo = { .threads = 3, .testing = &(struct tb_testing){ .owner_block_log2 = 6 } };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, many, 2 * max_side, &mo, err, sizeof err), 0);
    CU_ASSERT_EQUAL(test_tables_differ(g, dir, many, 2 * max_side), 0);
    CU_ASSERT_EQUAL(test_remove_dir(many), 0);
}

/* Whether the builder's shortcut is wrong at s: exactly the moves that
 * remove a piece, in the move generator's order, and whether any other move
 * exists.  Adds their number to *removing. */
static int exits_mismatch(const game *g, const game_state *s, long *removing)
{
    const game_tb_ops *ops = game_tables(g);
    game_move mv[GAME_MAX_MOVES], ex[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), stays, ne = game_tb_build(ops)->exits(g, s, ex, &stays), k = 0, staying = 0, ok = 1;
    for (int m = 0; m < n; m++) {
        game_state c = *s;
        game_play(g, &c, mv[m]);
        if (ops->material_of(g, &c) == ops->material_of(g, s))
            staying++;
        else
            ok = ok && k < ne && ex[k++] == mv[m];
    }
    *removing += ne;
    return !(ok && k == ne && stays == (staying ? -1 : 0));
}

/* The unit of repetition is the state (docs/rules.md): on 3x3 the position
 * H2/1WB/BWB b recurs on the winning line of HB1/WW1/BWB b with another
 * forbidden move, which is no repetition.  The brute force values states,
 * so the search must find the win it finds, and prove it. */
static void check_state_unit(game *g, state_set *S, const int *val)
{
    char err[512];
    int i = state_id(S, "HB1/WW1/BWB b", "", 0);
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT(val[i] > 0);
    pns_options o;
    pns_defaults(&o);
    game_state hb = test_parse(g, "HB1/WW1/BWB b -");
    CU_ASSERT_EQUAL(pns_value(g, &hb, &o, NULL, NULL), 1);
    o.question = PNS_WIN;
    pns_result r;
    char *text = test_proof_text(g, &hb, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(test_check_proof(text, NULL, err, sizeof err), 0);
    free(text);
}

/* The longest wins that stats names for mat (their indices and states),
 * against a scan of every entry. */
static void check_longest(game *g, tb_set *tb, const char *dir, int mat)
{
    char err[512];
    const game_tb_ops *ops = game_tables(g);
    const game_tb_index *ix = test_index(g, mat);
    tb_stats st;
    CU_ASSERT_EQUAL_FATAL(tb_table_stats(g, dir, mat, &st, err, sizeof err), 0);
    int longest = 0;
    for (int d = 1; d < 256; d++)
        longest = st.win_at[d] ? d : longest;
    uint64_t found = 0, listed = 0;
    for (uint64_t x = 0; x < ops->size(g, ix, mat); x++) {
        game_state s;
        tb_value v;
        ops->unindex(g, ix, mat, x, &s);
        if (ops->index(g, ix, &s) != x || tb_probe(tb, &s, &v, err, sizeof err) != 1 || v.wdl != TB_WIN ||
            v.distance != longest)
            continue;
        listed += found < TB_STATS_LONGEST && st.longest[found] == x &&
                  memcmp(&st.longest_state[found], &s, sizeof s) == 0;
        found++;
    }
    CU_ASSERT(longest > 0 && found > 0);
    CU_ASSERT_EQUAL(st.longest_wins, found);
    CU_ASSERT_EQUAL(listed, (uint64_t)st.n_longest);
    CU_ASSERT_EQUAL((uint64_t)st.n_longest, found < TB_STATS_LONGEST ? found : TB_STATS_LONGEST);
}

static void check_board(int w, int h, int max_side)
{
    char spec[32], dir[64], err[512];
    snprintf(spec, sizeof spec, "ostle:%dx%d", w, h);
    snprintf(dir, sizeof dir, "/tmp/pnsolve-ostle-tb-%d", (int)getpid());
    game *g = test_open(spec, NULL);
    build_checked(g, dir, max_side);
    state_set S = { 0 };
    all_positions(w, h, max_side, &S);
    int *val = solve(w, h, &S);
    tb_set *tb = tb_open_lazy(g, dir);
    long agree = 0, draws = 0, ko = 0, exits_wrong = 0, removing = 0, line_wrong = 0, each_wrong = 0, absent = 0;
    long moves_wrong = 0;
    const game_tb_ops *ops = game_tables(g);
    int mats[16], nm = ops->materials(g, 2 * max_side, mats, 16);
    tb_set *part = tb_open_lazy(g, dir);  /* the smallest table withheld: children with and without tables mixed */
    CU_ASSERT_EQUAL_FATAL(tb_withhold(part, mats[0]), 0);
    for (int i = 0; i < S.n; i++) {
        game_state s;
        CU_ASSERT_FATAL(engine_state(g, &S, i, &s) == 0);
        exits_wrong += exits_mismatch(g, &s, &removing);
        tb_value v;
        CU_ASSERT_EQUAL_FATAL(tb_probe(tb, &s, &v, err, sizeof err), 1);
        int want = val[i], got = v.wdl == TB_WIN ? v.distance : v.wdl == TB_LOSS ? -v.distance : 0;
        if (got != want && agree + 3 > i)  /* the first few, not one failure record per state */
            fprintf(stderr, "\n    %s (previous %s): brute force %d, table %d\n", S.pos[i],
                    S.prev[i][0] ? S.prev[i] : "none", want, got);
        agree += got == want;
        draws += want == 0;
        if (i % 5 == 0)
            line_wrong += best_line_mismatch(g, tb, &s, want);
        if (i % 3 == 0)
            moves_wrong += moves_mismatch(g, tb, &s, want);
        if (i % 7 == 0)
            each_wrong += probe_each_mismatches(g, tb, &s, &absent) + probe_each_mismatches(g, part, &s, &absent);
        ko += S.prev[i][0] && ((s.w[2] >> 16) & 0xFFFF) != 0xFFFF;
    }
    CU_ASSERT_EQUAL(agree, S.n);
    if (w == 3 && h == 3) {
        check_state_unit(g, &S, val);
        CU_ASSERT_EQUAL(ostle_mutants(g, w, h, &S, val, dir), 0);
    }
    long refused = 0;
    CU_ASSERT_EQUAL(forbidden_field_mismatches(g, w, h, &S, val, tb, &refused), 0);
    CU_ASSERT(refused > 0);
    CU_ASSERT_EQUAL(exits_wrong, 0);
    CU_ASSERT_EQUAL(line_wrong, 0);
    CU_ASSERT_EQUAL(moves_wrong, 0);
    CU_ASSERT_EQUAL(each_wrong, 0);
    CU_ASSERT(absent > 0);
    tb_close(part);
    for (int i = 0; i < nm; i++) {
        CU_ASSERT_EQUAL(test_each_mismatches(g, mats[i]), 0);
        check_longest(g, tb, dir, mats[i]);
    }
    CU_ASSERT(removing > 0);
    fprintf(stderr, "    %s: %ld of %d states agree with brute force (%ld draws, %ld with a forbidden move); "
            "%ld forbidden-move fields refused\n", spec, agree, S.n, draws, ko, refused);
    CU_ASSERT(draws > 0 && ko > 0);  /* the sample has draws and states with a forbidden move */
    tb_close(tb);
    free(val);
    state_set_free(&S);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    game_close(g);
}

/* 3x4 (5.1 million states, about two minutes) in make check-slow */
static void test_ostle_tables(void)
{
    check_board(3, 3, 3);
    if (test_slow())
        check_board(3, 4, 3);
}

static int file_bytes(const char *path, unsigned char **data, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    rewind(f);
    *data = malloc((size_t)*len);
    int ok = *data && fread(*data, 1, (size_t)*len, f) == (size_t)*len;
    fclose(f);
    return ok ? 0 : -1;
}

static void put_bytes(const char *path, const unsigned char *data, long len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT(fwrite(data, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
}

static ino_t inode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* A fresh game with index files under prefix: how many indices of mat
 * unindex to a state other than the reference game's or index back wrong. */
static long index_mismatches(const game *ref, const char *prefix, int mat)
{
    game *g = test_open("ostle:3x3", NULL);
    const game_tb_ops *ops = game_tables(g);
    tb_index *x = tb_index_open_at(g, prefix, 0);
    const game_tb_index *fix = x ? tb_index_need(x, mat) : NULL, *rix = test_index(ref, mat);
    CU_ASSERT_FATAL(fix != NULL);
    long bad = ops->size(g, fix, mat) != ops->size(ref, rix, mat);
    for (uint64_t i = 0; !bad && i < ops->size(ref, rix, mat); i++) {
        game_state a, b;
        ops->unindex(ref, rix, mat, i, &a);
        ops->unindex(g, fix, mat, i, &b);
        bad += memcmp(&a, &b, sizeof a) != 0 || ops->index(g, fix, &b) != ops->index(ref, rix, &a);
    }
    tb_index_close(x);
    game_close(g);
    return bad;
}

/* Index files: made once, then mapped; a damaged, truncated or stale one
 * (right checksums, a wrong count) is made again, never trusted. */
static void test_index_files(void)
{
    char dir[64], prefix[96], path[160], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-ostle-idx-%d", (int)getpid());
    snprintf(prefix, sizeof prefix, "%s/ostle-3x3", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    game *ref = test_open("ostle:3x3", NULL);
    const game_tb_ops *ops = game_tables(ref);
    int mats[16], nm = ops->materials(ref, 6, mats, 16), mat = mats[nm - 1];
    char name[32];
    ops->material_name(ref, mat, name, sizeof name);
    snprintf(path, sizeof path, "%s-%s.pnidx", prefix, name);

    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);  /* makes the file */
    ino_t made = inode_of(path);
    CU_ASSERT_FATAL(made != 0);
    unsigned char *good, *bad;
    long len, len2;
    CU_ASSERT_FATAL(file_bytes(path, &good, &len) == 0);
    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);  /* reads it */
    CU_ASSERT_EQUAL(inode_of(path), made);

    CU_ASSERT_FATAL(file_bytes(path, &bad, &len2) == 0);
    bad[len - 2] ^= 1;  /* a hint, which no recount reads */
    put_bytes(path, bad, len);
    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);
    free(bad);
    CU_ASSERT_FATAL(file_bytes(path, &bad, &len2) == 0);
    CU_ASSERT(len2 == len && memcmp(bad, good, (size_t)len) == 0);  /* made again */
    free(bad);

    put_bytes(path, good, len - 3);
    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);
    CU_ASSERT_FATAL(file_bytes(path, &bad, &len2) == 0);
    CU_ASSERT_FATAL(len2 == len);

    /* the file's layout (tablebase/index.c): a 256-byte header with the
     * number of lines at 128 and the data and header sums at 152 and 160,
     * then lines of a 64-bit base and 56 counts, one chunk's {sum, base}
     * here (fewer than 4,096 lines), then the hints */
    enum { HEADER = 256, LINES = 128, DATA_SUM = 152, HEADER_SUM = 160 };
    uint64_t lines;
    memcpy(&lines, good + LINES, 8);
    CU_ASSERT_FATAL(lines < 4096);
    long chunk = HEADER + (long)lines * 64;
    long p = HEADER;
    while (p + 1 < chunk && (good[p] == 0 || good[p + 1] == 0 || (p - HEADER) % 64 < 8 || (p - HEADER) % 64 == 63))
        p++;
    CU_ASSERT_FATAL(p + 1 < chunk);

    /* A damaged count: its chunk fails its checksum when first read and is
     * counted again in memory; the file is kept, the answers are right. */
    memcpy(bad, good, (size_t)len);
    bad[p] ^= 4;
    put_bytes(path, bad, len);
    ino_t damaged = inode_of(path);
    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);
    CU_ASSERT_EQUAL(inode_of(path), damaged);

    /* A count moved from one position to the next (same line, so the bases
     * still add up) with every checksum made right: only recounting finds it. */
    memcpy(bad, good, (size_t)len);
    bad[p]--;
    bad[p + 1]++;
    uint64_t sum = XXH3_64bits(bad + HEADER, (size_t)(chunk - HEADER)), zero = 0;
    memcpy(bad + chunk, &sum, 8);
    sum = XXH3_64bits(bad + chunk, (size_t)(len - chunk));
    memcpy(bad + DATA_SUM, &sum, 8);
    memcpy(bad + HEADER_SUM, &zero, 8);
    sum = XXH3_64bits(bad, HEADER);
    memcpy(bad + HEADER_SUM, &sum, 8);
    put_bytes(path, bad, len);
    ino_t stale = inode_of(path);
    CU_ASSERT_EQUAL(index_mismatches(ref, prefix, mat), 0);
    CU_ASSERT(inode_of(path) != stale);
    free(bad);
    CU_ASSERT_FATAL(file_bytes(path, &bad, &len2) == 0);
    CU_ASSERT(len2 == len && memcmp(bad, good, (size_t)len) == 0);
    free(bad);
    free(good);
    game_close(ref);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

/* The sparse state index against a running sum of the game's counts: every
 * position's first state and count, and every state's position (4x4 and
 * 3x4 tables up to eight pieces: lines, hints and their ends). */
static void test_state_index(void)
{
    const char *specs[] = { "ostle:4x4", "ostle:3x4" };
    for (int i = 0; i < 2; i++) {
        game *g = test_open(specs[i], NULL);
        const game_tb_ops *ops = game_tables(g);
        int mats[16], nm = ops->materials(g, 8, mats, 16);
        long bad = 0, states = 0;
        for (int k = 0; k < nm; k++) {
            const util_sindex *ix = test_index(g, mats[k])->of[mats[k]];
            CU_ASSERT_FATAL(ix != NULL);
            uint64_t sum = 0, n = ops->positions(g, mats[k]);
            bad += ix->positions != n;
            for (uint64_t p = 0; p < n; p++) {
                unsigned c = (unsigned)ops->position_states(g, mats[k], p);
                bad += util_sindex_count(ix, p) != c || util_sindex_first(ix, p) != sum;
                for (uint64_t x = sum, first; x < sum + c; x++)
                    bad += util_sindex_position(ix, x, &first) != p || first != sum;
                sum += c;
            }
            bad += ix->states != sum || ops->size(g, test_index(g, mats[k]), mats[k]) != sum;
            states += (long)sum;
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT(states > 100000);
        game_close(g);
    }
}

/* successors() and count_successors against the distinct table entries
 * of the children that keep every piece, and unmoves() as their inverse, on states of random games (4x4 with eight
 * symmetries, 3x4 with four; 5x5 tables cost minutes of index passes). */
static void test_count_successors(void)
{
    const char *specs[] = { "ostle:4x4", "ostle:3x4" };
    unsigned long long seed = 5;
    long merged = 0;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(specs[i], NULL);
        const game_tb_ops *ops = game_tables(g);
        long checked = 0, bad = 0;
        for (int k = 0; k < 30000; k++) {
            game_state s;
            game_move mv[GAME_MAX_MOVES];
            if (!test_random_state(g, &seed, 40, &s))
                continue;
            int mat = ops->material_of(g, &s);
            if (mat < 0)
                continue;
            uint64_t idx[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv), nd = 0, nk = 0;
            for (int m = 0; m < n; m++) {
                game_state c = s;
                game_play(g, &c, mv[m]);
                if (ops->material_of(g, &c) != mat || game_result_of(g, &c) != GAME_ONGOING)
                    continue;
                uint64_t x = ops->index(g, test_index_of(g, &c), &c);
                int seen = 0;
                for (int j = 0; j < nd; j++)
                    seen |= idx[j] == x;
                nk++;
                if (!seen)
                    idx[nd++] = x;
            }
            merged += nk - nd;
            bad += game_tb_build(ops)->count_successors(g, &s) != nd;
            /* successors() gives those entries; unmoves() is its inverse */
            uint64_t self = ops->index(g, test_index_of(g, &s), &s), list[GAME_MAX_PREDECESSORS], back[GAME_MAX_PREDECESSORS];
            int ns = ops->successors(g, test_index_of(g, &s), &s, list);
            bad += ns != nd;
            for (int j = 0; j < ns && j < nd; j++) {
                int in = 0;
                for (int q = 0; q < nd; q++)
                    in |= idx[q] == list[j];
                game_state c;
                ops->unindex(g, test_index(g, mat), mat, list[j], &c);
                int np = ops->unmoves(g, test_index_of(g, &c), &c, back), has = 0;
                for (int q = 0; q < np; q++)
                    has |= back[q] == self;
                bad += !in || !has;
            }
            int np = ops->unmoves(g, test_index_of(g, &s), &s, list);
            for (int j = 0; j < np; j++) {
                game_state u;
                ops->unindex(g, test_index(g, mat), mat, list[j], &u);
                int nb = ops->successors(g, test_index_of(g, &u), &u, back), has = 0;
                for (int q = 0; q < nb; q++)
                    has |= back[q] == self;
                bad += !has || ops->index(g, test_index_of(g, &u), &u) != list[j];  /* a real state, not a twin entry */
                bad += j > 0 && list[j] <= list[j - 1];       /* distinct, in order */
            }
            checked++;
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT(checked > 2000);
        game_close(g);
    }
    CU_ASSERT(merged > 0);  /* symmetric children do occur and are counted once */
}

/* The Ostle paper's Algorithm 6, literally, over the reference rules: its
 * positions are the canonical ones (least text over the board's symmetries,
 * colours swapped so that Black moves); for each of them and each move, a
 * child that is neither over nor a checkmate (a position with a winning
 * move) marks the state of its canonical position whose forbidden move is
 * the first move back into the parent's class, or its state with nothing
 * forbidden if no move goes back.  The number of marks must be the engine's
 * census of non-trivial states, and the positions its canonical positions. */
typedef struct {
    char key[REF_TEXT + 16];
    UT_hash_handle hh;
} text_entry;

static int text_add(text_entry **set, const char *key)
{
    text_entry *e;
    HASH_FIND_STR(*set, key, e);
    if (e)
        return 0;
    e = calloc(1, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    HASH_ADD_STR(*set, key, e);
    return 1;
}

static void text_free(text_entry **set)
{
    text_entry *e, *t;
    HASH_ITER(hh, *set, e, t) {
        HASH_DEL(*set, e);
        free(e);
    }
}

static int side_won(const char *pos, char result)
{
    return result == (pos[strlen(pos) - 1] == 'b' ? '0' : '1');
}

static void check_census(int w, int h, int max_side)
{
    state_set S = { 0 };
    all_positions(w, h, max_side, &S);
    text_entry *P = NULL, *marks = NULL;
    for (int i = 0; i < S.n; i++) {
        char c[REF_TEXT];
        ref_ostle_canonical(w, h, S.pos[i], c);
        text_add(&P, c);
    }
    ref_child kids[REF_MAX], back[REF_MAX], grand[REF_MAX];
    char result;
    for (text_entry *p = P; p; p = p->hh.next) {
        int n = ref_ostle_children(w, h, p->key, NULL, kids, &result);
        for (int m = 0; m < n; m++) {
            const char *s = kids[m].after;
            int nb = ref_ostle_children(w, h, s, NULL, back, &result);
            if (result != 'o')
                continue;  /* the game is over: not a position of P */
            int checkmate = 0;
            for (int j = 0; j < nb && !checkmate; j++) {
                ref_ostle_children(w, h, back[j].after, NULL, grand, &result);
                checkmate = side_won(s, result);
            }
            if (checkmate)
                continue;
            char pi[REF_TEXT], mark[REF_TEXT + 16], cj[REF_TEXT];
            ref_ostle_canonical(w, h, s, pi);
            nb = ref_ostle_children(w, h, pi, NULL, back, &result);
            int j = 0;
            for (; j < nb; j++) {
                ref_ostle_canonical(w, h, back[j].after, cj);
                if (strcmp(cj, p->key) == 0)
                    break;
            }
            snprintf(mark, sizeof mark, "%s|%d", pi, j < nb ? j % 100 : -1);
            text_add(&marks, mark);
        }
    }
    char spec[32];
    snprintf(spec, sizeof spec, "ostle:%dx%d", w, h);
    game *g = test_open(spec, NULL);
    const game_tb_ops *ops = game_tables(g);
    int mats[64], nm = ops->materials(g, 2 * max_side, mats, 64);
    uint64_t total[GAME_CENSUS_MAX] = { 0 };
    for (int i = 0; i < nm; i++) {
        uint64_t cn[GAME_CENSUS_MAX] = { 0 };
        CU_ASSERT_EQUAL_FATAL(tb_census(g, mats[i], 2, NULL, cn), 0);
        int64_t sum = 0;
        for (int k = 0; game_tb_build(ops)->census_classes[k].name; k++) {
            int sign = game_tb_build(ops)->census_classes[k].sign;
            sum += sign == 1 || sign == -1 ? sign * (int64_t)cn[k] : 0;
            total[k] += cn[k];
        }
        CU_ASSERT_EQUAL(sum, (int64_t)cn[7]);  /* the classes sum to the direct count */
        CU_ASSERT_EQUAL(cn[1], ops->size(g, test_index(g, mats[i]), mats[i]));
    }
    CU_ASSERT_EQUAL(total[0], HASH_COUNT(P));
    CU_ASSERT_EQUAL(total[7], HASH_COUNT(marks));
    CU_ASSERT(total[2] > 0 && total[3] > 0 && total[4] > 0);  /* the classes are not all empty */
    text_free(&P);
    text_free(&marks);
    game_close(g);
    state_set_free(&S);
}

static void test_ostle_census(void)
{
    check_census(3, 3, 3);
    if (test_slow())
        check_census(3, 4, 3);
}

/* Breadth first over the reference rules from the start, a state being a
 * position and the one before it (rule 8), up to symmetry and colours: the
 * number of new states at each distance, into at[] (returned: the levels). */
typedef struct {
    char key[2 * REF_TEXT + 2];
    UT_hash_handle hh;
} key_entry;

typedef struct {
    char pos[REF_TEXT], prev[REF_TEXT];  /* prev "" for none */
} ref_state;

static int naive_reach(int w, int h, const char *start, uint64_t *at, int cap, uint64_t *total)
{
    key_entry *seen = NULL;
    ref_state *cur = malloc(sizeof *cur), *next = NULL;
    int ncur = 1, capcur = 1, nnext = 0, capnext = 0, d = 0;
    strcpy(cur[0].pos, start);
    cur[0].prev[0] = 0;
    char key[2 * REF_TEXT + 2], result;
    ref_ostle_state_key(w, h, start, NULL, key);
    key_entry *e = calloc(1, sizeof *e);
    strcpy(e->key, key);
    HASH_ADD_STR(seen, key, e);
    at[0] = 1;
    ref_child kids[REF_MAX], grand[REF_MAX];
    for (;;) {
        nnext = 0;
        for (int i = 0; i < ncur; i++) {
            int n = ref_ostle_children(w, h, cur[i].pos, cur[i].prev[0] ? cur[i].prev : NULL, kids, &result);
            for (int k = 0; k < n; k++) {
                ref_ostle_children(w, h, kids[k].after, NULL, grand, &result);
                if (result != 'o')
                    continue;  /* the game is over */
                ref_ostle_state_key(w, h, kids[k].after, cur[i].pos, key);
                HASH_FIND_STR(seen, key, e);
                if (e)
                    continue;
                e = calloc(1, sizeof *e);
                strcpy(e->key, key);
                HASH_ADD_STR(seen, key, e);
                if (nnext == capnext) {
                    capnext = capnext ? 2 * capnext : 1024;
                    next = realloc(next, (size_t)capnext * sizeof *next);
                }
                strcpy(next[nnext].pos, kids[k].after);
                strcpy(next[nnext].prev, cur[i].pos);
                nnext++;
            }
        }
        if (!nnext || d + 1 >= cap)
            break;
        at[++d] = (uint64_t)nnext;
        ref_state *t = cur;
        int c = capcur;
        cur = next;
        capcur = capnext;
        ncur = nnext;
        next = t;
        capnext = c;
    }
    *total = HASH_COUNT(seen);
    key_entry *tmp;
    HASH_ITER(hh, seen, e, tmp) {
        HASH_DEL(seen, e);
        free(e);
    }
    free(cur);
    free(next);
    return d;
}

static volatile int reach_stop;

/* Stops every tb_reach at its first chance. */
static void stop_at_once(const tb_reach_progress *p, void *ctx)
{
    (void)p;
    (void)ctx;
    reach_stop = 1;
}

static void check_reach(int w, int h)
{
    char spec[32], dir[64], ckpt[96], text[GAME_TEXT_MAX], err[600];
    snprintf(spec, sizeof spec, "ostle:%dx%d", w, h);
    snprintf(dir, sizeof dir, "/tmp/pnsolve-reach-%d", (int)getpid());
    snprintf(ckpt, sizeof ckpt, "%s/reach.ckpt", dir);
    mkdir(dir, 0777);
    game *g = test_open(spec, NULL);
    const game_tb_ops *ops = game_tables(g);
    game_state s;
    game_start(g, &s);
    game_format(g, &s, text, sizeof text);
    *strrchr(text, ' ') = 0;  /* the reference has no forbidden-move field */
    static uint64_t at[TB_REACH_LEVELS];
    uint64_t total;
    int levels = naive_reach(w, h, text, at, TB_REACH_LEVELS, &total);

    static tb_reach_result r, again;
    tb_reach_options o = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_reach(g, dir, &s, &o, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.levels, levels);
    for (int d = 0; d <= levels && d < TB_REACH_LEVELS; d++)
        CU_ASSERT_EQUAL(r.at_level[d], at[d]);
    uint64_t reached = 0, states = 0, unreached = 0;
    for (int k = 0; k < r.materials; k++) {
        reached += r.mat[k].reached;
        unreached += r.mat[k].unreached;
        for (uint64_t i = 0; i < ops->size(g, test_index(g, r.mat[k].mat), r.mat[k].mat); i++) {
            game_state t;
            ops->unindex(g, test_index(g, r.mat[k].mat), r.mat[k].mat, i, &t);
            states += ops->index(g, test_index_of(g, &t), &t) == i;
        }
    }
    CU_ASSERT_EQUAL(reached, total);
    CU_ASSERT_EQUAL(reached + unreached, states);
    CU_ASSERT(r.far_set);

    /* stopped at every chance and resumed from the checkpoint: the same answer */
    unlink(ckpt);
    o.checkpoint = ckpt;
    o.stop = &reach_stop;
    o.progress = stop_at_once;
    int runs = 0, rc;
    do {
        reach_stop = 0;
        rc = tb_reach(g, dir, &s, &o, &again, err, sizeof err);
        runs++;
    } while (rc == 1 && runs < 100000);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(runs > levels);  /* it stopped at least once per level */
    CU_ASSERT_EQUAL(again.levels, r.levels);
    CU_ASSERT_EQUAL(memcmp(again.at_level, r.at_level, sizeof r.at_level), 0);
    for (int k = 0; k < r.materials; k++) {
        CU_ASSERT_EQUAL(again.mat[k].reached, r.mat[k].reached);
        CU_ASSERT_EQUAL(again.mat[k].unreached, r.mat[k].unreached);
    }

    /* a damaged, truncated or foreign checkpoint is refused by name */
    unsigned char *bytes;
    long len;
    CU_ASSERT_FATAL(file_bytes(ckpt, &bytes, &len) == 0);
    o.progress = NULL;
    o.stop = NULL;
    bytes[len - 9] ^= 4;
    put_bytes(ckpt, bytes, len);
    CU_ASSERT_EQUAL(tb_reach(g, dir, &s, &o, &again, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "damaged") != NULL);
    bytes[len - 9] ^= 4;
    put_bytes(ckpt, bytes, len - 100);
    CU_ASSERT_EQUAL(tb_reach(g, dir, &s, &o, &again, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "truncated") != NULL);
    put_bytes(ckpt, bytes, len);
    game_move mv[GAME_MAX_MOVES];
    game_moves(g, &s, mv);
    game_state other = s;
    game_play(g, &other, mv[0]);
    CU_ASSERT_EQUAL(tb_reach(g, dir, &other, &o, &again, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "another game or start") != NULL);
    free(bytes);
    unlink(ckpt);
    rmdir(dir);
    game_close(g);
}

static void test_ostle_reach(void)
{
    check_reach(3, 3);
    if (test_slow())
        check_reach(3, 4);
}

void suite_ostle_tb(void)
{
    CU_pSuite s = CU_add_suite("ostle tables", NULL, NULL);
    CU_add_test(s, "index files: made once, then mapped; a damaged chunk counted again; damaged tables, truncated or stale files made again", test_index_files);
    CU_add_test(s, "the sparse state index against a running sum of the game's counts", test_state_index);
    CU_add_test(s, "successors, count_successors and unmoves against the children's entries, symmetric ones once", test_count_successors);
    CU_add_test(s, "the census of states against the Ostle paper's Algorithm 6 on 3x3 (3x4: PNSOLVE_SLOW)", test_ostle_census);
    CU_add_test(s, "reachability from the start against a breadth-first search over the reference rules, 3x3 (3x4: PNSOLVE_SLOW); "
                   "stopped and resumed at every segment", test_ostle_reach);
    CU_add_test(s, "every state of 3x3 Ostle (3x4: PNSOLVE_SLOW) with 2 and 3 pieces a side vs brute force with rule 8",
                test_ostle_tables);
}
