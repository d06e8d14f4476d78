/* proof/proof.h - proofs as files (docs/proof-format.md): the header that
 * every writer prints and every reader reads, one proof joined from the
 * proofs of a position's children, and the checker, which trusts nothing
 * but the rules (games/) and the tables (tablebase/).  No search is here:
 * the writers live with the search (pns/), and tests/layering.sh checks that
 * nothing in this module calls one, so that the checker cannot share a
 * search's mistake. */
#ifndef PNSOLVE_PROOF_H
#define PNSOLVE_PROOF_H

#include <stdio.h>

#include "../games/game.h"
#include "../tablebase/tablebase.h"

/* The version of the format that the writers write; proof_verify also reads
 * PROOF_VERSION_OLDEST and on, but for what each version cannot bind (a
 * graph's content before 3). */
#define PROOF_VERSION 3
#define PROOF_VERSION_OLDEST 2
#define PROOF_EXACT_MAX 14  /* the most empty squares of an 'exact' leaf */

/* --- the header, as writers print it and readers read it ------------------ */

/* The materials whose tables a proof's 'tb' leaves read (ids < 65536). */
typedef struct {
    uint64_t bits[1024];
} proof_tables;

/* Adds the material of s (a position a 'tb' leaf reads) to t. */
static inline void proof_tables_add(proof_tables *t, const game *g, const game_state *s)
{
    int mat = game_tables(g)->material_of(g, s);
    if (mat >= 0 && mat < 65536)
        t->bits[mat >> 6] |= (uint64_t)1 << (mat & 63);
}

/* A table value's word in a proof file's 'tb' leaf. */
static inline const char *proof_tb_word(tb_wdl w) { return w == TB_WIN ? "win" : w == TB_LOSS ? "loss" : "draw"; }

/* What a proof claims. */
typedef struct proof_claim {
    const game *g;
    const char *position;      /* the root in the game's notation */
    int prover;
    const char *question;      /* "win", "advantage" or "score K" */
    int proven;
} proof_claim;

/* Writes the header of claim c: the format version, game, position,
 * prover, question, result, then 'table MATERIAL HASH' for each material of
 * t (hashes from tb) and the lines given in extra_tables (already in that
 * form, may be NULL).  0, or -1 with err (a table is bad or out failed). */
int proof_header_write(FILE *out, const proof_claim *c, tb_set *tb, const proof_tables *t, const char *extra_tables,
                       char *err, size_t errlen);

#define PROOF_MAX_TABLES 4096  /* 'table' lines a header may hold */

/* A header as read, before the tree; unset numbers are -1. */
typedef struct {
    long version, prover, target;
    unsigned seen;  /* the lines read that may come once */
    char spec[GAME_NAME_MAX], content[65], pos[GAME_TEXT_MAX], question[32], result[32];  /* question: win, advantage or score */
    char table_name[PROOF_MAX_TABLES][32], table_hash[PROOF_MAX_TABLES][TB_HASH_HEX];
    int ntables;
} proof_header;

void proof_header_clear(proof_header *h);
/* Reads one header line into h: 1 read, 0 not a header line, -1 with a
 * reason in err (a malformed or repeated header line). */
int proof_header_read(proof_header *h, const char *line, char *err, size_t errlen);
/* Opens the game of header h into *g, the file that defines it (graphs)
 * with the content h names: 0, or -1 with err. */
int proof_header_game(const proof_header *h, game **g, char *err, size_t errlen);

/* --- what a proof proves -------------------------------------------------- */

/* A proof's claim as the checker reads it: the one type every consumer
 * (import, verify, join, resume) compares with what it expects, field by
 * field, through proof_fact_matches.  No consumer reads a header or a
 * summary line of its own. */
typedef struct {
    char game[GAME_NAME_MAX];      /* the game's canonical spec, variant included ("jungle:classic") */
    char content[65];              /* a game a file defines: the BLAKE2b-256 of its bytes; else "" */
    char position[GAME_TEXT_MAX];  /* the root as the game writes it */
    game_key key;                  /* the root's exact key */
    int mover;                     /* the side to move at the root */
    int prover;                    /* the side the question is asked for */
    int scores;                    /* 1: "finish at least k ahead?"; 0: "win?" (k 1), "avoid losing?" (k 0) */
    int k;
    int proven;
    int ntables;                   /* the 'table' lines of its header */
    char tables[65];               /* their BLAKE2b-256, in the order given ("" when none) */
    uint64_t nodes;                /* its tree's nodes (proof_check only; 0 from proof_claim_read) */
} proof_fact;

/* The claim of the first proof in `in`, read from its header as the checker
 * reads it (comments and empty lines anywhere; each line once; the game
 * opened and the position parsed): nothing of the tree is checked, so only
 * proof_check makes it true.  0, or -1 with a one-line reason. */
int proof_claim_read(FILE *in, proof_fact *f, char *err, size_t errlen);

/* Fact f in the terms of side at f's root in game g: "side finishes at
 * least *k ahead" *proven, *k the least score g can end on at or above it
 * (k 1 win, 0 avoid losing, in a game without scores). */
void proof_fact_as_side(const proof_fact *f, const game *g, int side, int *k, int *proven);

/* Whether fact f claims, of root in game g, "side finishes at least k
 * ahead" (k 1: wins, 0: avoids losing, in a game without scores; scores 1:
 * a score question) proven or disproven (implied 1: that or a claim that
 * implies it, a higher k proven or a lower one disproven): the same game
 * (spec and content), position (key) and question, however the file words
 * it (the other side's claim, a score the game cannot end on).  1, or 0
 * with what differs in why. */
int proof_fact_matches(const proof_fact *f, const game *g, const game_state *root, int side, int scores, int k,
                       int proven, int implied, char *why, size_t len);

/* --- joining and checking ------------------------------------------------ */

/* What proof_join wrote where the children were score proofs: the
 * bounds of the root mover's final score it proved (at least lower, less
 * than upper). */
typedef struct {
    int has_lower, has_upper;
    long lower, upper;
} proof_join_info;

/* Joins proofs of root's children (each from the position after one root
 * move, all of the same claim: 'win' or 'advantage' proofs, or files of
 * score proofs as `prove --score --proof` writes them) into one proof of
 * root on out: the claim's side needs one child, the other side one per
 * legal move; of score proofs, the root's two bounds (info, may be NULL).
 * The files are read more than once (seekable).  Returns 0, or -1 with a
 * one-line reason in err; the result is for proof_verify to check. */
int proof_join(const game *g, const game_state *root, FILE **child, int n_child, FILE *out, proof_join_info *info,
                    char *err, size_t errlen);

typedef struct {
    const char *tb_dir;        /* the tables 'tb' leaves read; NULL: a proof with one is refused */
    int verify_tables;         /* also re-derive every table the proof rests on, and those below
                                * it, from their children (tb_verify_materials) */
    int threads;               /* for verify_tables; <= 0: all cores */
    FILE *report;              /* verify_tables' lines per table (NULL: none) */
    /* called every 2^20 lines read with the lines and the bytes read so far
     * (-1 where the input cannot tell, a pipe); NULL: never */
    void (*progress)(uint64_t lines, long bytes, void *ctx);
    void *progress_ctx;
} proof_check_options;

/* Checks a proof file from the rules (and the tables in co->tb_dir, whose
 * hashes must be those the file names) alone; returns 0 when it is sound,
 * else -1 with a one-line reason naming the line in err.  summary gets
 * "GAME POSITION: 'can White force a win?' proven (N nodes), given tables
 * ..." (may be NULL).  co may be NULL (no tables). */
int proof_verify(FILE *in, const proof_check_options *co, char *summary, size_t slen, char *err, size_t errlen);

/* As proof_verify, and what the file proves: its proofs' claims (a score
 * file holds two) into facts[0 .. *n); more than max proofs is an error. */
int proof_check(FILE *in, const proof_check_options *co, proof_fact *facts, int max, int *n, char *err, size_t errlen);

#endif
