/* tests/suites.h - each test file registers its CUnit suites. */
#ifndef PNSOLVE_TEST_SUITES_H
#define PNSOLVE_TEST_SUITES_H

#include <CUnit/CUnit.h>

#include "../games/game.h"
#include "../pns/pns.h"
#include "../pwrite/pwrite.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"

void suite_crosscheck(void);
void suite_rules(void);
void suite_ranking(void);
void suite_tablebase(void);
void suite_search(void);
void suite_tt(void);
void suite_proofs(void);
void suite_score(void);
void suite_othello_solver(void);
void suite_puzzle(void);
void suite_ostle_tb(void);
void suite_proof_trust(void);
void suite_tictactoe(void);
void suite_campaign(void);
void suite_campaign_trust(void);
void suite_tb_ranks(void);
void suite_api(void);
void suite_api_moves(void);
void suite_layers(void);
void suite_symbolic(void);
void suite_sweep(void);

/* Whether the slow cross-checks run too (make check-slow sets PNSOLVE_SLOW):
 * the same tests over more cases. */
int test_slow(void);
/* Opens a game or fails the test run loudly (test set-up, not a test). */
game *test_open(const char *spec, const char *variant);
/* Removes a scratch directory and everything in it; the exit status of rm. */
int test_remove_dir(const char *dir);
/* Whether two files hold the same bytes (both must exist). */
int test_files_equal(const char *a, const char *b);
/* How many of g's tables with at most max_pieces pieces are not the same
 * file in dirs a and b (missing from either counts). */
int test_tables_differ(const game *g, const char *a, const char *b, int max_pieces);
/* Parses a position that the test knows to be valid. */
game_state test_parse(const game *g, const char *text);
/* The start played on by a random number (below max_plies) of random moves
 * into *s; 1 if the game is still on there. */
int test_random_state(const game *g, unsigned long long *seed, int max_plies, game_state *s);
/* The state indices of g's rules, made in memory as asked, kept for the run. */
tb_index *test_indices(const game *g);
/* The view of g's state indices with material mat's made (in memory, once
 * per game name for the whole run; NULL for a game of one state per position
 * is never returned: the view is then empty). */
const game_tb_index *test_index(const game *g, int mat);
/* The same with the material of state s made (if s has one). */
const game_tb_index *test_index_of(const game *g, const game_state *s);
/* Indices of table mat whose enumeration by game_tb_ops.each (in uneven
 * chunks) disagrees with unindex (state) or index (twin flag); 0 is good. */
long test_each_mismatches(const game *g, int mat);

/* A position of a random game of g (an Othello board) stopped at empties
 * empty squares (or at its end). */
void test_random_position(const game *g, game_state *s, int empties, unsigned long long *seed);
/* v, a solver's answer in the window (a, b), as fail-soft promises it
 * against the true score want: a bound on its side outside, exact inside. */
void test_assert_fail_soft(int v, int a, int b, int want);

/* Plain minimax over the rules, no table (a game with no cycles, as
 * tic-tac-toe): +1 the side to move wins, 0 draw, -1 loses. */
int test_minimax(const game *g, const game_state *s);

/* The first lines of a proof header of g as the writer puts them (the
 * format version, the game, the graph file's hash): a static buffer. */
const char *test_proof_head(const game *g);
/* proof_verify of a proof held in a string, with the tables in tb_dir
 * (NULL: none): 0 sound, else -1 with the reason in err. */
int test_check_proof(const char *text, const char *tb_dir, char *err, size_t errlen);
/* pwrite_proof into a string (the caller frees it), NULL when no proof
 * was written (r says why). */
char *test_proof_text(const game *g, const game_state *s, const pns_options *o, pns_result *r);

#endif
