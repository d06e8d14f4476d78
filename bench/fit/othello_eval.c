/* bench/fit/othello_eval.c - fits the weights of the evaluation that orders
 * the Othello endgame solver's moves (games/othello/othello_eval.h) from exact
 * scores our own solver finds, and writes them as games/othello/othello_weights.c.
 *
 *   build/fit-othello-eval [--boards 8x8,6x6] [--per-stage N] [--min E]
 *                          [--max E] [--seed S] > games/othello/othello_weights.c
 *
 * Positions: games played from each board's start, each move the one that
 * leaves the opponent fewest replies or (one time in three) a random one,
 * stopped at E empty squares; each is solved exactly and its
 * features taken.  Weights: per stage E, ridge least squares over the
 * positions of stages E-1..E+1 of every board; stages beyond --max use the
 * last fitted one.  Everything is deterministic for one seed.
 *
 * The pattern fit (games/othello/othello_pattern.c) needs far more positions than
 * the features, so they are solved once and kept:
 *
 *   build/fit-othello-eval --boards 8x8 --per-stage 8000 --min 14 --max 18
 *                          --seed S --dump POSITIONS > /dev/null  (S: 11, 13)
 *   build/fit-othello-eval --patterns POSITIONS[,POSITIONS of another board]
 *                          [--from 14] [--ridge 32] > games/othello/othello_pattern_weights.c
 *
 * (POSITIONS: lines "W H empties p o score", p and o the mover's and the
 * other's discs in hex.)  Build the tool with an empty pattern file first
 * when the file in place does not compile. */
#include "../../games/game.h"
#include "../../games/othello/othello_bits.h"
#include "../../games/othello/othello_eval.h"

#include <inttypes.h>
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
    fprintf(stderr, "usage: fit-othello-eval [--boards 8x8,6x6] [--per-stage N] [--min E] [--max E] [--seed S]\n"
                    "                        [--dump FILE] | --patterns FILE[,FILE...] [--from E] [--ridge R]\n");
    exit(2);
}

/* --- the pattern fit: positions solved once (--dump), fitted many times --- */

typedef struct {
    int width, height, stage, score;
    uint64_t p, o;
} position;

/* Reads FILE's lines "W H stage p o score" (p, o in hex); the count, or -1
 * (said on stderr) when it cannot be read or a line is not one of them. */
static long read_positions(const char *path, position **out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "fit-othello-eval: cannot read '%s'\n", path);
        return -1;
    }
    size_t cap = 1024, n = 0;
    position *v = malloc(cap * sizeof *v);
    position q;
    char line[256];
    while (v && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%d %d %d %" SCNx64 " %" SCNx64 " %d", &q.width, &q.height, &q.stage, &q.p, &q.o,
                   &q.score) != 6) {
            fprintf(stderr, "fit-othello-eval: %s line %zu: not 'W H empties p o score'\n", path, n + 1);
            fclose(f);
            free(v);
            return -1;
        }
        if (n == cap) {
            position *w = realloc(v, (cap *= 2) * sizeof *v);
            if (!w)
                free(v);
            v = w;
        }
        if (v)
            v[n++] = q;
    }
    fclose(f);
    if (!v) {
        fprintf(stderr, "fit-othello-eval: out of memory reading '%s'\n", path);
        return -1;
    }
    *out = v;
    return (long)n;
}

/* Writes one board's fitted pattern weights w and feature weights lin as C
 * (the file's head first when *first). */
static void print_patterns(const othello_patterns *pp, int W, int H, long m, int from, double ridge, double rms,
                           double feature_rms, double *const *w, const double *lin, int *first)
{
    const othello_patterns P = *pp;
    if (*first)
        printf("/* games/othello/othello_pattern_weights.c - written by bench/fit/othello_eval.c\n"
               " * --patterns (do not edit): per board, the weights of each pattern class\n"
               " * by canonical index and of the features beside them, in 1/%d of a disc. */\n"
               "#include \"othello_eval.h\"\n",
               OTHELLO_EVAL_ONE);
    *first = 0;
    printf("\n/* %dx%d: %ld positions of %d empties or more, ridge %g: held-out rms %.2f discs\n"
           " * (the features alone: %.2f) */",
           W, H, m, from, ridge, rms, feature_rms);
    for (int c = 0; c < P.classes; c++) {
        printf("\nstatic const int16_t w%dx%d_%d[%d] = {", W, H, c, P.weights_per_class[c]);
        for (int t = 0; t < P.weights_per_class[c]; t++) {
            long q = lround(w[c][t] * OTHELLO_EVAL_ONE);
            q = q > 32767 ? 32767 : q < -32767 ? -32767 : q;
            printf("%s%ld", t == 0 ? "\n    " : t % 16 ? "," : ",\n    ", q);
        }
        printf("\n};\n");
    }
    printf("static const int16_t *const w%dx%d[] = {", W, H);
    for (int c = 0; c < P.classes; c++)
        printf(" w%dx%d_%d,", W, H, c);
    printf(" };\n#define FIT_%dx%d { %d, %d, %d, %d, {", W, H, W, H, from, P.classes);
    for (int c = 0; c < P.classes; c++)
        printf("%s%d", c ? ", " : " ", P.weights_per_class[c]);
    printf(" }, {");
    for (int a = 0; a < NF; a++)
        printf("%s%ld", a ? ", " : " ", lround(lin[a] * OTHELLO_EVAL_ONE));
    printf(" }, w%dx%d }\n", W, H);
}

/* Fits one board's patterns and features jointly to the exact scores of
 * the positions from `from` empties up, by passes of a damped Jacobi step
 * per class (each weight moves by the mean residual of the positions that
 * read it, shrunk by ridge counts), the features refitted by least squares
 * between passes; every tenth position is held out to watch the error.
 * Prints the board's fit as C (its weight arrays, then one initialiser). */
static void fit_patterns(const position *v, long n, int from, double ridge, int *first)
{
    enum { PASSES = 120 };
    int W = v[0].width, H = v[0].height;
    othello_shape sh;
    othello_shape_init(&sh, W, H);
    othello_patterns P;
    othello_patterns_init(&P, W, H);
    long m = 0;
    int (*f)[NF] = malloc((size_t)n * sizeof *f), (*idx)[OTHELLO_PATTERN_INSTANCES] = malloc((size_t)n * sizeof *idx);
    double *y = malloc((size_t)n * sizeof *y), *r = malloc((size_t)n * sizeof *r);
    for (long i = 0; i < n; i++) {
        if (v[i].width != W || v[i].height != H || v[i].stage < from)
            continue;
        othello_features(&sh, v[i].p, v[i].o, f[m]);
        othello_patterns_index(&P, v[i].p, v[i].o, idx[m]);
        y[m++] = v[i].score;
    }
    double *w[OTHELLO_PATTERN_CLASSES], *best_w[OTHELLO_PATTERN_CLASSES], lin[NF] = { 0 }, best_lin[NF] = { 0 };
    double best_se = 1e300, feature_rms = 0;
    int most = 0, best_pass = 0;
    for (int c = 0; c < P.classes; c++) {
        w[c] = calloc((size_t)P.weights_per_class[c], sizeof *w[c]);
        best_w[c] = calloc((size_t)P.weights_per_class[c], sizeof *w[c]);
        most = P.weights_per_class[c] > most ? P.weights_per_class[c] : most;
    }
    double *g = malloc((size_t)most * sizeof *g), *cnt = malloc((size_t)most * sizeof *cnt);
    for (int pass = 0; pass <= PASSES; pass++) {
        /* the features, least squares on what the patterns leave */
        double A[NF * NF] = { 0 }, b[NF] = { 0 };
        for (long i = 0; i < m; i++) {
            if (i % 10 == 0)
                continue;
            double t = y[i];
            for (int k = 0; k < P.n; k++)
                t -= w[P.instance[k].cls][idx[i][k]];
            for (int a = 0; a < NF; a++) {
                b[a] += f[i][a] * t;
                for (int c = 0; c < NF; c++)
                    A[a * NF + c] += (double)f[i][a] * f[i][c];
            }
        }
        for (int a = 0; a < NF; a++)
            A[a * NF + a] += 1.0;
        solve(A, b, NF);
        memcpy(lin, b, sizeof lin);
        double se[2] = { 0, 0 };
        long cn[2] = { 0, 0 };
        for (int c = 0; c <= P.classes; c++) {
            for (long i = 0; i < m; i++) {
                double pred = 0;
                for (int a = 0; a < NF; a++)
                    pred += lin[a] * f[i][a];
                for (int k = 0; k < P.n; k++)
                    pred += w[P.instance[k].cls][idx[i][k]];
                r[i] = y[i] - pred;
                if (c == 0) {
                    se[i % 10 == 0] += r[i] * r[i];
                    cn[i % 10 == 0]++;
                }
            }
            if (c == 0 && se[1] / (cn[1] ? cn[1] : 1) < best_se) {  /* early stopping by the held-out error */
                best_se = se[1] / (cn[1] ? cn[1] : 1);
                best_pass = pass;
                memcpy(best_lin, lin, sizeof lin);
                for (int k = 0; k < P.classes; k++)
                    memcpy(best_w[k], w[k], (size_t)P.weights_per_class[k] * sizeof *w[k]);
            }
            if (c == P.classes || pass == PASSES)
                break;
            int per = 0;  /* instances of c a position reads */
            for (int k = 0; k < P.n; k++)
                per += P.instance[k].cls == c;
            memset(g, 0, (size_t)P.weights_per_class[c] * sizeof *g);
            memset(cnt, 0, (size_t)P.weights_per_class[c] * sizeof *cnt);
            for (long i = 0; i < m; i++)
                if (i % 10)
                    for (int k = 0; k < P.n; k++)
                        if (P.instance[k].cls == c)
                            g[idx[i][k]] += r[i], cnt[idx[i][k]] += 1;
            for (int t = 0; t < P.weights_per_class[c]; t++)
                w[c][t] += g[t] / (cnt[t] + ridge) / per * 2;
        }
        if (pass == 0)
            feature_rms = sqrt(se[1] / (cn[1] ? cn[1] : 1));
        if (pass % 20 == 0)
            fprintf(stderr, "%dx%d from %d empties, %ld positions: pass %d, rms %.2f (held out %.2f)\n", W, H, from, m,
                    pass, sqrt(se[0] / (cn[0] ? cn[0] : 1)), sqrt(se[1] / (cn[1] ? cn[1] : 1)));
    }
    fprintf(stderr, "%dx%d: kept pass %d, held-out rms %.2f\n", W, H, best_pass, sqrt(best_se));
    memcpy(lin, best_lin, sizeof lin);
    for (int c = 0; c < P.classes; c++)
        memcpy(w[c], best_w[c], (size_t)P.weights_per_class[c] * sizeof *w[c]);
    print_patterns(&P, W, H, m, from, ridge, sqrt(best_se), feature_rms, w, lin, first);
    for (int c = 0; c < P.classes; c++)
        free(w[c]), free(best_w[c]);
    free(g), free(cnt), free(f), free(idx), free(y), free(r);
    othello_patterns_free(&P);
}

/* --patterns FILES: the pattern weights fitted to each file's positions,
 * written as C; the exit status. */
static int fit_pattern_files(const char *patterns, int from, double ridge)
{
    char files[1024];
    snprintf(files, sizeof files, "%s", patterns);
    int first = 1, fits = 0;
    char names[1024] = "";
    for (char *save, *file = strtok_r(files, ",", &save); file; file = strtok_r(NULL, ",", &save)) {
        position *v;
        long n = read_positions(file, &v);
        if (n <= 0) {
            if (n == 0)
                fprintf(stderr, "fit-othello-eval: no positions in '%s'\n", file);
            return 2;
        }
        fit_patterns(v, n, from, ridge, &first);
        snprintf(names + strlen(names), sizeof names - strlen(names), " FIT_%dx%d,", v[0].width, v[0].height);
        fits++;
        free(v);
    }
    printf("\nconst othello_pattern_fit othello_pattern_fits[] = {%s };\nconst int othello_pattern_fit_count = %d;\n",
           names, fits);
    return 0;
}

/* per random positions of each stage lo..hi of each board, solved exactly
 * (and dumped to dump_file when not NULL) into *out; their count, or -1. */
static long solve_samples(const char *boards, int per, int lo, int hi, FILE *dump_file, sample **out)
{
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
            return -1;
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
                if (dump_file)
                    fprintf(dump_file, "%d %d %d %" PRIx64 " %" PRIx64 " %d\n", g->width, g->height, E, p, o, data[n].score);
                n++, k++;
            }
            fprintf(stderr, "%s: %d empties, %d positions solved\n", spec, E, per);
            if (dump_file)
                fflush(dump_file);
        }
        game_solver_free(g, x);
        game_close(g);
    }
    *out = data;
    return (long)n;
}

/* The feature weights of each stage, least squares over the samples of it
 * and its neighbours, written as C. */
static void fit_features(const sample *data, size_t n, const char *boards, int per, int lo, int hi)
{
    printf("/* games/othello/othello_weights.c - written by bench/fit/othello_eval.c (do not edit):\n"
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
}

int main(int argc, char **argv)
{
    const char *boards = "8x8,6x6", *dump = NULL, *patterns = NULL;
    int per = 200, lo = 6, hi = 20, from = 14;
    double ridge = 8;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--boards") == 0) boards = argv[++i];
        else if (strcmp(argv[i], "--per-stage") == 0) per = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0) lo = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max") == 0) hi = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0) rng = strtoull(argv[++i], NULL, 0) | 1;
        else if (strcmp(argv[i], "--dump") == 0) dump = argv[++i];
        else if (strcmp(argv[i], "--patterns") == 0) patterns = argv[++i];
        else if (strcmp(argv[i], "--from") == 0) from = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ridge") == 0) ridge = atof(argv[++i]);
        else usage();
    }
    if (patterns)
        return fit_pattern_files(patterns, from, ridge);
    FILE *dump_file = dump ? fopen(dump, "w") : NULL;
    if (dump && !dump_file) {
        fprintf(stderr, "fit-othello-eval: cannot write '%s'\n", dump);
        return 2;
    }
    if (per < 1 || lo < 1 || hi < lo || hi >= OTHELLO_STAGES)
        usage();
    sample *data;
    long n = solve_samples(boards, per, lo, hi, dump_file, &data);
    if (n < 0)
        return 2;
    fit_features(data, (size_t)n, boards, per, lo, hi);
    free(data);
    return 0;
}
