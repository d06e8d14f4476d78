/* campaign/campaign.h - a proof-tree manager: one question about a position
 * answered through a frontier of positions N moves deep, as the checkers and
 * 8x8 Othello proofs were (Schaeffer et al. 2007; Takizawa 2024).
 *
 * Every question is "can the side to move finish at least K ahead?": in a
 * game of win, draw and loss K = 1 is "can it win?" and K = 0 "can it avoid
 * losing?"; in a game with scores (Othello) K is the score.  Above the
 * frontier the question is an AND/OR tree: where the side it is asked for
 * moves, one child must hold (tried by the known answers, then the game's
 * estimate, then the fewest replies); elsewhere every child.  Frontier
 * questions go to workers (threads, or MPI ranks through the caller's
 * transport); an answer for one K answers every K it implies; a question
 * that runs into its limits, or whose proof outgrows the writer, is split a
 * move deeper.  Answers are joined into one proof of the root.
 *
 * All of a campaign's state is its directory: a journal (one line a
 * record, appended and flushed as each answer comes) and the proofs; a
 * rerun resumes from it, so a killed campaign loses at most the questions
 * in flight.  Nothing here knows how a question is searched or carried. */
#ifndef PNSOLVE_CAMPAIGN_H
#define PNSOLVE_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"

#define CAMPAIGN_PATH_MAX 4096

/* What a campaign asks at its root. */
typedef enum {
    CAMPAIGN_WIN,        /* "can the side to move win?" (K = 1) */
    CAMPAIGN_ADVANTAGE,  /* "can it avoid losing?" (K = 0) */
    CAMPAIGN_AT_LEAST,   /* "can it finish at least K ahead?" (scores) */
    CAMPAIGN_SCORE       /* the exact score: both bounds, the guess moved until they meet */
} campaign_kind;

/* A campaign's identity, the journal's header: a rerun must match it. */
typedef struct {
    char game[256];                /* the game's spec, e.g. "othello:6x6" */
    char variant[64];              /* "" for the default */
    char position[GAME_TEXT_MAX];  /* the root */
    campaign_kind kind;
    int k;                         /* CAMPAIGN_AT_LEAST: K; CAMPAIGN_SCORE: the first guess */
    int depth;                     /* the frontier's depth in moves */
    char options[1024];            /* the search options of every question, as text */
} campaign_spec;

/* Whether the search option NAME (as on prove's command line, without
 * "--") can change an answer or what it rests on: those are refused when
 * they differ on resume; the others (limits, memory, threads, workers)
 * may change and are recorded in the journal. */
int campaign_option_binds(const char *name);

/* The question in words as the journal names it ("win", "score:3", "score (guess 0)"). */
const char *campaign_kind_word(campaign_kind kind, int k, char *buf, size_t len);

/* One frontier question: "at position, can the side to move finish at
 * least k ahead?" (k 0/1 in games without scores: advantage/win), its
 * proof to be written at proof (a temporary name beside it, then renamed). */
typedef struct {
    int k;
    int scores;                    /* 1: a score question; 0: win (k 1) or advantage (k 0) */
    char position[GAME_TEXT_MAX];
    char proof[CAMPAIGN_PATH_MAX];
    char trace[CAMPAIGN_PATH_MAX];  /* the root's numbers each second go here as CSV (as prove --trace) */
} campaign_question;

/* A worker's answer. */
typedef struct {
    int answered;        /* 1: proven or disproven, and the proof is at the question's path */
    int proven;
    int interrupted;     /* stopped by the caller (Ctrl-C): ask again next run */
    int failed;          /* the search could not run (out of memory, a table unreadable): the campaign stops */
    uint64_t nodes, solver_nodes;
    double seconds;
    uint32_t pn, dn;     /* not answered: the root's numbers when the search stopped */
    char best[32];       /* the search's best move where it proved more than it could write */
    char why[256];       /* not answered: why, in words */
} campaign_answer;

/* How questions reach workers: start() hands q to a free worker (the
 * campaign never starts more than count at once); wait() blocks until one
 * finishes and gives its question's tag and answer, or returns -1 when
 * nothing is running. */
typedef struct {
    int count;
    int (*start)(void *ctx, int tag, const campaign_question *q);
    int (*wait)(void *ctx, int *tag, campaign_answer *a);
    void *ctx;
} campaign_workers;

/* Answers q as worker number worker (of a pool or a rank): fills a. */
typedef void (*campaign_answer_fn)(void *ctx, int worker, const campaign_question *q, campaign_answer *a);

/* Workers as n threads of this process, each calling fn. */
typedef struct campaign_pool campaign_pool;
/* A pool of n threads; NULL when out of memory or threads. */
campaign_pool *campaign_pool_new(int n, campaign_answer_fn fn, void *ctx);
/* The pool as a campaign's workers. */
campaign_workers campaign_pool_workers(campaign_pool *p);
/* Ends the threads (each after its question) and frees p (NULL allowed). */
void campaign_pool_free(campaign_pool *p);

typedef struct campaign campaign;

/* Opens (creating if new) the campaign of spec in dir: reads its journal,
 * refusing one of another spec or a damaged one, and builds the tree above
 * the frontier.  NULL with a one-line reason in err; *usage set when the
 * caller's arguments are to blame (another spec). */
campaign *campaign_open(const char *dir, const campaign_spec *spec, char *err, size_t errlen, int *usage);
/* Opens an existing campaign for status or verify, its spec from the journal. */
campaign *campaign_load(const char *dir, char *err, size_t errlen);
/* Frees c (NULL allowed). */
void campaign_close(campaign *c);
/* The spec c runs (from its journal). */
const campaign_spec *campaign_spec_of(const campaign *c);
/* The game c is about. */
const game *campaign_game(const campaign *c);

/* Asks questions through w until the root is decided, the workers have
 * nothing left to ask, or *stop is set; progress lines to log (NULL: none).
 * 0: decided (the root's joined proof at campaign_result_path); 1: stopped
 * or stuck (said on log); -1: an error (err). */
int campaign_run(campaign *c, const campaign_workers *w, volatile int *stop, FILE *log, char *err, size_t errlen);

/* Adopts the proof file path (checked first by the proof checker, with the
 * tables of tb_dir, NULL: none) as the answer to its claim at a position of
 * c's tree, as if a worker had answered: copied into c's directory and
 * journaled.  0, or -1 with a one-line reason (not sound, another game or
 * kind of question, a position outside the tree). */
int campaign_import(campaign *c, const char *path, const char *tb_dir, char *err, size_t errlen);

/* The campaign's state: what is decided and how much is left. */
typedef struct {
    int decided;           /* the root's question (or score) is settled */
    int proven;            /* CAMPAIGN_WIN/ADVANTAGE/AT_LEAST: the answer */
    int has_lower, has_upper;
    int lower, upper;      /* scores: the root mover's score is >= lower, < upper (known so far) */
    long answered;         /* answers kept: one proof file each, as campaign_verify counts them */
    long deeper;           /* frontier positions split a move deeper */
    long in_flight;        /* questions started and not answered (a run under way, or killed); 0 once decided */
    long open_needed;      /* open frontier questions the current bound needs at the fewest */
    long open;             /* frontier positions no answer settles yet: all the questions left */
    long frontier;         /* frontier positions */
    double seconds;        /* search time of the answers */
    double eta;            /* seconds left: the answers' measured time a question, times the open
                              questions, over the last run's workers (-1: unknown, or decided) */
    char result[CAMPAIGN_PATH_MAX];  /* the root's proof when decided (two for a score: "A, B") */
    char results[2][CAMPAIGN_PATH_MAX];  /* the same as files: one, or a score's lower and upper ("" none) */
    char line[GAME_TEXT_MAX];        /* scores: the principal line down the tree */
} campaign_state;

/* Fills st from c's journal and proofs, asking nothing; 0, or -1 with err. */
int campaign_status(campaign *c, campaign_state *st, char *err, size_t errlen);

/* What campaign_verify found. */
typedef struct {
    int roots, roots_bad;      /* root proofs checked, and failed */
    long answers, checked, bad;  /* answers in all, their proofs checked, and failed */
} campaign_checked;

/* Checks c's proofs with the proof checker (the tables of tb_dir, NULL:
 * none) and compares what each proves with what it must: each root proof
 * with the campaign's question and decision (a decided campaign without
 * its root proofs fails), each answer's proof with the question its
 * journal line answers.  sample < 0: every answer; else that many, spread
 * evenly over them, the first and last among them.  Each failure is a line
 * to report(ctx, line).  0 (out filled), or -1 with err. */
int campaign_verify(campaign *c, long sample, const char *tb_dir, void (*report)(void *ctx, const char *line), void *ctx,
                    campaign_checked *out, char *err, size_t errlen);

#endif
