/* tests/ref.h - naive reference rules, written apart from games/: character
 * grids, explicit direction loops, positions as notation strings.  Their only
 * job is to disagree with the fast generators when either is wrong. */
#ifndef PNSOLVE_TEST_REF_H
#define PNSOLVE_TEST_REF_H

#define REF_MAX 300
#define REF_TEXT 200

typedef struct {
    char move[16];
    char after[REF_TEXT];
} ref_child;

/* result letters: 'o' ongoing, '0' player 0 won, '1' player 1 won, 'd' draw */

/* Jungle Checkers: children of a JFEN position; *result as above. */
int ref_jungle_children(const char *jfen, int classic, ref_child *out, char *result);

/* Writes the JFEN of a board given as a letter (or 0) per square (rank-1)*7+file. */
void ref_jungle_jfen(const char grid[49], int side, char *out);

/* Ostle on a w x h board: children of a position given as "board side" (no
 * forbidden-move field); prev is the position before the opponent's last move
 * (same form) or NULL.  Children are in the same form. */
int ref_ostle_children(int w, int h, const char *pos, const char *prev, ref_child *out, char *result);
/* The least text (as above) among pos's images under the board's symmetries
 * (8 on a square board, else 4), colours swapped first if White is to move,
 * so that Black moves: the Ostle paper's canonical position. */
void ref_ostle_canonical(int w, int h, const char *pos, char *out);
/* The state (pos, the position before the last move, or NULL) up to the
 * board's symmetries and colours, as ref_ostle_canonical: the least
 * "pos|prev" image, prev left out when rule 8 forbids nothing there (no
 * move of pos leads back to it); out holds 2 * REF_TEXT + 2. */
void ref_ostle_state_key(int w, int h, const char *pos, const char *prev, char *out);

/* Othello: children of a "WxH:rows S" position; a pass is the move "pass". */
int ref_othello_children(const char *pos, ref_child *out, char *result, int *score);

/* Exact final score for the side to move of an Othello position ("WxH:rows S"),
 * by alpha-beta over the rules above; fail-hard outside (alpha, beta). */
int ref_negamax(const char *pos, int alpha, int beta);

/* Small deterministic generator for tests. */
unsigned long long ref_rand(unsigned long long *state);

#endif
