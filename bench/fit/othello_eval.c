/* bench/fit/othello_eval.c - fits the weights of the evaluation that orders
 * the Othello endgame solver's moves (games/othello_eval.h) from exact
 * scores our own solver finds, and writes them as games/othello_weights.c.
 *
 *   build/fit-othello-eval [--boards 8x8,6x6] [--per-stage N] [--min E]
 *                          [--max E] [--seed S] > games/othello_weights.c
 *
 * Positions: games played from each board's start, each move the one that
 * leaves the opponent fewest replies or (one time in three) a random one,
 * stopped at E empty squares; each is solved exactly and its
 * features taken.  Weights: per stage E, ridge least squares over the
 * positions of stages E-1..E+1 of every board; stages beyond --max use the
 * last fitted one.  Everything is deterministic for one seed. */
#include "../../games/game.h"
#include "../../games/othello_bits.h"
#include "../../games/othello_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NF OTHELLO_FEATURES

typedef struct {
    int stage;
    int f[NF];
    int score;
} sample;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Plays from the start of g until E empties (p, o: the mover's and the
 * other's discs, *side the mover); 0, or -1 when the game ended first. */
static int play_to(const othello_shape *sh, int E, uint64_t *p, uint64_t *o)
{
    while (__builtin_popcountll(sh->board & ~(*p | *o)) > E) {
        uint64_t moves = othello_legal(*p, *o, sh->board);
        if (!moves) {
            if (!othello_legal(*o, *p, sh->board))
                return -1;
            uint64_t t = *p; *p = *o; *o = t;
            continue;
        }
        unsigned pick = 64;
        if (next_random() % 3 == 0) {
            int k = (int)(next_random() % (uint64_t)__builtin_popcountll(moves));
            uint64_t m = moves;
            while (k--)
                m &= m - 1;
            pick = (unsigned)__builtin_ctzll(m);
        } else {
            int least = 1 << 30;
            for (uint64_t m = moves; m; m &= m - 1) {
                unsigned sq = (unsigned)__builtin_ctzll(m);
                uint64_t f = othello_flips(*p, *o, sq), np = *p | f | 1ULL << sq, no = *o & ~f;
                int r = __builtin_popcountll(othello_legal(no, np, sh->board)) * 8 + (int)(next_random() % 8);
                if (r < least)
                    least = r, pick = sq;
            }
        }
        uint64_t f = othello_flips(*p, *o, pick), np = *p | f | 1ULL << pick, no = *o & ~f;
        *p = no;
        *o = np;
    }
    return 0;
}

/* The exact score by null-window questions from 0 (MTD(f)): on these
 * positions far cheaper than one full-window search. */
static int exact_score(const game *g, game_solver *x, const game_state *s)
{
    int lo = -64, hi = 64, guess = 0;
    while (lo < hi) {
        int b = guess == lo ? guess + 1 : guess;
        int v = game_solver_score(g, x, s, b - 1, b, NULL);
        if (v < b)
            hi = v;
        else
            lo = v;
        guess = v;
    }
    return lo;
}

/* Solves A x = b (n x n, A symmetric positive definite) in place. */
static void solve(double *A, double *b, int n)
{
    for (int i = 0; i < n; i++) {
        int piv = i;
        for (int r = i + 1; r < n; r++)
            if (fabs(A[r * n + i]) > fabs(A[piv * n + i]))
                piv = r;
        for (int c = 0; c < n; c++) {
            double t = A[i * n + c]; A[i * n + c] = A[piv * n + c]; A[piv * n + c] = t;
        }
        double t = b[i]; b[i] = b[piv]; b[piv] = t;
        for (int r = 0; r < n; r++) {
            if (r == i || A[i * n + i] == 0)
                continue;
            double m = A[r * n + i] / A[i * n + i];
            for (int c = 0; c < n; c++)
                A[r * n + c] -= m * A[i * n + c];
            b[r] -= m * b[i];
        }
    }
    for (int i = 0; i < n; i++)
        b[i] = A[i * n + i] != 0 ? b[i] / A[i * n + i] : 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: fit-othello-eval [--boards 8x8,6x6] [--per-stage N] [--min E] [--max E] [--seed S]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *boards = "8x8,6x6";
    int per = 200, lo = 6, hi = 20;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--boards") == 0) boards = argv[++i];
        else if (strcmp(argv[i], "--per-stage") == 0) per = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0) lo = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max") == 0) hi = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0) rng = strtoull(argv[++i], NULL, 0) | 1;
        else usage();
    }
    if (per < 1 || lo < 1 || hi < lo || hi >= OTHELLO_STAGES)
        usage();
    size_t cap = 1024, n = 0;
    sample *data = malloc(cap * sizeof *data);
    char list[256], err[256];
    snprintf(list, sizeof list, "%s", boards);
    for (char *save, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
        char spec[64];
        snprintf(spec, sizeof spec, "othello:%s", b);
        game *g = game_open(spec, NULL, err, sizeof err);
        if (!g) {
            fprintf(stderr, "fit-othello-eval: %s\n", err);
            return 2;
        }
        othello_shape sh;
        othello_shape_init(&sh, g->width, g->height);
        game_solver *x = game_solver_new(g, 64 << 20);
        game_state start;
        game_start(g, &start);
        for (int E = lo; E <= hi && E < sh.squares - 4; E++) {
            for (int k = 0; k < per;) {
                uint64_t p = start.w[start.w[2]], o = start.w[!start.w[2]];
                if (play_to(&sh, E, &p, &o) != 0 || !(othello_legal(p, o, sh.board) | othello_legal(o, p, sh.board)))
                    continue;
                game_state s = { { p, o, 0, 0 } };
                if (n == cap)
                    data = realloc(data, (cap *= 2) * sizeof *data);
                data[n].stage = E;
                data[n].score = exact_score(g, x, &s);
                othello_features(&sh, p, o, data[n].f);
                n++, k++;
            }
            fprintf(stderr, "%s: %d empties, %d positions solved\n", spec, E, per);
        }
        game_solver_free(g, x);
        game_close(g);
    }
    printf("/* games/othello_weights.c - written by bench/fit/othello_eval.c (do not edit):\n"
           " * fit-othello-eval --boards %s --per-stage %d --min %d --max %d, %zu positions.\n"
           " * Per stage (empty squares), the weights of othello_eval.h's features in\n"
           " * 1/%d of a disc, and the fit's root mean square error in discs. */\n"
           "#include \"othello_eval.h\"\n\nconst int32_t othello_weights[OTHELLO_STAGES][OTHELLO_FEATURES] = {\n",
           boards, per, lo, hi, n, OTHELLO_EVAL_ONE);
    static int32_t W[OTHELLO_STAGES][NF];
    double rms[OTHELLO_STAGES];
    for (int E = lo; E <= hi; E++) {
        double A[NF * NF] = { 0 }, b[NF] = { 0 };
        for (size_t i = 0; i < n; i++)
            if (abs(data[i].stage - E) <= 1)
                for (int r = 0; r < NF; r++) {
                    b[r] += (double)data[i].f[r] * data[i].score;
                    for (int c = 0; c < NF; c++)
                        A[r * NF + c] += (double)data[i].f[r] * data[i].f[c];
                }
        for (int r = 0; r < NF; r++)
            A[r * NF + r] += 1.0;  /* ridge: keeps unused features at 0 */
        solve(A, b, NF);
        double se = 0;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (data[i].stage == E) {
                double v = 0;
                for (int r = 0; r < NF; r++)
                    v += b[r] * data[i].f[r];
                se += (v - data[i].score) * (v - data[i].score), m++;
            }
        rms[E] = m ? sqrt(se / m) : 0;
        for (int r = 0; r < NF; r++)
            W[E][r] = (int32_t)lround(b[r] * OTHELLO_EVAL_ONE);
    }
    for (int E = 0; E < OTHELLO_STAGES; E++) {
        int from = E < lo ? lo : E > hi ? hi : E;
        printf("    {");
        for (int r = 0; r < NF; r++)
            printf("%s%d", r ? ", " : " ", W[from][r]);
        if (from == E)
            printf(" },  /* %d: rms %.2f */\n", E, rms[E]);
        else
            printf(" },  /* %d: as %d */\n", E, from);
    }
    printf("};\n");
    free(data);
    return 0;
}
