/* pnsolve.h - the library's public API: open a game and a position, list
 * and play its moves, prove it, read the answer and its principal line,
 * probe endgame tables (every move's value, best first), check a proof
 * file.  Positions and moves travel as text in each game's notation
 * (docs/rules.md); no type of the library's modules appears here, so this
 * header is the whole contract (`pkg-config --cflags --libs pnsolve`).
 *
 * Every function that can fail returns a pnsolve_status (0 is success) and
 * writes a one-line reason to err (errlen bytes, NULL allowed).  Handles
 * are independent: two threads may use two handles at once; one handle is
 * used by one thread at a time (pnsolve_prove's search uses its own threads).
 */
#ifndef PNSOLVE_H
#define PNSOLVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PNSOLVE_VERSION_MAJOR 1
#define PNSOLVE_VERSION_MINOR 1
#define PNSOLVE_VERSION_PATCH 0
#define PNSOLVE_VERSION "1.1.0"

#if defined(__GNUC__)
#define PNSOLVE_API __attribute__((visibility("default")))
#else
#define PNSOLVE_API
#endif

typedef enum {
    PNSOLVE_OK = 0,
    PNSOLVE_EINVAL = -1,  /* a bad argument: unknown game, position or move the rules cannot produce */
    PNSOLVE_ENOMEM = -2,  /* out of memory */
    PNSOLVE_EIO = -3,     /* a file that cannot be read or written, or a damaged one */
    PNSOLVE_ETABLE = -4,  /* no table for the position's material */
    PNSOLVE_ESPACE = -5   /* (1.1) a caller's buffer too small: err says how many bytes are needed */
} pnsolve_status;

/* (1.1) Bytes that hold any position or move of any game as text. */
#define PNSOLVE_TEXT_MAX 512

/* The version of the library linked (PNSOLVE_VERSION of its build). */
PNSOLVE_API const char *pnsolve_version(void);

/* --- games ---------------------------------------------------------------- */

typedef struct pnsolve_game pnsolve_game;

/* Opens a game by spec ("jungle", "ostle", "ostle:4x4", "othello:6x6",
 * "tictactoe", "graph:FILE") and variant (NULL: the default); NULL with err. */
PNSOLVE_API pnsolve_game *pnsolve_game_open(const char *spec, const char *variant, char *err, size_t errlen);
/* Frees g (NULL allowed). */
PNSOLVE_API void pnsolve_game_close(pnsolve_game *g);
/* The game's name as its spec gives it. */
PNSOLVE_API const char *pnsolve_game_name(const pnsolve_game *g);
/* The largest |score| a finished game of g can have (Othello WxH: W*H,
 * its disc difference), or 0 for a game that ends only in win, draw or
 * loss (1.1). */
PNSOLVE_API int pnsolve_game_score_bound(const pnsolve_game *g);
/* Writes the start position in the game's notation to buf. */
PNSOLVE_API pnsolve_status pnsolve_game_start(const pnsolve_game *g, char *buf, size_t len);
/* Checks position (NULL: the start) and writes it back in canonical
 * notation to buf (NULL allowed): PNSOLVE_EINVAL with err when the rules
 * cannot produce it. */
PNSOLVE_API pnsolve_status pnsolve_position_check(const pnsolve_game *g, const char *position, char *buf, size_t len,
                                                  char *err, size_t errlen);

/* --- moves (1.1) ------------------------------------------------------------ */

/* The legal moves of position (NULL: the start) in the game's notation,
 * separated by single spaces, into buf, and their number into *count (0
 * where the game is over); PNSOLVE_ESPACE when buf is too small. */
PNSOLVE_API pnsolve_status pnsolve_moves(const pnsolve_game *g, const char *position, char *buf, size_t len,
                                         int *count, char *err, size_t errlen);
/* The position after move (in the game's notation) from position (NULL:
 * the start), canonical, into buf; PNSOLVE_EINVAL for a move that is not
 * legal there, or a finished game. */
PNSOLVE_API pnsolve_status pnsolve_play(const pnsolve_game *g, const char *position, const char *move, char *buf,
                                        size_t len, char *err, size_t errlen);
/* Whether the game is over at position: *over 1 with *result +1, 0 or -1
 * for the side to move and *score its final score (a game that scores,
 * Othello: disc difference; else 0), or *over 0 (result and score 0). */
PNSOLVE_API pnsolve_status pnsolve_position_over(const pnsolve_game *g, const char *position, int *over, int *result,
                                                 int *score, char *err, size_t errlen);

/* A legal move and its value for the side that makes it. */
typedef struct {
    char move[64];                    /* in the game's notation */
    char position[PNSOLVE_TEXT_MAX];  /* the position it leads to */
    int known;                        /* 1: the value below; 0: open (no table holds the child, or the
                                       * search's limits stopped before it settled) */
    int wdl;                          /* +1 win, 0 draw, -1 loss */
    int distance;                     /* plies to the end under best play, the move counted; -1 when
                                       * a search gave the value (it proves no distance) */
    int has_score;                    /* 1: score is set (a game that scores) */
    int score;                        /* the final score for the side that moves */
} pnsolve_move_value;

/* --- proving --------------------------------------------------------------- */

typedef enum {
    PNSOLVE_QUESTION_WIN,        /* can the side to move force a win? */
    PNSOLVE_QUESTION_ADVANTAGE,  /* can it force at least a draw? */
    PNSOLVE_QUESTION_VALUE,      /* win, draw or loss (both questions) */
    PNSOLVE_QUESTION_SCORE       /* the exact final score (games that score: Othello) */
} pnsolve_question;

typedef enum { PNSOLVE_OPEN = 0, PNSOLVE_PROVEN = 1, PNSOLVE_DISPROVEN = 2 } pnsolve_answer;

typedef struct {
    uint64_t nodes;      /* positions searched so far */
    double seconds;
    uint32_t pn, dn;     /* the current question's root proof and disproof numbers */
} pnsolve_progress;

typedef struct {
    pnsolve_question question;
    uint64_t max_nodes;          /* 0: no limit */
    double max_seconds;          /* 0: no limit */
    size_t memory_mb;            /* the search's table; 0: 256 */
    int threads;                 /* <= 1: one */
    const char *tb_dir;          /* endgame tables to probe, NULL: none */
    const char *proof_path;      /* WIN and ADVANTAGE: write the proof here when solved (NULL: none) */
    /* called about every progress_seconds (0: 2) from the searching thread */
    void (*progress)(const pnsolve_progress *p, void *ctx);
    void *ctx;
    double progress_seconds;
    volatile int *cancel;        /* set non-zero (from any thread or a signal) to stop: the library
                                  * reads it atomically (C11 atomic_store or __atomic_store_n) */
} pnsolve_options;

typedef struct {
    pnsolve_answer answer;       /* WIN, ADVANTAGE: proven or disproven; VALUE, SCORE: PROVEN when found */
    int value;                   /* VALUE: +1 win, 0 draw, -1 loss; SCORE: the score */
    uint64_t nodes;
    double seconds;
    const char *stopped_by;      /* "nodes", "time", "memory", "interrupt" or NULL */
    int line_len;                /* the principal line: moves from the position */
    char line[2048];             /* its moves in the game's notation, separated by spaces */
} pnsolve_result;

/* Every call refuses a NULL handle, options, result, output pointer or
 * required path with PNSOLVE_EINVAL (or NULL); name and start give NULL
 * and PNSOLVE_EINVAL. */

/* Fills o with the defaults: the win question, 256 MB, one thread, no limit. */
PNSOLVE_API void pnsolve_options_default(pnsolve_options *o);
/* Answers o->question for the side to move at position (NULL: the start)
 * into r: PNSOLVE_OK (r->answer may be PNSOLVE_OPEN when a limit or cancel
 * stopped it), or an error with err (a bad position, a question out of
 * range, a memory_mb whose bytes overflow, a table or proof file that
 * fails, a score question in a game without scores). */
PNSOLVE_API pnsolve_status pnsolve_prove(const pnsolve_game *g, const char *position, const pnsolve_options *o,
                                         pnsolve_result *r, char *err, size_t errlen);

/* --- endgame tables --------------------------------------------------------- */

typedef struct pnsolve_tables pnsolve_tables;

/* Opens the tables of g in dir, every one checked now (headers, block
 * offsets, state indices; since 1.1 also Othello's strong solutions, read
 * whole): NULL with err when dir is no directory or holds no table of g,
 * a table is damaged or another game's, out of memory, or g has none. */
PNSOLVE_API pnsolve_tables *pnsolve_tables_open(const pnsolve_game *g, const char *dir, char *err, size_t errlen);
/* Frees t (NULL allowed). */
PNSOLVE_API void pnsolve_tables_close(pnsolve_tables *t);
/* The value of position for the side to move: *wdl +1 win, 0 draw, -1 loss,
 * *distance plies to the end under best play (0 for a draw and for a
 * strong solution's score, whose sign *wdl gives); PNSOLVE_ETABLE
 * when t has no table for its material, PNSOLVE_EIO for a damaged file,
 * PNSOLVE_EINVAL for a bad position. */
PNSOLVE_API pnsolve_status pnsolve_tables_probe(pnsolve_tables *t, const char *position, int *wdl, int *distance,
                                                char *err, size_t errlen);

/* (1.1) Every legal move of position (NULL: the start) with its value from
 * the tables, best first as Fathom's root probe gives them: wins fastest
 * first, then draws, then losses slowest first (scores highest first), the
 * moves into positions no table holds last, ties in move order.  A move
 * into a child lost in d plies is a win in d + 1; one that ends the game a
 * win or loss in 1.  out holds cap; *count gets the number of moves (0
 * where the game is over); PNSOLVE_ESPACE when cap is too small. */
PNSOLVE_API pnsolve_status pnsolve_tables_probe_moves(pnsolve_tables *t, const char *position, pnsolve_move_value *out,
                                                      int cap, int *count, char *err, size_t errlen);
/* (1.1) The exact final score of position for the side to move from a
 * game's strong solution (Othello to 40 squares: tables made by `pnsolve tb
 * build othello:WxH`, opened by pnsolve_tables_open); PNSOLVE_ETABLE when
 * the position is not reachable from the start, PNSOLVE_EINVAL when t
 * holds win/draw/loss tables. */
PNSOLVE_API pnsolve_status pnsolve_tables_score(pnsolve_tables *t, const char *position, int *score, char *err,
                                                size_t errlen);
/* (1.1) Every legal move of position with its value proved by search, for
 * positions no table covers: each child asked the value question (a game
 * that scores: the score question) under o's limits, each move's own (o
 * NULL: 2 s, 256 MB, one thread a move; o->question is not read).  A move
 * the limits stopped is open (known 0), never guessed.  Sorted as
 * pnsolve_tables_probe_moves sorts, with distance -1. */
PNSOLVE_API pnsolve_status pnsolve_search_moves(const pnsolve_game *g, const char *position, const pnsolve_options *o,
                                                pnsolve_move_value *out, int cap, int *count, char *err,
                                                size_t errlen);

/* --- proofs ------------------------------------------------------------------ */

/* Checks the proof file at path from the rules alone (tb_dir: the tables its
 * leaves name, NULL: none): PNSOLVE_OK with *sound 1 and the claim it
 * proves in summary, or *sound 0 with the first failing line in err; an
 * error when the file cannot be read. */
PNSOLVE_API pnsolve_status pnsolve_proof_check(const char *path, const char *tb_dir, int *sound, char *summary,
                                               size_t slen, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
