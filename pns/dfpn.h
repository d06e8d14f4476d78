/* pns/dfpn.h - private to pns/: the df-pn searcher with its GHI-safe
 * tables, used by pns_solve and the score search, and held open for the
 * o->solved hook (pns.h's pns_dfpn_* calls; pwrite/ searches again inside
 * a proof through them). */
#ifndef PNSOLVE_PNS_DFPN_H
#define PNSOLVE_PNS_DFPN_H

#include "search.h"
#include "tt.h"

/* Which earlier positions of the path a solved value depends on: bit i is
 * the position i+1 plies above the node; REFS_FAR stands for any position
 * further up, REFS_SET for positions the hook's owner asks the search to
 * assume (pns_assume).  0: the value holds on every path. */
typedef uint64_t refs_t;
#define REFS_FAR PNS_REFS_FAR
#define REFS_SET ((refs_t)1 << 62)
#define REFS_NEAR_BITS 62
#define REFS_KEYS PNS_REFS_KEYS

/* A child's threshold for the summed number (dn at OR nodes, pn at AND
 * nodes): what its siblings leave of the node's threshold th.  An unbounded
 * th stays unbounded: a saturated sum (PNS_INF - 1) would otherwise leave the
 * child its own number + 1, and the node would call it again and again for
 * one more unit each (seen on Ostle: a billion nodes, no new position). */
/* A threshold computed in 64 bits, PNS_INF (unbounded) where it overflows. */
static inline uint32_t clamp_th(uint64_t v) { return v >= PNS_INF ? PNS_INF : (uint32_t)v; }

static inline uint32_t dfpn_sum_threshold(uint32_t th, uint32_t sum, uint32_t mine)
{
    return th >= PNS_INF ? PNS_INF : clamp_th((uint64_t)th - sum + mine);
}

/* The bit of path position d for a node one below the end of the path. */
static inline refs_t refs_bit(const pns_search *S, int d)
{
    int dist = S->depth - 1 - d;
    return dist < REFS_NEAR_BITS ? (refs_t)1 << dist : REFS_FAR;
}

/* A child's references seen from its parent: bit 0 was the parent itself,
 * inside the parent's own subtree. */
static inline refs_t refs_up(refs_t child)
{
    const refs_t keep = REFS_FAR | REFS_SET;
    return ((child & ~keep) >> 1) | (child & keep);
}

/* The exact keys named by refs of a node one below the end of the path;
 * returns their number, -1 if refs names more than REFS_KEYS or goes far. */
static inline int refs_keys(const pns_search *S, refs_t refs, game_key *need)
{
    if ((refs & (REFS_FAR | REFS_SET)) || __builtin_popcountll(refs) > REFS_KEYS)
        return -1;
    int n = 0;
    for (int i = 0; i < REFS_NEAR_BITS; i++)
        if (refs >> i & 1)
            need[n++] = S->path[S->depth - 1 - i];
    return n;
}

/* The references of a node one below the end of the path that needs the
 * positions need[0..n); 0, or -1 (refs untouched) when one of them is not
 * on the path. */
static inline int refs_of_keys(const pns_search *S, const game_key *need, int n, refs_t *refs)
{
    refs_t r = 0;
    for (int i = 0; i < n; i++) {
        int d = pns_path_find(S, need[i]);
        if (d < 0)
            return -1;
        r |= refs_bit(S, d);
    }
    *refs = r;
    return 0;
}

typedef pns_child child_t;  /* pns.h */

/* A path-dependent solved value: it holds wherever all of need[] are on the
 * path (more repetitions only help the side that a repetition helps). */
typedef struct {
    uint64_t lo, hi;
    game_key need[REFS_KEYS];
    uint8_t n, proven, used, pad;
} cond_entry;


struct dfpn {
    pns_search S;
    tt_table *tt;     /* own_tt, or the table the threads of one search share */
    tt_table own_tt;
    /* threads of one search (dfpn_team.c): per stripe of key hashes, how many
     * threads have a position of it on their path (virtual loss); NULL alone */
    uint8_t *busy;
    uint32_t busy_mask;
    pns_assume *assume; /* NULL but while the hook's owner has the search assume a set (pns_dfpn_assume) */
    cond_entry *cond; /* path-dependent values, two ways per bucket */
    size_t cond_buckets;
    uint64_t cond_stored; /* values stored since the last pns_dfpn_cond_clear */
    int tt_pinned;    /* the table keeps its size (pns_dfpn_pin) */
    const game_state *root_state; /* for checkpoints (NULL: none) */
    int tag;          /* score target of the current score question */
    child_t **frames; /* children of the node at each depth */
    int frames_cap;
};
typedef struct dfpn dfpn;

int pns_dfpn_init(dfpn *D, const game *g, const game_state *root, const pns_options *o);
/* As pns_dfpn_init, but D searches in the shared table tt (pns_tt_share
 * done) with a path-dependent table of cond_bytes of its own, and its
 * endgame solver uses solver's table (NULL: one of its own). */
int pns_dfpn_init_shared(dfpn *D, const game *g, const game_state *root, const pns_options *o, tt_table *tt,
                         size_t cond_bytes, game_solver *solver);
void pns_dfpn_free(dfpn *D);
/* Empties the path-dependent table (a new question); touches it only if it holds something. */
void pns_dfpn_cond_clear(dfpn *D);
/* Before searching from root s: loads o->resume if given and arms the
 * periodic checkpoints; -1 with S.error when the checkpoint does not load. */
int pns_dfpn_start(dfpn *D, const game_state *s);
/* After searching: writes o->checkpoint if given; -1 with S.error. */
int pns_dfpn_checkpoint(dfpn *D, const game_state *s);
/* The table's entry for key as an answer to D's current question (a score
 * question reads entries of other targets that imply its answer), or NULL. */
const tt_entry *pns_dfpn_lookup(const dfpn *D, game_key key);
/* One MID call: searches st until pn >= thpn, dn >= thdn or solved. */
void pns_dfpn_mid(dfpn *D, const game_state *st, int depth, uint32_t thpn, uint32_t thdn, child_t *self);
/* Searches s from the root until solved or stopped (pns_solve's df-pn), on
 * o->threads threads (dfpn_team.c). */
void pns_dfpn_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);

/* Threads of one search (dfpn_team.c): the lead and threads - 1 helpers on
 * the lead's table, shared from then on; NULL when out of memory. */
typedef struct dfpn_team dfpn_team;
dfpn_team *pns_dfpn_team_new(dfpn *lead, const game_state *root, int threads);
/* Runs every member from s until one ends; *root as the member that solved
 * it saw it, else the lead's, and the lead stopped as the first member to
 * end was; 1 if solved. */
int pns_dfpn_team_run(dfpn_team *T, const game_state *s, child_t *root);
/* pns_dfpn_team_run with T, else pns_dfpn_run of D alone. */
int pns_dfpn_go(dfpn *D, dfpn_team *T, const game_state *s, child_t *root);
/* Adds the helpers' nodes, memory and first error to r (nothing for NULL). */
void pns_dfpn_team_report(const dfpn_team *T, pns_result *r);
/* Adds what pns_dfpn_team_report gathered in helpers to r, once the
 * lead's own report is in r: counts summed, the table's accesses the
 * helpers' (which count every member's), r's error else theirs. */
void pns_dfpn_team_add(pns_result *r, const pns_result *helpers);
/* Frees the helpers; the lead is the caller's again, alone. */
void pns_dfpn_team_free(dfpn_team *T);

#endif
