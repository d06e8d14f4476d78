/* tablebase/layers.c - strong solutions of games whose every move but a
 * pass fills a square (Othello on small boards), by retrograde analysis
 * over layers of empty squares.  Forward: the states reachable from the
 * start, layer by layer (a move goes to the next layer, a pass stays in its
 * own, with the other side to move), each layer a sorted array of exact
 * keys; backward: from the full board up, each state's exact final score
 * for the side to move, the best over its moves of the negated child's
 * score, the pass states of a layer after the others (their child is in
 * the same layer and has moves).  A state is found by binary search in its
 * layer: the index is the reachable states alone, compactly, no hash.
 *
 * File (one per game, <dir>/<game>.pnsl, written to a temporary name and
 * renamed): a header (magic, game, layers, checksum), then per layer its
 * count, its keys (two words each, sorted) and its scores (a signed byte
 * each, padded to a word); read back mapped, the checksum checked whole.
 */
#include "tb_internal.h"
#include "../util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LAYERS_MAGIC "PNSLAYR1"
#define LAYERS_MAX 65

typedef struct {
    char magic[8];
    char game[GAME_NAME_MAX];
    uint32_t layers, first_empties;  /* layer i holds the states with first_empties - i empty squares */
    uint64_t count[LAYERS_MAX];
    uint64_t data_checksum, header_checksum;
} layers_header;

_Static_assert(sizeof(layers_header) % 8 == 0, "the first layer's keys on a word");

struct tb_layers {
    const game *g;
    layers_header h;
    const game_key *keys[LAYERS_MAX];
    const int8_t *score[LAYERS_MAX];
    void *map;
    size_t map_len;
    /* while building */
    game_key *own_keys[LAYERS_MAX];
    int8_t *own_score[LAYERS_MAX];
};

static int key_cmp(const void *a, const void *b)
{
    const game_key *x = a, *y = b;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The index of k in layer i, or -1. */
static int64_t find(const tb_layers *t, uint32_t i, game_key k)
{
    const game_key *a = t->keys[i];
    uint64_t lo = 0, hi = t->h.count[i];
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        int c = key_cmp(&a[mid], &k);
        if (c == 0)
            return (int64_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Sorts and removes repeats from a[0..*n). */
static void sort_unique(game_key *a, uint64_t *n)
{
    qsort(a, *n, sizeof *a, key_cmp);
    uint64_t m = 0;
    for (uint64_t i = 0; i < *n; i++)
        if (m == 0 || key_cmp(&a[m - 1], &a[i]) != 0)
            a[m++] = a[i];
    *n = m;
}

/* A growing array of keys. */
typedef struct {
    game_key *v;
    uint64_t n, cap;
} key_list;

static int push(key_list *l, game_key k)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 1024;
        game_key *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = k;
    return 0;
}

/* Whether s's only move is a pass (its child in the same layer). */
static int passes(const game *g, const game_state *s, const game_move *mv, int nm)
{
    if (nm != 1)
        return 0;
    game_state c = *s;
    game_play(g, &c, mv[0]);
    return game_empties(g, &c) == game_empties(g, s);
}

/* Layer i completed by its pass states (the same boards, the other side to
 * move), then the states of layer i + 1 (the moves that fill a square) into
 * next: 0, or -1 when out of memory. */
static int expand(tb_layers *t, uint32_t i, key_list *next)
{
    const game *g = t->g;
    key_list more = { 0 };
    for (uint64_t j = 0; j < t->h.count[i]; j++) {
        game_state s;
        game_unkey(g, t->own_keys[i][j], &s);
        game_move mv[GAME_MAX_MOVES];
        int nm = game_result_of(g, &s) == GAME_ONGOING ? game_moves(g, &s, mv) : 0;
        if (passes(g, &s, mv, nm)) {
            game_play(g, &s, mv[0]);
            if (push(&more, game_key_of(g, &s)) != 0)
                return free(more.v), -1;
        }
    }
    if (more.n) {
        uint64_t n0 = t->h.count[i], total = n0 + more.n;
        game_key *v = realloc(t->own_keys[i], total * sizeof *v);
        if (!v)
            return free(more.v), -1;
        memcpy(v + n0, more.v, more.n * sizeof *v);
        sort_unique(v, &total);
        t->own_keys[i] = v;
        t->keys[i] = v;
        t->h.count[i] = total;
    }
    free(more.v);
    for (uint64_t j = 0; j < t->h.count[i]; j++) {
        game_state s;
        game_unkey(g, t->own_keys[i][j], &s);
        game_move mv[GAME_MAX_MOVES];
        int nm = game_result_of(g, &s) == GAME_ONGOING ? game_moves(g, &s, mv) : 0;
        for (int k = 0; k < nm && !passes(g, &s, mv, nm); k++) {
            game_state c = s;
            game_play(g, &c, mv[k]);
            if (push(next, game_key_of(g, &c)) != 0)
                return -1;
        }
    }
    return 0;
}

/* The score for the side to move of state s at the end of the game. */
static int final_score(const game *g, const game_state *s)
{
    int v = game_score(g, s);
    return game_to_move(g, s) == 0 ? v : -v;
}

/* Layer i's scores from layer i + 1's (and its own, for pass states). */
static int solve_layer(tb_layers *t, uint32_t i, char *err, size_t errlen)
{
    const game *g = t->g;
    uint64_t n = t->h.count[i];
    int8_t *sc = t->own_score[i] = malloc(n ? n : 1);
    if (!sc)
        return util_error(err, errlen, "out of memory (%llu scores)", (unsigned long long)n);
    t->score[i] = sc;
    for (int pass_round = 0; pass_round < 2; pass_round++)
        for (uint64_t j = 0; j < n; j++) {
            game_state s;
            game_unkey(g, t->keys[i][j], &s);
            game_move mv[GAME_MAX_MOVES];
            int nm = game_result_of(g, &s) == GAME_ONGOING ? game_moves(g, &s, mv) : 0;
            if (passes(g, &s, mv, nm) != pass_round)
                continue;
            if (nm == 0) {
                sc[j] = (int8_t)final_score(g, &s);
                continue;
            }
            int best = -128;
            for (int k = 0; k < nm; k++) {
                game_state c = s;
                game_play(g, &c, mv[k]);
                uint32_t ci = game_empties(g, &c) == game_empties(g, &s) ? i : i + 1;
                int64_t at = ci < t->h.layers ? find(t, ci, game_key_of(g, &c)) : -1;
                if (at < 0)
                    return util_error(err, errlen, "a child missing from its layer (the forward pass is wrong)");
                int v = -t->score[ci][at];
                if (v > best)
                    best = v;
            }
            sc[j] = (int8_t)best;
        }
    return 0;
}

void tb_layers_path(const game *g, const char *dir, char *buf, size_t len)
{
    char name[GAME_NAME_MAX];
    snprintf(name, sizeof name, "%s", g->name);
    for (char *p = name; *p; p++)
        if (*p == ':' || *p == '/')
            *p = '-';
    snprintf(buf, len, "%s/%s.pnsl", dir, name);
}

static uint64_t data_checksum(const tb_layers *t)
{
    uint64_t h = TB_CHECKSUM_SEED;
    for (uint32_t i = 0; i < t->h.layers; i++) {
        h = tb_checksum_update(h, (const unsigned char *)t->keys[i], t->h.count[i] * sizeof(game_key));
        h = tb_checksum_update(h, (const unsigned char *)t->score[i], t->h.count[i]);
    }
    return h;
}

static uint64_t header_checksum(layers_header h)
{
    h.header_checksum = 0;
    return tb_checksum(&h, sizeof h);
}

/* The solution written to dir through a temporary file: 0, or -1 with err. */
static int write_layers(tb_layers *t, const char *dir, char *err, size_t errlen)
{
    char path[4400];
    tb_layers_path(t->g, dir, path, sizeof path);
    t->h.data_checksum = data_checksum(t);
    t->h.header_checksum = header_checksum(t->h);
    util_file f;
    if (util_file_create(&f, path, "wb", err, errlen) != 0)
        return -1;
    static const char zeros[8];
    int ok = fwrite(&t->h, sizeof t->h, 1, f.f) == 1;
    for (uint32_t i = 0; ok && i < t->h.layers; i++) {
        size_t pad = (8 - t->h.count[i] % 8) % 8;  /* the next layer's keys on a word */
        ok = fwrite(t->keys[i], sizeof(game_key), t->h.count[i], f.f) == t->h.count[i] &&
             fwrite(t->score[i], 1, t->h.count[i], f.f) == t->h.count[i] && fwrite(zeros, 1, pad, f.f) == pad;
    }
    char why[600];
    if (util_file_commit(&f, ok, why, sizeof why) != 0 || !ok)
        return util_error(err, errlen, "%s: cannot write it%s%s", path, ok ? ": " : "", ok ? why : "");
    return 0;
}

static void free_layers(tb_layers *t)
{
    for (int i = 0; i < LAYERS_MAX; i++) {
        free(t->own_keys[i]);
        free(t->own_score[i]);
    }
    if (t->map)
        munmap(t->map, t->map_len);
    free(t);
}

void tb_layers_close(tb_layers *t)
{
    if (t)
        free_layers(t);
}

int tb_layers_build(const game *g, const char *dir, uint64_t max_bytes, FILE *log, char *err, size_t errlen)
{
    if (!game_has_solver(g) || !game_has_unkey(g))
        return util_error(err, errlen, "%s cannot be solved by layers of empty squares", g->name);
    tb_layers *t = calloc(1, sizeof *t);
    if (!t)
        return util_error(err, errlen, "out of memory");
    t->g = g;
    memcpy(t->h.magic, LAYERS_MAGIC, 8);
    snprintf(t->h.game, sizeof t->h.game, "%s", g->name);
    game_state s;
    game_start(g, &s);
    t->h.first_empties = (uint32_t)game_empties(g, &s);
    t->h.layers = t->h.first_empties + 1;
    int rc = -1;
    if (t->h.layers > LAYERS_MAX) {
        util_error(err, errlen, "%s: %u layers, more than %d", g->name, t->h.layers, LAYERS_MAX);
        goto out;
    }
    key_list next = { 0 };
    if (push(&next, game_key_of(g, &s)) != 0)
        goto oom;
    uint64_t total = 0;
    for (uint32_t i = 0; i < t->h.layers; i++) {
        sort_unique(next.v, &next.n);
        t->own_keys[i] = next.v;
        t->keys[i] = next.v;
        t->h.count[i] = next.n;
        next = (key_list){ 0 };
        key_list none = { 0 };
        int bad = expand(t, i, i + 1 < t->h.layers ? &next : &none);
        free(none.v);
        if (bad)
            goto oom;
        total += t->h.count[i];
        if (log)
            fprintf(log, "layer %u (%u empty): %llu states\n", i, t->h.first_empties - i,
                    (unsigned long long)t->h.count[i]);
        if (max_bytes && total * (sizeof(game_key) + 1) > max_bytes) {
            util_error(err, errlen, "%s: more than %llu states by %u empty squares: past the memory allowed",
                       g->name, (unsigned long long)total, t->h.first_empties - i);
            free(next.v);
            goto out;
        }
    }
    free(next.v);
    for (uint32_t i = t->h.layers; i-- > 0;)
        if (solve_layer(t, i, err, errlen) != 0)
            goto out;
    rc = write_layers(t, dir, err, errlen);
    goto out;
oom:
    util_error(err, errlen, "out of memory");
out:
    free_layers(t);
    return rc;
}

tb_layers *tb_layers_open(const game *g, const char *dir, char *err, size_t errlen)
{
    char path[4400];
    tb_layers_path(g, dir, path, sizeof path);
    int fd = util_open_regular(path, O_RDONLY);  /* a FIFO or a directory refused, not waited on */
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(layers_header)) {
        util_error(err, errlen, "%s: %s", path, fd < 0 ? util_open_why(errno) : "not a solution file");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    tb_layers *t = calloc(1, sizeof *t);
    void *m = t ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (!t || m == MAP_FAILED) {
        util_error(err, errlen, "%s: cannot map it", path);
        free(t);
        return NULL;
    }
    t->g = g;
    t->map = m;
    t->map_len = (size_t)st.st_size;
    memcpy(&t->h, m, sizeof t->h);
    const char *why = NULL;
    if (memcmp(t->h.magic, LAYERS_MAGIC, 8) != 0 || header_checksum(t->h) != t->h.header_checksum)
        why = "not a solution file, or its header is damaged";
    else if (strcmp(t->h.game, g->name) != 0)
        why = "the solution of another game";
    else if (t->h.layers > LAYERS_MAX)
        why = "damaged (layers)";
    size_t at = sizeof t->h;
    for (uint32_t i = 0; !why && i < t->h.layers; i++) {
        if (t->h.count[i] > (t->map_len - at) / (sizeof(game_key) + 1)) {
            why = "truncated";
            break;
        }
        t->keys[i] = (const game_key *)((const char *)m + at);
        at += t->h.count[i] * sizeof(game_key);
        t->score[i] = (const int8_t *)((const char *)m + at);
        at += (t->h.count[i] + 7) & ~(uint64_t)7;
    }
    if (!why && (at != t->map_len || data_checksum(t) != t->h.data_checksum))
        why = "damaged (checksum)";
    if (why) {
        util_error(err, errlen, "%s: %s", path, why);
        free_layers(t);
        return NULL;
    }
    return t;
}

int tb_layers_probe(const tb_layers *t, const game_state *s, int *score)
{
    int e = game_empties(t->g, s);
    if (e < 0 || (uint32_t)e > t->h.first_empties)
        return 0;
    uint32_t i = t->h.first_empties - (uint32_t)e;
    int64_t at = find(t, i, game_key_of(t->g, s));
    if (at < 0)
        return 0;
    *score = t->score[i][at];
    return 1;
}

int tb_layers_count(const tb_layers *t) { return (int)t->h.layers; }

uint64_t tb_layers_size(const tb_layers *t, int i) { return t->h.count[i]; }

void tb_layers_state(const tb_layers *t, int i, uint64_t j, game_state *s, int *score)
{
    game_unkey(t->g, t->keys[i][j], s);
    *score = t->score[i][j];
}

void tb_layers_stats(const tb_layers *t, int i, tb_layer_stats *st)
{
    memset(st, 0, sizeof *st);
    st->empties = (int)t->h.first_empties - i;
    st->states = t->h.count[i];
    for (uint64_t j = 0; j < st->states; j++) {
        game_state s;
        game_unkey(t->g, t->keys[i][j], &s);
        game_move mv[GAME_MAX_MOVES];
        int nm = game_result_of(t->g, &s) == GAME_ONGOING ? game_moves(t->g, &s, mv) : 0;
        st->finished += nm == 0;
        st->passing += passes(t->g, &s, mv, nm);
        st->moving += nm > 0 && !passes(t->g, &s, mv, nm);
        int v = t->score[i][j];
        st->wins += v > 0, st->draws += v == 0, st->losses += v < 0;
    }
}

uint64_t tb_layers_verify(const tb_layers *t)
{
    uint64_t wrong = 0;
    for (uint32_t i = 0; i < t->h.layers; i++)
        for (uint64_t j = 0; j < t->h.count[i]; j++) {
            game_state s;
            game_unkey(t->g, t->keys[i][j], &s);
            game_move mv[GAME_MAX_MOVES];
            int nm = game_result_of(t->g, &s) == GAME_ONGOING ? game_moves(t->g, &s, mv) : 0;
            int want = nm ? -128 : final_score(t->g, &s), ok = 1;
            for (int k = 0; k < nm; k++) {
                game_state c = s;
                game_play(t->g, &c, mv[k]);
                int v;
                ok &= tb_layers_probe(t, &c, &v);
                if (ok && -v > want)
                    want = -v;
            }
            wrong += !ok || want != t->score[i][j];
        }
    return wrong;
}
