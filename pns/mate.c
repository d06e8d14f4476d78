/* pns/mate.c - "does the side to move win within d plies?": a depth-bounded
 * AND/OR search for mate-in-N problems.
 *
 * Values here are properties of the state (a repetition is not looked at):
 * with a bound every line ends, and a shortest win never repeats a position
 * (the winner's distance falls by two every move and the loser's moves all
 * lead to shorter wins), so the shortest distance found from a root without
 * history is the game's own.  That makes every result reusable wherever the
 * state recurs: the table keeps, per exact key, the shortest bound known to
 * win and the longest known not to, for each side's question.  Table probes
 * (distances under the same convention) end the search where they apply.
 */
#include "pns.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

enum { WIN_Q, LOSS_Q };  /* the two questions: wins within d, loses within d */

typedef struct {
    game_key key;
    uint8_t used;
    uint8_t yes[2];  /* per question: true within yes (0: not known) */
    uint8_t no[2];   /* per question: false within no */
} mate_entry;

struct pns_mate {
    const game *g;
    tb_set *tb;
    int tb_ok;
    mate_entry *tt;
    uint64_t mask;
    uint64_t nodes;
    volatile int *stop;
    int failed;
    char error[256];
};

pns_mate *pns_mate_new(const game *g, tb_set *tb, size_t bytes)
{
    pns_mate *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    size_t n = 1024;
    while (n * 2 * sizeof(mate_entry) <= bytes)
        n *= 2;
    m->tt = util_alloc_big(n * sizeof *m->tt);
    if (!m->tt) {
        free(m);
        return NULL;
    }
    m->g = g;
    m->tb = tb;
    m->tb_ok = tb && game_tables(g);
    m->mask = n - 1;
    return m;
}

void pns_mate_free(pns_mate *m)
{
    if (!m)
        return;
    util_free_big(m->tt, (m->mask + 1) * sizeof *m->tt);
    free(m);
}

void pns_mate_set_stop(pns_mate *m, volatile int *stop) { m->stop = stop; }
uint64_t pns_mate_nodes(const pns_mate *m) { return m->nodes; }
const game *pns_mate_game(const pns_mate *m) { return m->g; }
const char *pns_mate_error(const pns_mate *m) { return m->failed ? m->error : NULL; }

static mate_entry *entry_of(pns_mate *m, game_key k, int create)
{
    mate_entry *e = &m->tt[game_key_hash(k) & m->mask];
    if (e->used && game_key_equal(e->key, k))
        return e;
    if (!create)
        return NULL;
    memset(e, 0, sizeof *e);  /* a cache: the newest result replaces */
    e->used = 1;
    e->key = k;
    return e;
}

static uint8_t clamp_d(int d) { return (uint8_t)(d > 255 ? 255 : d); }

/* What the table says about live s (1 found, 0 none, -1 error). */
static int mate_probe(pns_mate *m, const game_state *s, tb_value *v)
{
    if (!m->tb_ok)
        return 0;
    int rc = tb_probe(m->tb, s, v, m->error, sizeof m->error);
    if (rc < 0)
        m->failed = 1;
    return rc;
}

static int stopped(pns_mate *m)
{
    if (m->failed)
        return 1;
    if (m->stop && __atomic_load_n(m->stop, __ATOMIC_RELAXED)) {  /* set from another thread */
        m->failed = 1;
        snprintf(m->error, sizeof m->error, "interrupted");
        return 1;
    }
    return 0;
}

int pns_mate_value(pns_mate *m, const game_state *s, tb_value *v)
{
    game_result r = game_result_of(m->g, s);
    if (r != GAME_ONGOING) {
        int o = game_outcome_for(r, game_to_move(m->g, s));
        *v = (tb_value){ .wdl = o > 0 ? TB_WIN : o < 0 ? TB_LOSS : TB_DRAW };
        return 1;
    }
    int rc = mate_probe(m, s, v);
    return rc < 0 ? -1 : rc;
}

static int loss_within(pns_mate *m, const game_state *s, int d);

/* Sorts moves by the number of replies they leave, fewest first: forcing
 * moves are the likeliest to win quickly. */
static void order_by_replies(const game *g, const game_state *s, game_move *moves, int n)
{
    int key[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, moves[i]);
        key[i] = game_count(g, &t);
    }
    for (int i = 1; i < n; i++) {
        game_move mv = moves[i];
        int k = key[i], j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            moves[j] = moves[j - 1];
            key[j] = key[j - 1];
        }
        moves[j] = mv;
        key[j] = k;
    }
}

/* Question q about live s within d plies answered without search (by the
 * table or a stored bound): 1 or 0, -1 on an error or a stop, 2 when it
 * needs a search (then the node is counted). */
static int known(pns_mate *m, const game_state *s, int q, int d, game_key *k)
{
    if (d < 1)
        return 0;
    tb_value v;
    int rc = mate_probe(m, s, &v);
    if (rc)
        return rc < 0 ? -1 : (v.wdl == (q == WIN_Q ? TB_WIN : TB_LOSS) && v.distance <= d);
    *k = game_key_of(m->g, s);
    mate_entry *e = entry_of(m, *k, 0);
    if (e && e->yes[q] && e->yes[q] <= d)
        return 1;
    if (e && e->no[q] >= d)
        return 0;
    if ((++m->nodes & 1023) == 0 && stopped(m))
        return -1;
    return 2;
}

/* Stores the answer to question q within `within` plies (true) or d (false). */
static void remember(pns_mate *m, game_key k, int q, int answer, int within, int d)
{
    mate_entry *e = entry_of(m, k, 1);
    if (answer && (!e->yes[q] || e->yes[q] > within))
        e->yes[q] = clamp_d(within);
    if (!answer && e->no[q] < d)
        e->no[q] = clamp_d(d);
}

/* Keeps the moves of s that leave the game on in moves[] and returns their
 * count; *best is the best end for the mover among the others (+1 win,
 * 0 draw, -1 loss; -2 if every move leaves the game on). */
static int live_moves(pns_mate *m, const game_state *s, game_move *moves, int *best)
{
    int n = game_moves(m->g, s, moves), live = 0, me = game_to_move(m->g, s);
    *best = -2;
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(m->g, &t, moves[i]);
        game_result r = game_result_of(m->g, &t);
        if (r == GAME_ONGOING) {
            moves[live++] = moves[i];
        } else {
            int o = game_outcome_for(r, me);
            *best = o > *best ? o : *best;
        }
    }
    return live;
}

/* 1 if the side to move in live s wins within d plies, 0 if not, -1 stop. */
static int win_within(pns_mate *m, const game_state *s, int d)
{
    game_key k;
    int rc = known(m, s, WIN_Q, d, &k);
    if (rc != 2)
        return rc;
    game_move moves[GAME_MAX_MOVES];
    int best, live = live_moves(m, s, moves, &best), won = best > 0, found = won;
    if (!found && d >= 3) {
        order_by_replies(m->g, s, moves, live);
        for (int i = 0; i < live && !found; i++) {
            game_state t = *s;
            game_play(m->g, &t, moves[i]);
            int r = loss_within(m, &t, d - 1);
            if (r < 0)
                return -1;
            found = r;
        }
    }
    remember(m, k, WIN_Q, found, won ? 1 : d, d);
    return found;
}

/* 1 if every move of the side to move in live s loses within d plies. */
static int loss_within(pns_mate *m, const game_state *s, int d)
{
    game_key k;
    int rc = known(m, s, LOSS_Q, d, &k);
    if (rc != 2)
        return rc;
    game_move moves[GAME_MAX_MOVES];
    int best, live = live_moves(m, s, moves, &best), refuted = best >= 0;  /* a draw or a win escapes */
    if (live && d < 2)
        refuted = 1;
    /* A reply already known not to lose in time refutes at no cost. */
    for (int i = 0; i < live && !refuted; i++) {
        game_state t = *s;
        game_play(m->g, &t, moves[i]);
        mate_entry *c = entry_of(m, game_key_of(m->g, &t), 0);
        if (c && c->no[WIN_Q] >= d - 1)
            refuted = 1;
    }
    /* Fewest attacker replies first: like df-pn's disproof numbers, the
     * fewer moves the attacker has, the likelier none of them wins. */
    order_by_replies(m->g, s, moves, live);
    for (int i = 0; i < live && !refuted; i++) {
        game_state t = *s;
        game_play(m->g, &t, moves[i]);
        int r = win_within(m, &t, d - 1);
        if (r < 0)
            return -1;
        refuted = !r;
    }
    remember(m, k, LOSS_Q, !refuted, d, d);
    return !refuted;
}

int pns_mate_win(pns_mate *m, const game_state *s, int d)
{
    m->failed = 0;
    if (game_result_of(m->g, s) != GAME_ONGOING)
        return 0;
    return win_within(m, s, d);
}

int pns_mate_loss(pns_mate *m, const game_state *s, int d)
{
    m->failed = 0;
    if (game_result_of(m->g, s) != GAME_ONGOING)
        return 0;
    return loss_within(m, s, d);
}

int pns_mate_distance(pns_mate *m, const game_state *s, int max)
{
    for (int d = 1; d <= max; d += 2) {
        int r = pns_mate_win(m, s, d);
        if (r)
            return r < 0 ? -1 : d;
    }
    return 0;
}

int pns_mate_loss_distance(pns_mate *m, const game_state *s, int max)
{
    for (int d = 1; d <= max; d++) {
        int r = pns_mate_loss(m, s, d);
        if (r)
            return r < 0 ? -1 : d;
    }
    return 0;
}
