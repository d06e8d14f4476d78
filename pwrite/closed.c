/* pwrite/closed.c - a proof where a draw supports the claim, read off the
 * search's table without searching again.
 *
 * Such a proof is a closed set of positions (proof_write.c): the claim's side has
 * a listed move that stays in the set or ends in a supporting leaf, every
 * move of the other side does, and play that stays in the set forever is a
 * draw.  The positions the table holds, reached from the root through
 * moves to other held positions, form a graph; its greatest subset with
 * that property is found as retrograde analysis finds draws: start from all
 * of it and drop, pass after pass, each position whose side to move can no
 * longer keep to it.  The search proved the root through positions it
 * expanded, so the set holds the root unless the table lost some of them.
 *
 * The graph is first read along the search's own strategy: at the claim
 * side's positions the search showed, only the move the table names best
 * (a position inside a repetition cycle, not shown on its own, has every
 * move read: the set, not the search, decides there).  That graph is
 * nearer the proof's size than the table's, so reading it is faster and
 * smaller; where the set does not hold the root, the other moves of the
 * positions it dropped are read (widen()) and the set is closed again.
 * Children the search left open are read the same way: only where a
 * position drops for want of them.
 *
 * The file lists the set's positions reached from the root by the listed
 * moves, each expanded once, where breadth-first order first reaches it (so
 * the tree is as shallow as the strategy allows); every other line of it is
 * a 'ref' to that expansion, earlier or later in the file. */
#include "pwrite_int.h"
#include "pwrite_testing.h"

#include <stdlib.h>
#include <string.h>

enum { EDGE_OPEN = PROOF_EDGE_OPEN, EDGE_MISSING = PROOF_EDGE_MISSING, EDGE_GOOD = PROOF_EDGE_GOOD, EDGE_BAD = PROOF_EDGE_BAD };


static int is_position(uint32_t to) { return to < EDGE_OPEN; }

enum { UNREAD_NONE = 0xff };  /* every move of the position read */
enum { REACH_MAX = 255 };     /* the most levels of open children read at once below a widened one */

typedef struct {
    pns_dfpn *D;
    int claim_proven;
    uint32_t n, cap;          /* positions */
    game_state *state;        /* NULL where the game gives the state of a key (state_of) */
    game_key *key;
    uint64_t *first;          /* edges of position v: edge[first[v] .. first[v + 1]), one per move, or
                               * one alone, only[v]'s, where v is read by that move alone (compact()) */
    uint32_t *edge;
    uint64_t nedge, edge_cap;
    uint32_t explored;        /* positions [0, explored) have their edges */
    uint64_t *slot;           /* open addressing: hash tag << 32 | position index + 1; 0 empty */
    uint64_t slot_mask;
    uint8_t *only;            /* the one move read of a position, UNREAD_NONE: every move read */
    uint64_t widened;         /* positions whose other moves were read later */
    uint8_t *in;              /* in the closed set */
    int optimistic;           /* 1: a missing position counts as kept; 2: an open one too */
    int open_searched;        /* the open children were searched again, before any was read */
    uint8_t *reach;           /* levels below the position whose open children are read at once */
    int open_rounds;          /* rounds that widened open children: each reads twice as deep */
    uint8_t *chosen;          /* the claim side's listed move */
    uint32_t *parent;         /* breadth-first tree of the listed moves (EDGE_BAD: not reached) */
    uint8_t *parent_move;     /* the move of parent[v] that expands v */
    uint32_t *order;          /* the reached positions, breadth first */
    uint64_t *size, *id;      /* lines of each subtree, line number of each expansion */
    size_t budget;            /* bytes the arrays may grow to (options' proof_memory) */
    int over;                 /* stopped for the budget */
    int keys_only;            /* states made from keys: 32 bytes a position less (a sixth) */
} closed_proof;

/* The state of position v. */
static game_state state_of(const closed_proof *P, uint32_t v)
{
    if (!P->keys_only)
        return P->state[v];
    game_state s;
    game_unkey(pns_dfpn_game(P->D), P->key[v], &s);
    return s;
}

/* Bytes per position of the per-position arrays (the slots apart). */
static size_t position_bytes(const closed_proof *P)
{
    return (P->keys_only ? 0 : sizeof *P->state) + sizeof *P->key + sizeof *P->first + sizeof *P->only +
           sizeof *P->reach + sizeof *P->in + sizeof *P->chosen + sizeof *P->parent + sizeof *P->parent_move +
           sizeof *P->order + sizeof *P->size + sizeof *P->id;
}

/* Bytes of the arrays at their present capacities. */
static size_t footprint(const closed_proof *P)
{
    return (size_t)P->cap * position_bytes(P) + P->edge_cap * sizeof *P->edge + (P->slot_mask + 1) * sizeof *P->slot;
}

/* The capacity an array of elem-byte items at capacity cap grows to, to
 * hold at least need: twice cap, or less where the budget has no room for
 * that (the last growth would otherwise leave up to half the budget unused:
 * writers stopped at 8-11 M Ostle positions with 1.3 GB of their 2.5 GB
 * taken).  0 when not even need fits: then the writer stops, as a graph past
 * the budget is no longer near the proof's size (an Ostle child's reached
 * 22 M positions and 15 GB before it was stopped by hand), and splitting the
 * position one move deeper costs less than reading on. */
static uint64_t grown_cap(closed_proof *P, uint64_t cap, uint64_t need, size_t elem)
{
    static const int eighths[] = { 16, 12, 10, 9 };
    size_t used = footprint(P);
    for (int i = 0; i < 4; i++) {
        uint64_t want = cap * (uint64_t)eighths[i] / 8;
        want = want > need ? want : need;
        if (used + (want - cap) * elem <= P->budget)
            return want;
    }
    P->over = 1;
    return 0;
}

static int grow(void **p, size_t elem, uint64_t n)
{
    void *q = realloc(*p, elem * n);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* The tag keeps a probe from reading the key array (a second random
 * access) except on a likely match. */
static uint64_t tag_of(uint64_t hash) { return hash >> 32 << 32; }

static uint32_t find(const closed_proof *P, game_key k)
{
    uint64_t h = game_key_hash(k), tag = tag_of(h);
    for (uint64_t i = h & P->slot_mask;; i = (i + 1) & P->slot_mask) {
        uint64_t s = P->slot[i];
        if (s == 0)
            return EDGE_BAD;
        uint32_t v = (uint32_t)s - 1;
        if (tag_of(s) == tag && game_key_equal(P->key[v], k))
            return v;
    }
}

static void place(closed_proof *P, uint32_t v)
{
    uint64_t h = game_key_hash(P->key[v]);
    uint64_t i = h & P->slot_mask;
    while (P->slot[i])
        i = (i + 1) & P->slot_mask;
    P->slot[i] = tag_of(h) | (v + 1);
}

/* Adds position cs with key k; its index, or EDGE_BAD when out of memory. */
static uint32_t add(closed_proof *P, const game_state *cs, game_key k)
{
    if (P->n == P->cap) {
        uint64_t cap = grown_cap(P, P->cap, P->cap ? P->cap + 1 : 1 << 12, position_bytes(P));
        if (cap == 0 || cap >= EDGE_OPEN || (!P->keys_only && grow((void **)&P->state, sizeof *P->state, cap)) ||
            grow((void **)&P->key, sizeof *P->key, cap) || grow((void **)&P->first, sizeof *P->first, (uint64_t)cap + 1) ||
            grow((void **)&P->only, 1, cap) || grow((void **)&P->reach, 1, cap))
            return EDGE_BAD;
        P->cap = (uint32_t)cap;
    }
    if ((uint64_t)P->n * 2 >= P->slot_mask) {  /* keep the slots at most half full */
        uint64_t slots = (P->slot_mask + 1) * 2;
        free(P->slot);
        if (!(P->slot = calloc(slots, sizeof *P->slot)))
            return EDGE_BAD;
        P->slot_mask = slots - 1;
        for (uint32_t v = 0; v < P->n; v++)
            place(P, v);
    }
    if (!P->keys_only)
        P->state[P->n] = *cs;
    P->key[P->n] = k;
    P->reach[P->n] = 0;
    place(P, P->n);
    return P->n++;
}

/* Does the node of v need all its moves (the other side to move)? */
static int needs_all(const closed_proof *P, uint32_t v)
{
    game_state s = state_of(P, v);
    return (game_to_move(pns_dfpn_game(P->D), &s) == pns_dfpn_prover(P->D)) != P->claim_proven;
}

/* Does the table entry e (NULL: none) show the claim, on every path or on
 * some? */
static int shows(const closed_proof *P, const pns_entry *e)
{
    return e && ((P->claim_proven ? e->pn == 0 : e->dn == 0) || e->path_dependent);
}

/* The search's entry of key into *buf: buf, or NULL when it has none. */
static const pns_entry *entry(const closed_proof *P, game_key key, pns_entry *buf)
{
    return pns_dfpn_entry(P->D, key, buf) ? buf : NULL;
}

/* Did the search show the claim at key? */
static int shown(const closed_proof *P, game_key key)
{
    pns_entry buf;
    return shows(P, entry(P, key, &buf));
}

/* Did the search show the claim at key by move i (its best move)?  Where
 * the table lost that child, the claim's side lost the move the search
 * proved it by, and the child is worth searching again.  (Every lost move
 * of the other side is: the strategy may need it, and repair() searches
 * only those the strategy lists.) */
static int shown_by(const closed_proof *P, game_key key, int i)
{
    pns_entry buf;
    const pns_entry *e = entry(P, key, &buf);
    return e && e->best == i && shows(P, e);
}

/* Is v's run of edges its one read move's edge alone?  The claim side's
 * positions read by their best move alone keep one edge instead of one per
 * move (22 on Ostle's 5x5 board): the edges were the writer's biggest
 * array.  unfold() gives a position every edge
 * when widen() reads its other moves. */
static int compact(const closed_proof *P, uint32_t v)
{
    return P->only[v] != UNREAD_NONE && P->first[v + 1] - P->first[v] == 1;
}

/* The move of v that edge e (of v's run) is for. */
static int move_of(const closed_proof *P, uint32_t v, uint64_t e)
{
    return compact(P, v) ? P->only[v] : (int)(e - P->first[v]);
}

/* The edge of v's move i, NULL where it is not kept (a move not read of a
 * compact position). */
static uint32_t *edge_ref(const closed_proof *P, uint32_t v, int i)
{
    uint64_t f = P->first[v];
    if (compact(P, v))
        return i == P->only[v] ? &P->edge[f] : NULL;
    return f + (uint64_t)i < P->first[v + 1] ? &P->edge[f + (uint64_t)i] : NULL;
}

/* The target of v's move i; EDGE_BAD (cannot keep v to the set) where not
 * read. */
static uint32_t edge_at(const closed_proof *P, uint32_t v, int i)
{
    const uint32_t *to = edge_ref(P, v, i);
    return to ? *to : EDGE_BAD;
}

/* The edge of v's move i (m; all: v needs all its moves) into *to; a child
 * the search left open (its entry shows neither the claim nor its failure)
 * is EDGE_OPEN unless read_open: such entries are mostly off the proof, and
 * each read pulls in a region of the table the search never settled (read
 * eagerly, 10x the proof's positions on the Ostle 4x4 start, about 40x on
 * the 5x5 split's children), so widen() reads one only where a position
 * drops for want of it; a child read gets reach (the levels below it whose
 * open children are read at once).  -1 when out of memory. */
static int read_edge(closed_proof *P, uint32_t v, const game_state *s, game_move m, int i, int all, int read_open,
                     uint8_t reach, uint32_t *to)
{
    pns_dfpn *D = P->D;
    const game *g = pns_dfpn_game(D);
    game_state cs = *s;
    game_play(g, &cs, m);
    uint32_t pn, dn;
    if (pns_dfpn_leaf(D, &cs, &pn, &dn)) {
        *to = (P->claim_proven ? pn == 0 : dn == 0) ? EDGE_GOOD : EDGE_BAD;
        return 0;
    }
    game_key k = game_key_of(g, &cs);
    *to = find(P, k);
    pns_entry e_buf;
    const pns_entry *e = *to == EDGE_BAD ? entry(P, k, &e_buf) : NULL;
    int fails = e && (P->claim_proven ? e->dn == 0 : e->pn == 0);
    if (e && !fails && !read_open && !shows(P, e)) {
        *to = EDGE_OPEN;
        return 0;
    }
    if (e && !fails && (*to = add(P, &cs, k)) == EDGE_BAD)
        return -1;
    if (is_position(*to) && *to >= P->explored && P->reach[*to] < reach)
        P->reach[*to] = reach;
    if (!e && *to == EDGE_BAD && (all || shown_by(P, P->key[v], i)))
        *to = EDGE_MISSING;
    return 0;
}

/* Room for more edges past the last; -1 when out of memory or over the
 * budget. */
static int edge_room(closed_proof *P, uint64_t more)
{
    if (P->nedge + more <= P->edge_cap)
        return 0;
    uint64_t cap = grown_cap(P, P->edge_cap, P->edge_cap ? P->nedge + more : more > 1 << 16 ? more : 1 << 16,
                             sizeof *P->edge);
    if (cap == 0 || grow((void **)&P->edge, sizeof *P->edge, cap))
        return -1;
    P->edge_cap = cap;
    return 0;
}

/* Gives each compact position the set dropped an edge per move (those not
 * read EDGE_BAD, only[v] still naming the one read) for widen() to read:
 * the runs after it move up, from the last back, in place.  -1 when out of
 * memory or over the budget. */
static int unfold(closed_proof *P)
{
    const game *g = pns_dfpn_game(P->D);
    uint32_t n = P->explored;
    uint64_t more = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!P->in[v] && compact(P, v)) {
            game_state s = state_of(P, v);
            more += (uint64_t)game_count(g, &s) - 1;
        }
    if (more == 0)
        return 0;
    if (edge_room(P, more) != 0)
        return -1;
    uint64_t shift = more, end = P->first[n];
    P->first[n] += shift;
    for (uint32_t v = n; v-- > 0 && shift > 0;) {
        uint64_t f = P->first[v], len = end - f;
        if (!P->in[v] && P->only[v] != UNREAD_NONE && len == 1) {  /* compact(): first[v + 1] has moved */
            game_state s = state_of(P, v);
            uint64_t moves = (uint64_t)game_count(g, &s);
            uint32_t to = P->edge[f];
            shift -= moves - 1;
            for (uint64_t i = 0; i < moves; i++)
                P->edge[f + shift + i] = EDGE_BAD;
            P->edge[f + shift + P->only[v]] = to;
        } else {
            memmove(&P->edge[f + shift], &P->edge[f], len * sizeof *P->edge);
        }
        P->first[v] = f + shift;
        end = f;
    }
    P->nedge += more;
    return 0;
}

/* Expands the positions added since the last call (breadth first from the
 * root): one edge per move; of a claim side's position the search showed,
 * only its best move is read (the others wait as EDGE_BAD for widen()).
 * -1 when out of memory or the search stopped. */
static int explore(closed_proof *P)
{
    pns_dfpn *D = P->D;
    const game *g = pns_dfpn_game(D);
    for (uint32_t v = P->explored; v < P->n; v++) {
        P->first[v] = P->nedge;
        game_move mv[GAME_MAX_MOVES];
        game_state s = state_of(P, v);
        int n = game_moves(g, &s, mv);
        int all = needs_all(P, v), lost = 0;
        pns_entry e_buf;
    const pns_entry *e = all ? NULL : entry(P, P->key[v], &e_buf);
        P->only[v] = shows(P, e) && e->best < n && n > 1 ? e->best : UNREAD_NONE;
        int kept = P->only[v] == UNREAD_NONE ? n : 1;
        if (edge_room(P, (uint64_t)kept) != 0)
            return -1;
        for (int i = 0; i < n; i++) {
            uint32_t to = EDGE_BAD;  /* not read: cannot keep v to the set */
            uint8_t reach = P->reach[v];
            int read = P->only[v] == UNREAD_NONE || P->only[v] == i;
            if (!lost && read && read_edge(P, v, &s, mv[i], i, all, reach > 0, reach > 0 ? reach - 1 : 0, &to) != 0)
                return -1;
            if (kept == n || read)
                P->edge[P->nedge++] = to;
            lost = all && to == EDGE_BAD;  /* v is out of the set whatever its other moves do */
        }
        P->first[v + 1] = P->nedge;
        P->explored = v + 1;
        if (pns_dfpn_tick(D))
            return -1;
    }
    return 0;
}

/* Reads, of each position the set dropped, the moves not read yet (of a
 * position read by one move alone), and with open_too the children the
 * search left open too, with the levels below them read at once doubling
 * from round to round (0, 1, 3, 7 ... 255): where the open children needed
 * lie many levels down, a few rounds reach them, and only below the
 * positions that dropped for want of them (reading every open child of the
 * table at once after some rounds, as before 2026-11-27, took an Ostle
 * child's writer past 16 M positions; this bounds the rounds, not the
 * reading: the same child still read 22 M, docs/search.md).  The count
 * widened, or -1 when out of memory or stopped. */
static int64_t widen(closed_proof *P, int open_too)
{
    pns_dfpn *D = P->D;
    const game *g = pns_dfpn_game(D);
    int64_t widened = 0;
    if (unfold(P) != 0)
        return -1;
    int k = open_too ? P->open_rounds++ : 0;
    uint8_t reach = k >= 8 ? REACH_MAX : (uint8_t)((1u << k) - 1);
    for (uint32_t v = 0, reached = P->n; v < reached; v++) {
        if (P->in[v])
            continue;
        int open = 0;
        for (uint64_t e = P->first[v]; e < P->first[v + 1] && open_too && !open; e++)
            open = P->edge[e] == EDGE_OPEN;
        if (P->only[v] == UNREAD_NONE && !open)
            continue;
        game_move mv[GAME_MAX_MOVES];
        game_state s = state_of(P, v);
        int n = game_moves(g, &s, mv);
        int all = needs_all(P, v);
        for (int i = 0; i < n; i++) {
            uint32_t *to = &P->edge[P->first[v] + (uint64_t)i];
            int unread = P->only[v] != UNREAD_NONE && i != P->only[v];
            int reread = open && *to == EDGE_OPEN;
            if ((unread || reread) && read_edge(P, v, &s, mv[i], i, all, reread, reread ? reach : 0, to) != 0)
                return -1;
        }
        P->only[v] = UNREAD_NONE;
        widened++;
        if (pns_dfpn_tick(D))
            return -1;
    }
    return widened;
}

static int keeps(const closed_proof *P, uint32_t to)
{
    return to == EDGE_GOOD || (is_position(to) && P->in[to]) || (to == EDGE_MISSING && P->optimistic) ||
           (to == EDGE_OPEN && P->optimistic > 1);
}

/* The greatest subset in which every position keeps the claim, found as
 * retrograde analysis finds it: each position counts its moves that keep
 * to the set (the other side's position needs all of them, the claim
 * side's one); a position dropped lowers the counts of its predecessors,
 * which drop in turn where theirs no longer suffice.  Each edge is looked at
 * a few times; passes over the whole set until one drops nothing took as
 * many passes as the longest chain of drops (minutes on a set of tens of
 * millions of positions).  The arrays lay_out() fills later hold the
 * predecessor index, the counts and the work list meanwhile.  -1 when out
 * of memory. */
static int close_set(closed_proof *P)
{
    uint32_t n = P->n;
    uint64_t *start = P->id, *count = P->size;  /* start: n + 1 entries */
    uint32_t *work = P->order, top = 0;
    memset(start, 0, ((uint64_t)n + 1) * sizeof *start);
    for (uint64_t e = 0; e < P->first[n]; e++)
        if (is_position(P->edge[e]))
            start[P->edge[e] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        start[v + 1] += start[v];
    uint32_t *pred = malloc((start[n] ? start[n] : 1) * sizeof *pred);
    if (!pred)
        return -1;
    memcpy(count, start, (uint64_t)n * sizeof *count);  /* fill positions first */
    for (uint32_t v = 0; v < n; v++)
        for (uint64_t e = P->first[v]; e < P->first[v + 1]; e++)
            if (is_position(P->edge[e]))
                pred[count[P->edge[e]]++] = v;
    memset(P->in, 1, n);
    for (uint32_t v = 0; v < n; v++) {
        int all = needs_all(P, v);
        uint64_t kept = 0, missed = 0;
        for (uint64_t e = P->first[v]; e < P->first[v + 1]; e++) {
            int k = is_position(P->edge[e]) || keeps(P, P->edge[e]);  /* every position in, as yet */
            kept += k;
            missed += !k;
        }
        count[v] = kept;
        if (all ? missed > 0 : kept == 0) {
            P->in[v] = 0;
            work[top++] = v;
        }
    }
    while (top > 0) {
        uint32_t w = work[--top];
        for (uint64_t i = start[w]; i < start[w + 1]; i++) {
            uint32_t u = pred[i];
            if (P->in[u] && (needs_all(P, u) || --count[u] == 0)) {
                P->in[u] = 0;
                work[top++] = u;
            }
        }
    }
    free(pred);
    const struct pwrite_testing *t = pns_dfpn_options(P->D)->solved_testing;
    if (t && t->closed_observe) {
        uint8_t *all = malloc(n ? n : 1);
        if (!all)
            return -1;
        for (uint32_t v = 0; v < n; v++)
            all[v] = (uint8_t)needs_all(P, v);
        pwrite_closed_graph g = { n, P->first, P->edge, all, P->in, P->optimistic };
        t->closed_observe(&g);
        free(all);
    }
    return 0;
}

/* Does v's move to target to keep to the set through a position the search
 * showed? */
static int keeps_shown(const closed_proof *P, uint32_t to)
{
    return keeps(P, to) && is_position(to) && shown(P, P->key[to]);
}

/* The claim side's move at v: a supporting leaf, else the search's best
 * move, else one the search showed, else the first that keeps to the set. */
static int choose(const closed_proof *P, uint32_t v)
{
    uint64_t f = P->first[v], end = P->first[v + 1];
    for (uint64_t e = f; e < end; e++)
        if (P->edge[e] == EDGE_GOOD)
            return move_of(P, v, e);
    pns_entry t_buf;
    const pns_entry *t = entry(P, P->key[v], &t_buf);
    if (t && keeps_shown(P, edge_at(P, v, t->best)))
        return t->best;
    for (uint64_t e = f; e < end; e++)
        if (keeps_shown(P, P->edge[e]))
            return move_of(P, v, e);
    for (uint64_t e = f; e < end; e++)
        if (keeps(P, P->edge[e]))
            return move_of(P, v, e);
    return 0;
}

/* Is move i of v listed in the proof? */
static int listed(const closed_proof *P, uint32_t v, int i) { return needs_all(P, v) || P->chosen[v] == i; }

/* Is the move of edge e (move i of v) where its target is expanded? */
static int tree_edge(const closed_proof *P, uint32_t v, int i, uint32_t to)
{
    return is_position(to) && P->parent[to] == v && P->parent_move[to] == i;
}

/* The breadth-first tree of the listed moves from the root, the lines of
 * each subtree and the line number of each expansion. */
static void lay_out(closed_proof *P)
{
    for (uint32_t v = 0; v < P->n; v++)
        P->parent[v] = EDGE_BAD;
    uint64_t reached = 1;
    P->order[0] = 0;
    P->parent[0] = 0;
    P->parent_move[0] = 0xff;
    for (uint64_t q = 0; q < reached; q++) {
        uint32_t v = P->order[q];
        for (uint64_t e = P->first[v]; e < P->first[v + 1]; e++) {
            uint32_t to = P->edge[e];
            int i = move_of(P, v, e);
            if (listed(P, v, i) && is_position(to) && P->parent[to] == EDGE_BAD) {
                P->parent[to] = v;
                P->parent_move[to] = (uint8_t)i;
                P->order[reached++] = to;
            }
        }
    }
    for (uint64_t q = reached; q-- > 0;) {  /* children come after their parent */
        uint32_t v = P->order[q];
        uint64_t lines = 1;
        for (uint64_t e = P->first[v]; e < P->first[v + 1]; e++) {
            int i = move_of(P, v, e);
            if (listed(P, v, i))
                lines += tree_edge(P, v, i, P->edge[e]) ? P->size[P->edge[e]] : 1;
        }
        P->size[v] = lines;
    }
    P->id[0] = 0;
    for (uint64_t q = 0; q < reached; q++) {
        uint32_t v = P->order[q];
        uint64_t at = P->id[v] + 1;
        for (uint64_t e = P->first[v]; e < P->first[v + 1]; e++) {
            int i = move_of(P, v, e);
            if (!listed(P, v, i))
                continue;
            uint32_t to = P->edge[e];
            if (tree_edge(P, v, i, to)) {
                P->id[to] = at;
                at += P->size[to];
            } else {
                at++;
            }
        }
    }
}

typedef struct {
    uint32_t v;
    int next, n;
    game_move mv[GAME_MAX_MOVES];
} frame;

/* The leaf line of a supporting leaf (a game end or a table value). */
static int leaf_line(const closed_proof *P, const game_state *cs, FILE *out)
{
    if (game_result_of(pns_dfpn_game(P->D), cs) != GAME_ONGOING)
        return fputs("end\n", out) < 0 ? -1 : 0;
    tb_value tv;
    char err[256];
    if (tb_probe(pns_dfpn_options(P->D)->tb, cs, &tv, err, sizeof err) != 1)
        return -1;
    return fprintf(out, "tb %s %d\n", proof_tb_word(tv.wdl), tv.distance) < 0 ? -1 : 0;
}

/* Writes the lines, depth first along the breadth-first tree. */
static int emit(const closed_proof *P, FILE *out)
{
    const game *g = pns_dfpn_game(P->D);
    frame *stack = malloc(sizeof *stack * 64);
    int cap = 64, top = 0, rc = 0;
    if (!stack || fputs("0 - node\n", out) < 0) {
        free(stack);
        return -1;
    }
    stack[top].v = 0;
    stack[top].next = 0;
    game_state root = state_of(P, 0);
    stack[top].n = game_moves(g, &root, stack[top].mv);
    top++;
    while (top > 0 && rc == 0) {
        frame *f = &stack[top - 1];
        if (f->next == f->n) {
            top--;
            continue;
        }
        uint32_t v = f->v;
        int i = f->next++;
        if (!listed(P, v, i))
            continue;
        char text[GAME_TEXT_MAX];
        game_state vs = state_of(P, v);
        game_format_move(g, &vs, f->mv[i], text, sizeof text);
        uint32_t to = edge_at(P, v, i);
        if (fprintf(out, "%d %s ", top, text) < 0) {
            rc = -1;
        } else if (to == EDGE_GOOD) {
            game_state cs = vs;
            game_play(g, &cs, f->mv[i]);
            rc = leaf_line(P, &cs, out);
        } else if (!tree_edge(P, v, i, to)) {
            rc = fprintf(out, "ref %llu\n", (unsigned long long)P->id[to]) < 0 ? -1 : 0;
        } else if (fputs("node\n", out) < 0) {
            rc = -1;
        } else {
            if (top == cap) {
                frame *s = realloc(stack, sizeof *s * (size_t)cap * 2);
                if (!s) {
                    rc = -1;
                    break;
                }
                stack = s;
                cap *= 2;
            }
            frame *c = &stack[top++];
            c->v = to;
            c->next = 0;
            game_state ts = state_of(P, to);
            c->n = game_moves(g, &ts, c->mv);
        }
    }
    free(stack);
    return rc;
}

static void release(closed_proof *P)
{
    free(P->state);
    free(P->key);
    free(P->first);
    free(P->edge);
    free(P->slot);
    free(P->only);
    free(P->reach);
    free(P->in);
    free(P->chosen);
    free(P->parent);
    free(P->parent_move);
    free(P->order);
    free(P->size);
    free(P->id);
}

/* Sizes the per-position arrays to the positions found so far. */
static int size_arrays(closed_proof *P)
{
    uint64_t n = P->n;
    return grow((void **)&P->in, 1, n) || grow((void **)&P->chosen, 1, n) ||
           grow((void **)&P->parent, sizeof *P->parent, n) || grow((void **)&P->parent_move, 1, n) ||
           grow((void **)&P->order, sizeof *P->order, n) || grow((void **)&P->size, sizeof *P->size, n) ||
           grow((void **)&P->id, sizeof *P->id, n + 1) ? -1 : 0;
}

static void choose_all(closed_proof *P)
{
    for (uint32_t v = 0; v < P->n; v++)
        P->chosen[v] = P->in[v] && !needs_all(P, v) ? (uint8_t)choose(P, v) : 0;
}

/* Searches again, from scratch, the missing positions the strategy would
 * list if they held the claim (the other side's moves, and the claim's
 * side's chosen move), and with optimistic 2 the open ones too; adds those
 * that hold.  The count searched, or -1 when out of memory or stopped. */
static int64_t repair(closed_proof *P)
{
    pns_dfpn *D = P->D;
    const game *g = pns_dfpn_game(D);
    int64_t searched = 0;
    uint32_t reached = P->n;  /* not the positions added here */
    /* a position whose listed child failed, or below one, needs no more
     * searches this round: two children of one position in an Ostle split
     * child's writer took 43 s and 55 s after a sibling had failed (2026-11-28) */
    uint8_t *failed = calloc(reached, 1);
    if (!failed)
        return -1;
    for (uint32_t v = 0; v < reached; v++) {
        if (P->parent[v] == EDGE_BAD)
            continue;
        if (v > 0 && P->parent[v] < reached && failed[P->parent[v]]) {
            failed[v] = 1;
            continue;
        }
        game_move mv[GAME_MAX_MOVES];
        game_state vs = state_of(P, v);
        int n = game_moves(g, &vs, mv);
        for (int i = 0; i < n && !failed[v]; i++) {
            uint32_t *to = edge_ref(P, v, i);
            if (!to || (*to != EDGE_MISSING && !(*to == EDGE_OPEN && P->optimistic > 1)) || !listed(P, v, i))
                continue;
            game_state cs = vs;
            game_play(g, &cs, mv[i]);
            game_key k = game_key_of(g, &cs);
            pns_child c;
            /* this writer holds keys, never pointers into the table, so its
             * searches may grow it: pinned at the writer's start, a table the
             * search had left small filled up under them (an Ostle split
             * child's: 147 MB full of a 4.7 GB reserve for 1,600 s) */
            int pinned = pns_dfpn_set_pinned(P->D, 0);
            pns_dfpn_run(P->D, &cs, &c);
            pns_dfpn_set_pinned(P->D, pinned);
            if (pns_dfpn_stopped(D)) {
                searched = -1;
                goto out;
            }
            searched++;
            int holds = P->claim_proven ? c.pn == 0 : c.dn == 0, fails = P->claim_proven ? c.dn == 0 : c.pn == 0;
            failed[v] = (uint8_t)fails;
            uint32_t was = *to;
            *to = find(P, k);
            if (*to == EDGE_BAD && holds && (*to = add(P, &cs, k)) == EDGE_BAD) {
                searched = -1;
                goto out;
            }
            if (*to == EDGE_BAD && was == EDGE_OPEN && !fails)
                *to = EDGE_OPEN;  /* still open: it may yet be read */
        }
    }
out:
    free(failed);
    return searched;
}

/* The tables the listed leaves read. */
static void leaf_tables(const closed_proof *P, proof_tables *t)
{
    const game *g = pns_dfpn_game(P->D);
    memset(t, 0, sizeof *t);
    for (uint32_t v = 0; v < P->n; v++) {
        if (P->parent[v] == EDGE_BAD)
            continue;  /* not reached: not written */
        game_move mv[GAME_MAX_MOVES];
        game_state vs = state_of(P, v);
        int n = game_moves(g, &vs, mv);
        for (int i = 0; i < n; i++) {
            game_state cs = vs;
            game_play(g, &cs, mv[i]);
            if (listed(P, v, i) && edge_at(P, v, i) == EDGE_GOOD &&
                game_result_of(g, &cs) == GAME_ONGOING)
                proof_tables_add(t, g, &cs);
        }
    }
}

/* Why a child edge does not keep to the set, in words. */
static const char *edge_fault(const closed_proof *P, uint32_t v, int i)
{
    uint32_t to = edge_at(P, v, i);
    if (is_position(to))
        return "a position dropped from the set";
    if (to == EDGE_MISSING)
        return "a position the table lost, searched again without success";
    if (to == EDGE_OPEN)
        return "a position the search left open";
    pns_dfpn *D = P->D;
    const game *g = pns_dfpn_game(D);
    game_move mv[GAME_MAX_MOVES];
    game_state cs = state_of(P, v);
    game_moves(g, &cs, mv);
    game_play(g, &cs, mv[i]);
    uint32_t pn, dn;
    if (pns_dfpn_leaf(D, &cs, &pn, &dn))
        return "a game end or table value against the claim";
    pns_entry e_buf;
    const pns_entry *e = entry(P, game_key_of(g, &cs), &e_buf);
    if (!e)
        return "a position the table lost, below one the search had not shown";
    return (P->claim_proven ? e->dn == 0 : e->pn == 0) ? "a position the table says fails" : "a position not read";
}

/* Follows from the root, through positions out of the set, the claim
 * side's best move and the other side's first move that leaves the set,
 * down to the edge that is not a position: why the set lost the root. */
static void explain(const closed_proof *P, char *why, size_t size)
{
    const game *g = pns_dfpn_game(P->D);
    uint32_t v = 0;
    int depth = 0, i = 0, kept = 0;
    for (uint32_t k = 0; k < P->n; k++)
        kept += P->in[k];
    for (; depth < 1000 && (uint32_t)depth < P->n; depth++) {  /* the line may go round a cycle */
        game_state s = state_of(P, v);
        int n = game_count(g, &s);
        if (needs_all(P, v)) {
            for (i = 0; i < n && keeps(P, edge_at(P, v, i)); i++)
                ;
        } else {
            pns_entry e_buf;
    const pns_entry *e = entry(P, P->key[v], &e_buf);
            i = e && e->best < n ? e->best : 0;
        }
        if (i >= n)
            break;
        uint32_t to = edge_at(P, v, i);
        if (!is_position(to) || P->in[to])
            break;
        v = to;
    }
    game_state s = state_of(P, v);
    int n = game_count(g, &s);
    snprintf(why, size, "%u positions read, %d kept; at depth %d the %s side's move %d leads to %s", P->n, kept, depth,
             needs_all(P, v) ? "other" : "claim's", i, i < n ? edge_fault(P, v, i) : "nothing out of the set");
}

/* With the positions the table lost (optimistic 1), and the open children
 * too (2), counted as kept: if the set then holds the root, searches again
 * those its strategy lists (repair()).  The count searched (0: the root is
 * not held that way, or nothing to search), or -1. */
static int64_t search_lost(closed_proof *P, int optimistic)
{
    P->optimistic = optimistic;
    if (close_set(P) != 0)
        return -1;
    if (!P->in[0])
        return 0;
    choose_all(P);
    lay_out(P);
    return repair(P);
}

int pwrite_closed(pns_dfpn *D, const game_state *root, const proof_claim *c, FILE *out, pns_proof_report *rep)
{
    closed_proof P;
    memset(&P, 0, sizeof P);
    P.D = D;
    P.claim_proven = c->proven;
    const pns_options *o = pns_dfpn_options(D);
    const struct pwrite_testing *testing = o->solved_testing;
    const game *g = pns_dfpn_game(D);
    P.keys_only = game_has_unkey(g) && !(testing && testing->closed_keep_states);
    P.slot_mask = (1 << 13) - 1;
    /* by default as much as the table, but never so little that a small
     * table (tests use a few entries) starves the writer */
    size_t floor = (size_t)256 << 20;
    P.budget = o->proof_memory ? o->proof_memory : o->memory > floor ? o->memory : floor;
    uint32_t pn, dn;
    if (pns_dfpn_leaf(D, root, &pn, &dn)) {
        snprintf(rep->why, sizeof rep->why, "the root is a leaf: one line, the tree writer's");
        return 1;
    }
    int rc = -1;
    if (!(P.slot = calloc(P.slot_mask + 1, sizeof *P.slot)) || add(&P, root, game_key_of(g, root)) == EDGE_BAD)
        goto out;
    for (;;) {
        if (explore(&P) != 0 || size_arrays(&P) != 0)
            goto out;
        P.optimistic = 0;
        if (close_set(&P) != 0)
            goto out;
        if (P.in[0])
            break;
        /* the moves not read yet of the positions it dropped first: reading
         * the table costs far less than searching what it lost (a1U of the
         * Ostle split proof: a repair searched for an hour where the
         * table's other moves were never read) */
        int64_t widened = widen(&P, 0);
        if (widened == 0 && !P.open_searched) {
            /* would the children the search left open close the set if they
             * held? then search those the strategy lists again, once, before
             * reading any: reading below them pulls in what the search never
             * settled (an Ostle child's writer read 11.8 M positions for a
             * proof of 194 K, most below open children, with children never
             * searched) */
            P.open_searched = 1;
            int64_t searched = search_lost(&P, 2);
            if (searched < 0)
                goto out;
            rep->repaired += (uint64_t)searched;
            if (searched > 0)
                continue;
            P.optimistic = 0;  /* the set as it is, for widen() */
            if (close_set(&P) != 0)
                goto out;
        }
        if (widened == 0)  /* then the children the search left open */
            widened = widen(&P, 1);
        if (widened < 0)
            goto out;
        P.widened += (uint64_t)widened;
        if (widened > 0)
            continue;
        /* would the positions the table lost close the set? then search them */
        int64_t searched = search_lost(&P, 1);
        if (searched < 0)
            goto out;
        if (!P.in[0]) {
            explain(&P, rep->why, sizeof rep->why);
            rc = 1;
            goto out;
        }
        if (searched == 0) {  /* nothing to search again: as if the lost positions failed */
            P.optimistic = 0;
            rc = close_set(&P) != 0 ? -1 : 1;
            explain(&P, rep->why, sizeof rep->why);
        }
        if (searched <= 0)
            goto out;
        rep->repaired += (uint64_t)searched;
    }
    choose_all(&P);
    lay_out(&P);
    proof_tables *t = malloc(sizeof *t);
    if (t)
        leaf_tables(&P, t);
    rc = !t || proof_header_write(out, c, o->tb, t, NULL, pns_dfpn_error(D), PNS_ERROR_MAX) != 0 || emit(&P, out) != 0
             ? -1 : 0;
    free(t);
    rep->read = P.n;
    rep->widened = P.widened;
out:
    if (P.over)
        snprintf(pns_dfpn_error(D), PNS_ERROR_MAX,
                 "the closed-set writer read %u positions of the table's graph, over --proof-memory (%zu MB): "
                 "split the position a move deeper (pnsolve campaign) or give it more", P.n, P.budget >> 20);
    release(&P);
    return rc;
}
