/* pns/view.c - a df-pn search held open for the o->solved hook (pns.h):
 * what it solved, read as copies, and the few calls through which the
 * hook's owner (a proof writer, pwrite/) follows a path and searches again.
 * Nothing here knows what a proof is. */
#include "dfpn.h"

int pns_dfpn_entry(const pns_dfpn *D, game_key key, pns_entry *out)
{
    const tt_entry *e = pns_dfpn_lookup(D, key);
    if (!e)
        return 0;
    *out = (pns_entry){ e->pn, e->dn, e->best, (e->flags & TT_COND) != 0 };
    return 1;
}

int pns_dfpn_leaf(pns_dfpn *D, const game_state *s, uint32_t *pn, uint32_t *dn)
{
    return pns_search_leaf(&D->S, s, pn, dn);
}

int pns_dfpn_path_push(pns_dfpn *D, game_key key) { return pns_path_push(&D->S, key); }

void pns_dfpn_path_pop(pns_dfpn *D) { pns_path_pop(&D->S); }

int pns_dfpn_path_find(const pns_dfpn *D, game_key key) { return pns_path_find(&D->S, key); }

int pns_dfpn_depth(const pns_dfpn *D) { return D->S.depth; }

int pns_dfpn_refs_keys(const pns_dfpn *D, uint64_t refs, game_key *need) { return refs_keys(&D->S, refs, need); }

uint64_t pns_dfpn_refs_at(const pns_dfpn *D, int d) { return refs_bit(&D->S, d); }

int pns_dfpn_refs_of_keys(const pns_dfpn *D, const game_key *need, int n, uint64_t *refs)
{
    return refs_of_keys(&D->S, need, n, refs);
}

uint64_t pns_refs_up(uint64_t child_refs) { return refs_up(child_refs); }

int pns_dfpn_tick(pns_dfpn *D) { return pns_search_tick(&D->S); }

void pns_dfpn_mark(pns_dfpn *D, game_key key) { pns_tt_flag(D->tt, key, TT_MARK, -1); }

void pns_dfpn_deadline(pns_dfpn *D, double t) { D->S.write_until = t; }

const game *pns_dfpn_game(const pns_dfpn *D) { return D->S.g; }

const pns_options *pns_dfpn_options(const pns_dfpn *D) { return D->S.o; }

int pns_dfpn_prover(const pns_dfpn *D) { return D->S.prover; }

int pns_dfpn_stopped(const pns_dfpn *D) { return D->S.stopped; }

const char *pns_dfpn_stopped_by(const pns_dfpn *D) { return D->S.stopped_by; }

void pns_dfpn_stop(pns_dfpn *D) { D->S.stopped = 1; }

char *pns_dfpn_error(pns_dfpn *D) { return D->S.error; }

int pns_dfpn_tables(const pns_dfpn *D) { return D->S.tb_ok; }

void pns_dfpn_report(const pns_dfpn *D, pns_result *r)
{
    pns_search_report(&D->S, r);
    size_t kept_bytes;
    pns_tt_kept_counts(D->tt, &r->kept, &r->kept_dropped, &kept_bytes);
    r->peak_bytes += kept_bytes;
}

int pns_draw_proves(const pns_options *o) { return pns_search_draw_proves(o); }

_Static_assert(sizeof(((pns_search *)0)->error) == PNS_ERROR_MAX, "pns_dfpn_error's buffer is PNS_ERROR_MAX bytes");
