/* tablebase/tablebase.h - probing the tables: a program that reads
 * answers includes this header alone (as Fathom's tbprobe.h stands apart
 * from the generator).  It opens a game's tables, probes a position, gives
 * every legal move's value and a best move, and a table's hash.  Building,
 * verifying, the layers and reachability are other modules (tbbuild/,
 * tblayers/, tbreach/), and the files' format is tbfile/'s.
 *
 * Two kinds of tables are probed the same way: the win/draw/loss tables of
 * retrograde analysis (Jungle, Ostle, tic-tac-toe, graphs), whose values
 * are for the side to move with the distance in plies to the end of the
 * game under optimal play (the winner minimising, the loser maximising; a
 * win with the next move has distance 1); and the exact scores of the
 * strong solutions by layers (Othello to 40 squares), the final disc
 * difference for the side to move.
 */
#ifndef PNSOLVE_TABLEBASE_H
#define PNSOLVE_TABLEBASE_H

#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"

typedef enum { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 } tb_wdl;

/* A probe's one value type: wdl always; distance for a win/draw/loss
 * table, score for a table of scores. */
typedef struct {
    tb_wdl wdl;
    int distance;  /* plies to the end: 0 for a draw, and for a score */
    int scored;    /* 1: from a table of exact scores, wdl the sign of score */
    int score;     /* scored: the final score for the side to move */
} tb_value;

/* A table's identity for proofs: BLAKE2b-256 of its values in index order,
 * each as two little-endian bytes (0 draw, 2d+1 win in d, 2d loss in d), so
 * that it does not change when the file is encoded again. */
#define TB_HASH_BYTES 32
#define TB_HASH_HEX (2 * TB_HASH_BYTES + 1)

/* The state indices a set's tables are read through (tbfile/tbfile.h). */
typedef struct tb_index tb_index;

/* --- probing ------------------------------------------------------------- */

typedef struct tb_set tb_set;

/* Opens the tables of g in dir eagerly: every table file of g's there
 * mapped, its header, block offsets and state index checked (a raw file's
 * one checksum too), so that a bad file is named here and no probe makes
 * an index or writes a file; for a game with layers (Othello), its scores
 * read whole with every checksum.  Not each compressed block's checksum,
 * which a probe checks as it decodes the block.  NULL with err: no table
 * of g in dir, a table damaged or another game's, out of memory. */
tb_set *tb_open(const game *g, const char *dir, char *err, size_t errlen);
/* As tb_open, but each table is mapped when first probed, and none need
 * be there: for a builder whose tables appear as it goes, and a search or
 * checker that reads only the few tables its positions reach.  NULL only
 * when out of memory. */
tb_set *tb_open_lazy(const game *g, const char *dir);
/* As tb_open_lazy, but the state indices are made from the rules, never read
 * from the index files beside the tables (a check that trusts nothing on
 * disk but the values). */
tb_set *tb_open_fresh(const game *g, const char *dir);
/* The state indices t's tables are read through (tbfile.h's tb_index_need). */
tb_index *tb_set_index(tb_set *t);
/* Whether t holds exact scores (a game with layers), not win/draw/loss. */
int tb_set_scored(const tb_set *t);
/* Value of live state s: 1 found, 0 no table for its material, -1 a table
 * file is missing its pieces or corrupt (err names the file).  Thread-safe. */
int tb_probe(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen);
/* As tb_probe for any state s: a finished game's win, draw or loss from
 * the rules (distance 0), else tb_probe's (a strong solution of scores
 * holds its finished states, and no state it cannot reach). */
int tb_probe_any(tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen);
/* tb_probe of each live state s[0..n), n at most GAME_MAX_MOVES: found[k]
 * 1 (v[k] set) or 0 (no table for its material), the entries of those with
 * tables fetched together rather than one miss after another; 0, or -1 on
 * a table error (err).  Thread-safe. */
int tb_probe_each(tb_set *t, const game_state *s, int n, tb_value *v, int *found, char *err, size_t errlen);
/* tb_probe_each of s[0..n) (n at most GAME_MAX_MOVES) into v[0..n): 1 all
 * found, 0 when s[*failed] is the first without a table, -1 on a table
 * error (err). */
int tb_probe_many(tb_set *t, const game_state *s, int n, tb_value *v, int *failed, char *err, size_t errlen);
/* A best move of live state s by the tables (the winner's fastest, the
 * loser's slowest, a drawing one in a draw, the highest score; the first
 * such in move order),
 * with s's value: 1 found, 0 when s or one of its children has no table,
 * -1 a table error (err). */
int tb_best_move(tb_set *t, const game_state *s, game_move *best, tb_value *v, char *err, size_t errlen);
/* A legal move and its value for the side that makes it. */
typedef struct {
    game_move move;
    int found;       /* 0: the position it leads to has no table (value unset) */
    tb_value value;  /* a move into a position lost in d plies is a win in d + 1; one that
                      * ends the game, a win or loss in 1 (a draw: distance 0); a
                      * score, the child's negated where the other side moves next */
} tb_move_value;
/* The value of every legal move of live state s, best first, as Fathom's
 * root probe gives them: wins fastest first, then draws, then losses
 * slowest first (scores highest first), moves without a table last, ties
 * in move order.  The
 * number of moves (out holds GAME_MAX_MOVES), or -1 with err (a table
 * error).  Thread-safe. */
int tb_probe_moves(tb_set *t, const game_state *s, tb_move_value *out, char *err, size_t errlen);
/* A move's place in tb_probe_moves's order, lower first: wins by distance,
 * draws, losses by distance down (scores from the highest down), moves
 * without a value last.  For a caller that sorts values of its own the same
 * way (a distance of -1, none known, keeps its class's order). */
long tb_move_rank(const tb_move_value *m);
/* From now on a compressed table is decoded whole into memory (a byte per
 * entry) when it is first loaded: random probes then cost a memory read, not
 * a block decode (a search over the 4.8 G-entry nine-piece Ostle table: 16 k
 * nodes/s without, 118 k with), at the table's size in memory. */
void tb_set_resident(tb_set *t);
/* As tb_set_resident, but each table decoded into "<table file>.dec" beside
 * it (made once, checked by its checksum on every mapping) and mapped from
 * there: one copy in the page cache for every process on the machine;
 * where that file cannot be made or mapped, into memory as above. */
void tb_set_resident_shared(tb_set *t);
/* Sets the cache of decoded blocks that each thread probing t's compressed
 * tables keeps to about `bytes` (a power of two of 32 KB blocks, at least
 * one; 4 MB until set), from the thread's next probe of t on: a search
 * probing compressed six-piece Jungle tables decoded a block for every
 * second probe with 4 MB and every sixth with 512 MB.  A setting of t
 * alone: a thread that probes two sets of other sizes remakes its cache
 * as it turns from one to the other. */
void tb_set_cache_size(tb_set *t, size_t bytes);
/* Loads the table of material mat now: 1 loaded, 0 absent, -1 bad (err). */
int tb_load(tb_set *t, int mat, char *err, size_t errlen);
/* Treats material mat as absent from now on (to check a search against the
 * table it does not see); 0, or -1 if mat was already loaded. */
int tb_withhold(tb_set *t, int mat);
/* The hash (TB_HASH_BYTES) of material mat's table as hex (computed once
 * per set): 1, 0 if the table is absent (or t holds scores, whose files
 * carry checksums instead), -1 if it is bad (err). */
int tb_hash(tb_set *t, int mat, char hex[TB_HASH_HEX], char *err, size_t errlen);
/* Hashes the tables of mats[0..n) in t on up to `threads` threads (<= 0:
 * all cores), one table a thread, for the tb_hash calls that follow;
 * absent or bad tables are left for those calls to report. */
void tb_hash_ahead(tb_set *t, const int *mats, int n, int threads);
/* From now on tb_hash keeps each table's hash in "<table file>.b2" beside
 * it (where the directory can be written) and takes it from there while
 * the table file's header, which holds its checksums, is unchanged: a proof
 * writer names six six-piece Jungle tables in seconds, not minutes.  A
 * checker does not call this: it hashes the values it reads. */
void tb_set_hash_files(tb_set *t);
/* Closes every table of t but those of keep[0..n); only while no thread
 * probes t (the builder, between tables). */
void tb_release_others(tb_set *t, const int *keep, int n);
/* Unmaps every table and frees t; NULL is allowed. */
void tb_close(tb_set *t);

/* A random live position of table material mat of t's game g that is its
 * own canonical entry (not a symmetric twin), drawn with the stream *rng
 * (util_random); 0, or -1 after 1000 draws found none. */
int tb_draw_position(tb_set *t, const game *g, int mat, uint64_t *rng, game_state *s);

#endif
