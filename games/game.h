/* games/game.h - the one view of a game that pns/, tablebase/ and cli/ get.
 *
 * A game object (`game`) holds the rules and their parameters (variant, board
 * size, the graph of a graph game).  A `game_state` is a fixed-size value that
 * the caller owns and copies freely: search code keeps states on its stack and
 * never allocates for them.  Moves are small integers whose meaning only the
 * game knows.  Players are numbered 0 and 1; player 0 is the side that moves
 * first in the start position (White in Jungle Checkers, Black in Ostle and
 * Othello, the prover in a graph).
 *
 * Adding a game: write games/<name>.c with a game_ops table and an opener
 * and add one line to the registry in games/registry.c (docs/design.md).
 * Nothing outside games/ changes.
 */
#ifndef PNSOLVE_GAME_H
#define PNSOLVE_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GAME_MAX_MOVES 256 /* no state of any game has more legal moves */
#define GAME_MAX_PREDECESSORS 4096 /* nor more predecessors in a table (Ostle's states) */
#define GAME_TEXT_MAX 512  /* buffer size that fits any printed state or move */

typedef struct { uint64_t w[4]; } game_state; /* opaque; layout is the game's */
typedef uint32_t game_move;
typedef struct { uint64_t lo, hi; } game_key; /* exact identity of a state */

typedef enum {
    GAME_ONGOING = 0,
    GAME_WIN0,  /* player 0 has won */
    GAME_WIN1,  /* player 1 has won */
    GAME_DRAW
} game_result;

/* What a move does, for puzzle motifs (game_puzzle_ops.move_motifs). */
enum {
    GAME_MOTIF_CAPTURE = 1,    /* removes an opponent's piece */
    GAME_MOTIF_APPROACH = 2,   /* brings the piece nearer the opponent's den */
    GAME_MOTIF_RETREAT = 4,    /* takes the piece further from the opponent's den */
    GAME_MOTIF_OFFER = 8,      /* leaves the moved piece where the opponent can take it */
    GAME_MOTIF_SELF_PUSH = 16, /* pushes out one of the mover's own pieces */
    GAME_MOTIF_HOLE = 32       /* moves the hole */
};

/* One square of a board diagram (game_puzzle_ops.square). */
typedef struct {
    int player;   /* owner of the piece on it, -1 if empty */
    char letter;  /* the piece's letter, 0 for a plain disc */
    int marked;   /* a special square (a den, the hole): drawn shaded */
    char forbidden;  /* the move a rule forbids from this square (Ostle's rule 8): its direction,
                      * 'L', 'R', 'U' or 'D', drawn as a crossed arrow; 0 none */
} game_square;

typedef struct game game;
typedef struct game_solver game_solver;  /* a game's exact endgame solver */

/* The state indices of a game whose positions have several states each
 * (game_tb_ops.positions; Ostle: rule 8 forbids one move): of[mat] numbers
 * material mat's states, position by position, as an opaque handle that
 * tablebase/ makes and owns (tb_index: the sparse index of util/, which
 * the game reads through util.h) and passes to every operation that
 * numbers states; an operation is asked only about materials whose index
 * its caller has made.  A game of one state per position gets NULL. */
typedef struct game_tb_index {
    const void *const *of;  /* by material id, n of them */
    int n;
} game_tb_index;

/* A class of states in a census (game_tb_ops.census): how a published
 * count of states relates to the table's.  The sum of sign x count over
 * the classes of sign +1 and -1 (the table's states, what the publication
 * leaves out, what it adds) equals the count of the class of sign 2 (its
 * definition applied directly); sign 0: a figure beside them. */
#define GAME_CENSUS_MAX 12
typedef struct {
    const char *name;  /* one word, e.g. "twins"; NULL ends the list */
    int sign;
    const char *what;  /* a line for the reader */
} game_census_class;

/* What a retrograde builder needs of a game whose positions split into
 * materials (piece sets that moves never grow).  A material is a small
 * integer; each canonical material has a table of size() entries, one per
 * index.  index() maps a live state to its material's table after symmetry
 * reduction; unindex() inverts it (an index whose position is a symmetric
 * twin of a smaller index unindexes to that twin, and index() of it gives the
 * smaller one). */
#define GAME_TB_NO_INDEX UINT64_MAX  /* index() of a state that has no entry */

/* What a retrograde builder may use beyond game_tb_ops's core, each slot
 * optional (NULL: the builder does without): faster paths through its
 * inner loops, copies of tables it need not build, a census of states. */
typedef struct game_tb_build_ops {
    /* out[k] = index(s[k]) for k < n (n at most GAME_MAX_MOVES), the n
     * lookups' memory reads overlapped */
    void (*index_many)(const game *g, const game_tb_index *ix, const game_state *s, int n, uint64_t *out);
    /* [*first, *end), the indices of the states of index's position.  They
     * differ only in the one move each forbids (the first state forbids
     * none), so a state's children are the first state's by the moves it
     * allows; NULL: each state is its own. */
    void (*state_group)(const game *g, const game_tb_index *ix, int mat, uint64_t index, uint64_t *first,
                        uint64_t *end);
    /* calls fn for each index of [first, end) in order with its state (as
     * unindex gives it) and whether it is a twin (index() of the state is
     * another); NULL: the builder unindexes every index. */
    void (*each)(const game *g, const game_tb_index *ix, int mat, uint64_t first, uint64_t end,
                 void (*fn)(void *ctx, uint64_t index, const game_state *s, int twin), void *ctx);
    /* unmoves / successors of the state of an index of mat, without
     * unindexing it to a state first; NULL: the builder does. */
    int (*unmoves_index)(const game *g, const game_tb_index *ix, int mat, uint64_t index, uint64_t *pred);
    int (*successors_index)(const game *g, const game_tb_index *ix, int mat, uint64_t index, uint64_t *succ);
    /* how many indices successors() gives, without making them; NULL: the
     * builder makes them. */
    int (*count_successors)(const game *g, const game_state *s);
    /* the moves of s that leave its material (captures, moves that end the
     * game), their count returned, and in *stays the number of distinct
     * indices the other moves lead to (as successors() counts them), or -1
     * if there are some but counting them would cost an index each (the
     * builder counts when it needs to); NULL: the builder plays every move
     * to find them. */
    int (*exits)(const game *g, const game_state *s, game_move *out, int *stays);
    /* the name of another game (a variant) whose table of mat holds the
     * same values, because their rules differ on no position of mat or of
     * the materials below it; NULL if there is none.  The builder copies
     * that table instead of building it when the directory has it. */
    const char *(*same_table_as)(const game *g, int mat);
    /* another material of this game, earlier in materials()'s order, whose
     * table holds the same values as mat's index for index, because the
     * rules play the two alike square for square; -1 if none.  The builder
     * copies that table instead of building it when it is there. */
    int (*same_values_as)(const game *g, int mat);
    /* adds into counts[k] the states of positions [first, end) of
     * positions(mat) in class k of census_classes (a game whose tables are
     * compared with a published count of states); safe to run at once on
     * disjoint ranges */
    void (*census)(const game *g, int mat, uint64_t first, uint64_t end, uint64_t *counts);
    const game_census_class *census_classes;
} game_tb_build_ops;

typedef struct game_tb_ops {
    /* canonical materials with at most max_pieces pieces, smaller first */
    int (*materials)(const game *g, int max_pieces, int *out, int cap);
    /* canonical materials one capture away from mat; at most 16 */
    int (*material_deps)(const game *g, int mat, int *out);
    /* canonical material of a live state, -1 if the state has no table */
    int (*material_of)(const game *g, const game_state *s);
    int (*material_pieces)(const game *g, int mat);
    void (*material_name)(const game *g, int mat, char *buf, size_t len);
    /* material by name, -1 if there is none */
    int (*material_parse)(const game *g, const char *name);
    uint64_t (*size)(const game *g, const game_tb_index *ix, int mat);
    /* GAME_TB_NO_INDEX for a state the rules cannot produce (never another
     * state's entry) */
    uint64_t (*index)(const game *g, const game_tb_index *ix, const game_state *s);
    void (*unindex)(const game *g, const game_tb_index *ix, int mat, uint64_t index, game_state *s);
    /* distinct indices of the states from which a move that removes nothing
     * leads to s (same material); returns the count, at most
     * GAME_MAX_PREDECESSORS */
    int (*unmoves)(const game *g, const game_tb_index *ix, const game_state *s, uint64_t *pred);
    /* distinct indices of the states that a move removing nothing leads to
     * from s (same material); returns the count, at most GAME_MAX_MOVES */
    int (*successors)(const game *g, const game_tb_index *ix, const game_state *s, uint64_t *succ);
    /* For a game whose positions have several states each (NULL for the
     * others): its indices number states through a game_tb_index, one
     * sparse index per material over positions(mat) positions of
     * position_states(mat, p) states each (0 for a position that is not its
     * own least image), which tablebase/ makes from these two. */
    uint64_t (*positions)(const game *g, int mat);
    int (*position_states)(const game *g, int mat, uint64_t p);
    /* Optional (NULL: none): what the builder may use beyond this core. */
    const game_tb_build_ops *build;
} game_tb_ops;

/* A game whose moves each fill one square and which cannot cycle (Othello)
 * may offer its own exact endgame solver. */
typedef struct game_solver_ops {
    /* empty squares left: bounds what an exact search must look at */
    int (*empties)(const game *g, const game_state *s);
    /* makes a solver with a table of about bytes (one per thread) */
    game_solver *(*create)(const game *g, size_t bytes);
    /* makes a solver of its own (counters, watch, threads) on x's table,
     * which threads may share (NULL: every solver has its own table) */
    game_solver *(*share)(game_solver *x);
    /* the final score for the side to move when it lies strictly between
     * alpha and beta, else a bound beyond the window on the same side
     * (fail-soft); adds the positions it visited to *nodes */
    int (*score)(game_solver *x, const game_state *s, int alpha, int beta, uint64_t *nodes);
    void (*destroy)(game_solver *x);
    /* has later score calls ask stop(ctx) every few thousand positions and
     * give up (GAME_SOLVER_STOPPED, nothing half-searched kept) once it
     * answers non-zero; stop NULL: never */
    void (*watch)(game_solver *x, int (*stop)(void *ctx), void *ctx);
    /* lets each later score call search with n threads (NULL: one); 0, or
     * -1 when out of memory */
    int (*threads)(game_solver *x, int n);
    /* a rough final score of s for the side to move, in the score's units
     * (the evaluation that orders the solver's moves): a guide for the
     * search's order, never a value; NULL: none */
    int (*estimate)(game_solver *x, const game_state *s);
} game_solver_ops;

/* A game whose every move but a pass adds a piece (Othello on small
 * boards) may number the states of each layer (those with the same number
 * of empty squares) by perfect ranks, so that a set of states is a set of
 * numbers (tablebase/ keeps every reachable state of a board so). */
typedef struct game_layer_ops {
    /* the layer of e empty squares has ranks [0, size(e)); 0: too many to number */
    uint64_t (*size)(const game *g, int empties);
    /* the least rank among the images of s under the symmetries of the
     * start (which map reachable states to reachable states), and in
     * *images how many distinct states share it; the two sides to move of
     * one board have ranks 2k and 2k + 1 */
    uint64_t (*rank)(const game *g, const game_state *s, int *images);
    /* the state of rank r of the layer of e empty squares */
    void (*unrank)(const game *g, int empties, uint64_t r, game_state *s);
} game_layer_ops;

typedef struct game_symmetry_ops {
    /* The least key among the images of s under the board's symmetries, in
     * an encoding of its own (compare it only with other symmetric keys):
     * equal for two states exactly when one is a symmetric image of the
     * other. */
    game_key (*key)(const game *g, const game_state *s);
} game_symmetry_ops;

typedef struct game_puzzle_ops {
    /* GAME_MOTIF_* flags of move m in s (NULL: the game names none). */
    unsigned (*move_motifs)(const game *g, const game_state *s, game_move m);
    /* s with no move forbidden into *out, returning 1 if s had one (Ostle's
     * rule 8); NULL when no state ever forbids a move. */
    int (*unrestricted)(const game *g, const game_state *s, game_state *out);
    /* The square of s at file (0 = left) and rank (0 = bottom) of the
     * width x height board, for drawn diagrams (NULL: no board to draw). */
    void (*square)(const game *g, const game_state *s, int file, int rank, game_square *out);
    int light_player;  /* the player drawn in light pieces */
    int rows_from_top; /* the notation numbers the rows from the top (Othello's a1 is top left) */
} game_puzzle_ops;

/* The rules every game has (the core), then its capabilities. */
typedef struct game_ops {
    const char *name;
    const char *player[2];  /* e.g. "White", "Black" */
    /* perft convention: 1 if a finished game counts as one leaf at every
     * greater depth (Othello), 0 if it adds nothing past its own depth. */
    int finished_is_perft_leaf;
    void (*start)(const game *g, game_state *s);
    /* legal moves into out[GAME_MAX_MOVES]; returns 0 iff the game is over */
    int (*moves)(const game *g, const game_state *s, game_move *out);
    /* same count as moves(), without listing them (bulk perft, mobility) */
    int (*count)(const game *g, const game_state *s);
    /* applies a move that moves() returned for s */
    void (*play)(const game *g, game_state *s, game_move m);
    game_result (*result)(const game *g, const game_state *s);
    int (*to_move)(const game *g, const game_state *s);
    game_key (*key)(const game *g, const game_state *s);
    /* optional: the state whose key is k, where a key holds the whole state
     * (a large set of positions then keeps keys alone: the closed-set proof
     * writer); NULL where keys are not invertible */
    void (*unkey)(const game *g, game_key k, game_state *s);
    /* final score for player 0 of a finished game (disc difference in Othello,
     * +1/0/-1 elsewhere) */
    int (*score)(const game *g, const game_state *s);
    /* reads a state in the game's notation; 0 on success, else -1 and a
     * one-line reason in err */
    int (*parse)(const game *g, const char *text, game_state *s, char *err, size_t errlen);
    void (*format)(const game *g, const game_state *s, char *buf, size_t len);
    void (*format_move)(const game *g, const game_state *s, game_move m, char *buf, size_t len);
    void (*diagram)(const game *g, const game_state *s, FILE *out);
    void (*destroy)(game *g);
    /* Whether a finished game can end with this score for player 0 (Othello:
     * on an even board every score is even); a score search asks only about
     * those.  NULL: any integer. */
    int (*score_possible)(const game *g, int score);
    /* 1 when a question is player 0's whoever is to move (a graph's values
     * are its prover's, docs/rules.md 4); 0: the side to move's. */
    int player0_proves;

    /* Capabilities: NULL where the game has none.  Callers ask through the
     * game_has_* and game_* wrappers below, never through these. */
    const game_tb_ops *tb;              /* endgame tables (tablebase/) */
    const game_solver_ops *solver;      /* an exact endgame solver */
    const game_symmetry_ops *symmetry;  /* the board's symmetries */
    const game_puzzle_ops *puzzle;      /* what puzzles and their diagrams need */
    const game_layer_ops *layers;       /* perfect ranks of each layer's states */
} game_ops;

#define GAME_NAME_MAX 4112  /* "graph:" and a path */

struct game {
    const game_ops *ops;
    char name[GAME_NAME_MAX];  /* canonical spec, e.g. "othello:6x6", "jungle:classic", "graph:FILE" */
    char content[65];   /* a game a file defines (graph:FILE): the BLAKE2b-256 of its bytes in hex; else "" */
    int width, height;  /* board size (0 for graphs) */
    int variant;        /* game-specific rule switch (Jungle: 1 = classic) */
    int score_bound;    /* largest |score| of a finished game; 0: 1 (win, draw, loss) */
    void *data;         /* game-specific tables */
};

/* Opens a game from a spec ("jungle", "ostle", "othello:WxH", "graph:FILE")
 * and a variant name (NULL for the default); NULL and a reason in err on error. */
game *game_open(const char *spec, const char *variant, char *err, size_t errlen);
/* The games game_open knows, as one line of usage for a help text. */
void game_names(char *buf, size_t len);
/* Frees a game from game_open; NULL is allowed. */
void game_close(game *g);

static inline void game_start(const game *g, game_state *s) { g->ops->start(g, s); }
static inline int game_moves(const game *g, const game_state *s, game_move *out) { return g->ops->moves(g, s, out); }
static inline int game_count(const game *g, const game_state *s) { return g->ops->count(g, s); }
static inline void game_play(const game *g, game_state *s, game_move m) { g->ops->play(g, s, m); }
static inline game_result game_result_of(const game *g, const game_state *s) { return g->ops->result(g, s); }
static inline int game_to_move(const game *g, const game_state *s) { return g->ops->to_move(g, s); }
static inline game_key game_key_of(const game *g, const game_state *s) { return g->ops->key(g, s); }
/* Whether g gives the state of a key (game_unkey); if so, the state s with game_key_of(g, s) == k. */
static inline int game_has_unkey(const game *g) { return g->ops->unkey != NULL; }
static inline void game_unkey(const game *g, game_key k, game_state *s) { g->ops->unkey(g, k, s); }
static inline int game_score(const game *g, const game_state *s) { return g->ops->score(g, s); }
static inline void game_format(const game *g, const game_state *s, char *buf, size_t len) { g->ops->format(g, s, buf, len); }
static inline void game_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len) { g->ops->format_move(g, s, m, buf, len); }
static inline void game_diagram(const game *g, const game_state *s, FILE *out) { g->ops->diagram(g, s, out); }

/* The player a question is asked for at root: the side to move, or player 0
 * in a game whose values are player 0's (graphs). */
static inline int game_prover(const game *g, const game_state *root)
{
    return g->ops->player0_proves ? 0 : game_to_move(g, root);
}
/* The largest |score| a finished game can have (Othello: the squares). */
static inline int game_score_bound(const game *g) { return g->score_bound > 0 ? g->score_bound : 1; }
static inline int game_score_possible(const game *g, int score)
{
    return !g->ops->score_possible || g->ops->score_possible(g, score);
}

/* The optional builder operations of tables ops (a table of NULLs where
 * there are none): the one way code outside games/ reaches them. */
static inline const game_tb_build_ops *game_tb_build(const game_tb_ops *ops)
{
    static const game_tb_build_ops none;
    return ops && ops->build ? ops->build : &none;
}

/* Capabilities.  Each game_has_* says whether the game offers one; the
 * other wrappers answer a neutral value for a game that does not. */
static inline int game_has_tables(const game *g) { return g->ops->tb != NULL; }
/* The table operations, NULL when the game has no tables. */
static inline const game_tb_ops *game_tables(const game *g) { return g->ops->tb; }

static inline int game_has_solver(const game *g) { return g->ops->solver != NULL; }
/* Empty squares left, -1 for a game without a solver (one that may cycle). */
static inline int game_empties(const game *g, const game_state *s)
{
    return g->ops->solver ? g->ops->solver->empties(g, s) : -1;
}
/* A new exact solver, NULL when out of memory or the game has none. */
static inline game_solver *game_solver_new(const game *g, size_t bytes)
{
    return g->ops->solver ? g->ops->solver->create(g, bytes) : NULL;
}
/* A new solver for another thread that reads and writes x's table (what
 * one learns, the other finds); x must outlive it.  NULL when out of
 * memory or the game's solvers cannot share: then make one of its own. */
static inline game_solver *game_solver_share(const game *g, game_solver *x)
{
    return g->ops->solver && g->ops->solver->share ? g->ops->solver->share(x) : NULL;
}
/* What game_solver_score answers when its watch stopped it: no score. */
#define GAME_SOLVER_STOPPED (-1000000)
static inline int game_solver_score(const game *g, game_solver *x, const game_state *s, int alpha, int beta,
                                    uint64_t *nodes)
{
    return g->ops->solver->score(x, s, alpha, beta, nodes);
}
/* 1 with a rough final score of s for the side to move in *v (a guide,
 * never a value), 0 when the game's solver has no evaluation. */
static inline int game_solver_estimate(const game *g, game_solver *x, const game_state *s, int *v)
{
    if (!g->ops->solver || !g->ops->solver->estimate)
        return 0;
    *v = g->ops->solver->estimate(x, s);
    return 1;
}
/* Lets x search with n threads from now on (1: one); 0, or -1 when out of
 * memory.  A solver without threads of its own searches with one. */
static inline int game_solver_threads(const game *g, game_solver *x, int n)
{
    return g->ops->solver->threads ? g->ops->solver->threads(x, n) : 0;
}
/* Has x ask stop(ctx) now and then during each later score call and end
 * that call with GAME_SOLVER_STOPPED once it answers non-zero (long solves
 * honour Ctrl-C and time limits); stop NULL: never. */
static inline void game_solver_watch(const game *g, game_solver *x, int (*stop)(void *ctx), void *ctx)
{
    g->ops->solver->watch(x, stop, ctx);
}
static inline void game_solver_free(const game *g, game_solver *x)
{
    if (x)
        g->ops->solver->destroy(x);
}

static inline int game_has_symmetry(const game *g) { return g->ops->symmetry != NULL; }
/* The symmetric key of s (game_symmetry_ops.key); the exact key where the
 * game has no symmetries. */
static inline game_key game_symmetric_key(const game *g, const game_state *s)
{
    return g->ops->symmetry ? g->ops->symmetry->key(g, s) : game_key_of(g, s);
}

static inline int game_has_layers(const game *g) { return g->ops->layers && g->ops->layers->size(g, 0) != 0; }
/* Layer ranks (game_layer_ops), for a game where game_has_layers. */
static inline uint64_t game_layer_size(const game *g, int empties) { return g->ops->layers->size(g, empties); }
static inline uint64_t game_layer_rank(const game *g, const game_state *s, int *images)
{
    return g->ops->layers->rank(g, s, images);
}
static inline void game_layer_unrank(const game *g, int empties, uint64_t r, game_state *s)
{
    g->ops->layers->unrank(g, empties, r, s);
}

static inline int game_has_motifs(const game *g) { return g->ops->puzzle && g->ops->puzzle->move_motifs; }
/* GAME_MOTIF_* flags of move m in s, 0 for a game that names none. */
static inline unsigned game_move_motifs(const game *g, const game_state *s, game_move m)
{
    return g->ops->puzzle && g->ops->puzzle->move_motifs ? g->ops->puzzle->move_motifs(g, s, m) : 0;
}
/* 1 with s's unrestricted twin in *out when s forbids a move, else 0. */
static inline int game_unrestricted(const game *g, const game_state *s, game_state *out)
{
    return g->ops->puzzle && g->ops->puzzle->unrestricted ? g->ops->puzzle->unrestricted(g, s, out) : 0;
}
static inline int game_has_board(const game *g) { return g->ops->puzzle && g->ops->puzzle->square; }
static inline void game_square_at(const game *g, const game_state *s, int file, int rank, game_square *out)
{
    g->ops->puzzle->square(g, s, file, rank, out);
}
static inline int game_light_player(const game *g) { return g->ops->puzzle ? g->ops->puzzle->light_player : 1; }
static inline int game_rows_from_top(const game *g) { return g->ops->puzzle && g->ops->puzzle->rows_from_top; }

/* Reads a state; 0 on success, else -1 and a one-line reason in err. */
int game_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen);
/* Reads a move legal in s by its notation; 0 on success, else -1 and a reason. */
int game_parse_move(const game *g, const game_state *s, const char *text, game_move *m, char *err, size_t errlen);

/* +1 if player won the finished game r, -1 if it lost, 0 for a draw or a
 * game still on. */
static inline int game_outcome_for(game_result r, int player)
{
    return r == GAME_WIN0 ? (player ? -1 : 1) : r == GAME_WIN1 ? (player ? 1 : -1) : 0;
}

static inline int game_key_equal(game_key a, game_key b) { return a.lo == b.lo && a.hi == b.hi; }
/* A fast, well-mixed 64-bit hash of an exact key (for table indexing only). */
static inline uint64_t game_key_hash(game_key k)
{
    uint64_t x = k.lo ^ (k.hi * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Counts the move sequences of length depth from s under the game's perft
 * convention (docs/rules.md).  Stops early and returns 0 when *stop becomes
 * non-zero; stop may be NULL. */
uint64_t game_perft(const game *g, const game_state *s, int depth, volatile int *stop);

#endif
