/* pnsolve.h - the library's public API: open a game and a position, prove
 * it, read the answer and its principal line, probe endgame tables, check a
 * proof file.  Positions and moves travel as text in each game's notation
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
#define PNSOLVE_VERSION_MINOR 0
#define PNSOLVE_VERSION_PATCH 0
#define PNSOLVE_VERSION "1.0.0"

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
    PNSOLVE_ETABLE = -4   /* no table for the position's material */
} pnsolve_status;

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
/* Writes the start position in the game's notation to buf. */
PNSOLVE_API pnsolve_status pnsolve_game_start(const pnsolve_game *g, char *buf, size_t len);
/* Checks position (NULL: the start) and writes it back in canonical
 * notation to buf (NULL allowed): PNSOLVE_EINVAL with err when the rules
 * cannot produce it. */
PNSOLVE_API pnsolve_status pnsolve_position_check(const pnsolve_game *g, const char *position, char *buf, size_t len,
                                                  char *err, size_t errlen);

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
 * offsets, state indices): NULL with err when dir is no directory or
 * holds no table of g, a table is damaged or another game's, out of
 * memory, or g has none. */
PNSOLVE_API pnsolve_tables *pnsolve_tables_open(const pnsolve_game *g, const char *dir, char *err, size_t errlen);
/* Frees t (NULL allowed). */
PNSOLVE_API void pnsolve_tables_close(pnsolve_tables *t);
/* The value of position for the side to move: *wdl +1 win, 0 draw, -1 loss,
 * *distance plies to the end under best play (0 for a draw); PNSOLVE_ETABLE
 * when t has no table for its material, PNSOLVE_EIO for a damaged file,
 * PNSOLVE_EINVAL for a bad position. */
PNSOLVE_API pnsolve_status pnsolve_tables_probe(pnsolve_tables *t, const char *position, int *wdl, int *distance,
                                                char *err, size_t errlen);

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
