/* campaign/internal.h - private to campaign/: the tree above the frontier,
 * the known answers, the journal. */
#ifndef PNSOLVE_CAMPAIGN_INTERNAL_H
#define PNSOLVE_CAMPAIGN_INTERNAL_H

#include "campaign.h"
#include "../proof/proof.h"

#include <uthash.h>

/* A position of the tree: interior (its children, one per symmetry class
 * among siblings) or on the frontier (its question asked of a worker). */
typedef struct cnode {
    game_key key;
    UT_hash_handle hh;
    int id;
    game_state s;
    char *text;
    int mover, mobility, estimate, ended;
    int visited;                 /* expanded from some depth (transpositions once) */
    int nkids;                   /* -1: a frontier position */
    int *kids;
    game_move *kid_moves;
    /* known answers: "at least lo" proven, "at least hi" disproven */
    int has_lo, lo, has_hi, hi;
    char *lo_file, *hi_file;
    char best[32];               /* the move a search named best where its proof did not fit */
} cnode;

/* What decide concluded of (node, k, want) in one walk; chosen kept across walks. */
typedef struct {
    struct { int id, k, want; } key;
    UT_hash_handle hh;
    int verdict;                 /* V_YES, V_NO, V_OPEN */
    long need;                   /* V_OPEN: its open questions at the fewest */
    int chosen;                  /* the child that holds where one must, else -1 */
    char *file;                  /* the proof where V_YES */
} cmemo;

enum { V_NO, V_YES, V_OPEN };

/* A frontier question under way or to be asked. */
typedef struct {
    int node, k, tag;
} cask;

struct campaign {
    char dir[CAMPAIGN_PATH_MAX - 256];  /* room for the names inside it */
    campaign_spec spec;
    game *g;
    game_solver *estimator;      /* NULL where the game has no estimate */
    int scores;                  /* questions are score questions (else win/advantage) */
    cnode **node;
    int n, cap;
    cnode *by_key;
    cmemo *memo, *chosen;
    cmemo *joined;               /* joined proofs whose claim this run has checked (once each) */
    int memo_open;               /* a walk remembers open nodes too (each transposition walked once) */
    cask *ask;                   /* the current walk's open questions */
    int nask, capask;
    cask *flight;                /* asked and not answered in this run */
    int nflight, capflight;
    FILE *journal;
    int lock;                    /* DIR/lock, held while a run writes the journal (-1: none) */
    long answered, deeper, asks;
    double seconds;
    int workers;                 /* of the last run in the journal */
    char run_options[1024];      /* the search options of the last run in the journal */
    int read_only;               /* status and verify: nothing is written (no joins, no links) */
};

/* tree.c */
int campaign_tree_root(campaign *c, char *err, size_t errlen);
cnode *campaign_tree_find(campaign *c, const char *position, char *err, size_t errlen);
int campaign_tree_deepen(campaign *c, cnode *n, char *err, size_t errlen);
/* The same claim asked at child ch of parent p: in *ck, *cwant. */
void campaign_tree_child_question(const cnode *p, const cnode *ch, int k, int want, int *ck, int *cwant);
void campaign_tree_free(campaign *c);

/* answers.c: known answers and what they imply. */
/* The least score >= k the game can end on (k itself in win/loss games). */
int campaign_score_up(const campaign *c, int k);
/* The greatest score < k the game can end on (k - 1 in win/loss games). */
int campaign_score_below(const campaign *c, int k);
/* DIR/SUB/KEY.TAIL: a file of node n, named by its exact key. */
void campaign_node_path(const campaign *c, const cnode *n, const char *sub, const char *tail, char *out, size_t len);
void campaign_answers_add(campaign *c, cnode *n, int k, int proven, const char *file);
/* Whether n's answers leave no question of it open: any answer to a
 * one-sided campaign's, both bounds meeting for an exact score. */
int campaign_answers_settled(const campaign *c, const cnode *n);
/* The path of n's proof of "at least k" (a question asked at the frontier). */
void campaign_answers_path(const campaign *c, const cnode *n, int k, char *out, size_t len);
/* Whether the proof at path claims "the mover at n finishes at least k"
 * proven or not (implied: or a claim that implies it), its header read as
 * the checker reads it (whole non-NULL: the proof checked whole with those
 * options, and one proof in the file): 0, or -1 with what is wrong in err. */
int campaign_answers_claimed(const campaign *c, const cnode *n, int k, int proven, int implied, const char *path,
                             const proof_check_options *whole, char *err, size_t errlen);
/* The path of the trace (the root's numbers over time) of that question. */
void campaign_trace_path(const campaign *c, const cnode *n, int k, char *out, size_t len);

/* journal.c */
int campaign_journal_open(campaign *c, int create, char *err, size_t errlen);
int campaign_journal_append(campaign *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* flight.c: the questions under way (tag -1: asked by an earlier run). */
int campaign_flight_add(campaign *c, int node, int k, int tag);
/* Whether (node, k) is among them. */
int campaign_flight_has(const campaign *c, int node, int k);
/* Drops (node, k) from them, every k where k is INT_MIN; the entry's tag, or -1. */
int campaign_flight_drop(campaign *c, int node, int k);

/* decide.c */
int campaign_decide(campaign *c, int id, int k, int want, char **file, long *need, char *err, size_t errlen);
void campaign_decide_reset(campaign *c);
/* Frees what the walks kept across walks (the choices, the joins checked). */
void campaign_decide_free(campaign *c);
int campaign_decide_chosen(const campaign *c, int id, int k, int want);

#endif
