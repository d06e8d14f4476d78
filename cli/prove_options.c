/* cli/prove_options.c - the search options of `prove` and the tables they
 * name, shared with `campaign`. */
#include "cli.h"
#include "prove_options.h"

#include <string.h>
#include <sys/stat.h>

#define TB_CACHE_MB_DEFAULT 256  /* as --memory's default: a search over six-piece Jungle tables 0.60x the CPU of 4 MB */

const struct option cli_prove_long[] = {
    { "question", required_argument, NULL, OPT_QUESTION },
    { "algo", required_argument, NULL, OPT_ALGO },
    { "ghi", required_argument, NULL, OPT_GHI },
    { "memory", required_argument, NULL, OPT_MEMORY },
    { "proof-memory", required_argument, NULL, OPT_PROOF_MEMORY },
    { "proof-time", required_argument, NULL, OPT_PROOF_TIME },
    { "epsilon", required_argument, NULL, OPT_EPSILON },
    { "init", required_argument, NULL, OPT_INIT },
    { "nodes", required_argument, NULL, OPT_NODES },
    { "time", required_argument, NULL, OPT_TIME },
    { "tb-dir", required_argument, NULL, OPT_TBDIR },
    { "tb-decode", no_argument, NULL, OPT_TBDECODE },
    { "tb-cache", required_argument, NULL, OPT_TBCACHE },
    { "no-tb", no_argument, NULL, OPT_NOTB },
    { "proof", required_argument, NULL, OPT_PROOF },
    { "dot", required_argument, NULL, OPT_DOT },
    { "trace", required_argument, NULL, OPT_TRACE },
    { "json", no_argument, NULL, OPT_JSON },
    { "validate", required_argument, NULL, OPT_VALIDATE },
    { "within", required_argument, NULL, OPT_WITHIN },
    { "count", required_argument, NULL, OPT_COUNT },
    { "seed", required_argument, NULL, OPT_SEED },
    { "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
    { "checkpoint-every", required_argument, NULL, OPT_CHECKPOINT_EVERY },
    { "resume", required_argument, NULL, OPT_RESUME },
    { "sum", required_argument, NULL, OPT_SUM },
    { "score", no_argument, NULL, OPT_SCORE },
    { "exact-empties", required_argument, NULL, OPT_EXACT },
    { "proof-exact", required_argument, NULL, OPT_PROOF_EXACT },
    { "threads", required_argument, NULL, OPT_THREADS },
    CLI_PROGRESS_OPTIONS,
    { NULL, 0, NULL, 0 },
};


int cli_prove_option(int opt, const char *arg, void *ctx)
{
    cli_prove_opts *p = ctx;
    switch (opt) {
    case OPT_QUESTION:
        p->question_set = 1;
        if (strcmp(arg, "win") == 0) p->o.question = PNS_WIN;
        else if (strcmp(arg, "advantage") == 0) p->o.question = PNS_ADVANTAGE;
        else if (strncmp(arg, "score:", 6) == 0) {
            long k;
            if (cli_long(arg + 6, -1000000, 1000000, &k) != 0) return -1;
            p->o.question = PNS_SCORE;
            p->o.score_target = (int)k;
        } else return -1;
        return 0;
    case OPT_ALGO:
        if (strcmp(arg, "dfpn") == 0) p->o.algo = PNS_DFPN;
        else if (strcmp(arg, "pns") == 0) p->o.algo = PNS_BEST_FIRST;
        else return -1;
        return 0;
    case OPT_GHI:
        if (strcmp(arg, "safe") == 0) p->o.ghi = PNS_GHI_SAFE;
        else if (strcmp(arg, "naive") == 0) p->o.ghi = PNS_GHI_NAIVE;
        else return -1;
        return 0;
    case OPT_MEMORY: {
        long v;
        if (cli_long(arg, 1, 1L << 22, &v) != 0) return -1;
        p->o.memory = (size_t)v << 20;
        return 0;
    }
    case OPT_PROOF_MEMORY: {
        long v;
        if (cli_long(arg, 1, 1L << 22, &v) != 0) return -1;
        p->o.proof_memory = (size_t)v << 20;
        return 0;
    }
    case OPT_EPSILON:
        return cli_double(arg, 0, 100, &p->o.epsilon);
    case OPT_INIT:
        p->init_set = 1;
        if (strcmp(arg, "one") == 0) p->o.init = PNS_INIT_ONE;
        else if (strcmp(arg, "mobility") == 0) p->o.init = PNS_INIT_MOBILITY;
        else if (strcmp(arg, "eval") == 0) p->o.init = PNS_INIT_EVAL;
        else return -1;
        return 0;
    case OPT_NODES:
        return cli_u64(arg, 1, UINT64_MAX / 2, &p->o.max_nodes);
    case OPT_TIME:
        return cli_double(arg, 1e-3, 1e8, &p->o.max_seconds);  /* over three years */
    case OPT_PROOF_TIME:
        return cli_double(arg, 1e-6, 1e8, &p->o.proof_seconds);
    case OPT_TBDIR: p->tb_dir = arg; return *arg ? 0 : -1;
    case OPT_NOTB: p->no_tb = 1; return 0;
    case OPT_TBDECODE: p->tb_decode = 1; return 0;
    case OPT_TBCACHE: return cli_double(arg, 1e-3, 1 << 22, &p->tb_cache_mb);
    case OPT_PROOF: p->proof = arg; return *arg ? 0 : -1;
    case OPT_DOT: p->dot = arg; return *arg ? 0 : -1;
    case OPT_TRACE: p->trace = arg; return *arg ? 0 : -1;
    case OPT_JSON: p->json = 1; return 0;
    case OPT_CHECKPOINT: p->o.checkpoint = arg; return *arg ? 0 : -1;
    case OPT_RESUME: p->o.resume = arg; return *arg ? 0 : -1;
    case OPT_SCORE: p->score = 1; return 0;
    case OPT_EXACT:
        p->exact_set = 1;
        return cli_int(arg, 0, 64, &p->o.exact_empties);
    case OPT_PROOF_EXACT:
        p->proof_exact_set = 1;
        return cli_int(arg, 0, PROOF_EXACT_MAX, &p->o.proof_exact_empties);
    case OPT_SUM:
        if (strcmp(arg, "plain") == 0) p->o.weak = 0;
        else if (strcmp(arg, "weak") == 0) p->o.weak = 1;
        else return -1;
        return 0;
    case OPT_CHECKPOINT_EVERY:
        return cli_double(arg, 1e-3, 1e8, &p->o.checkpoint_every);
    case OPT_VALIDATE:
        return cli_int(arg, 2, 10, &p->validate);
    case OPT_THREADS:
        return cli_int(arg, 1, 256, &p->o.threads);
    case OPT_WITHIN:
        return cli_int(arg, 1, 63, &p->within);
    case OPT_COUNT:
    case OPT_SEED:
        return cli_u64(arg, opt == OPT_COUNT, UINT64_MAX, opt == OPT_COUNT ? &p->count : &p->seed);
    default: return cli_progress_option(&p->progress, opt, arg) == 0 ? 0 : -1;
    }
}

void cli_prove_score_options(cli_prove_opts *p)
{
    pns_options d = p->o;
    pns_score_defaults(&d);
    if (!p->exact_set)
        p->o.exact_empties = d.exact_empties;
    if (!p->proof_exact_set)
        p->o.proof_exact_empties = d.proof_exact_empties;
    if (!p->init_set)
        p->o.init = d.init;
}

int cli_prove_tables(const game *g, const cli_prove_opts *p, tb_set **tb)
{
    *tb = NULL;
    if (p->no_tb || !game_has_tables(g))
        return 0;
    struct stat st;
    const char *dir = p->tb_dir ? p->tb_dir : "tables";
    int threads = p->o.threads > 1 ? p->o.threads : 1;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
        if ((*tb = tb_open_lazy(g, dir)) != NULL)
            tb_set_cache_size(*tb, (size_t)((p->tb_cache_mb > 0 ? p->tb_cache_mb : TB_CACHE_MB_DEFAULT) * 1048576.0 /
                                            threads));
        if (*tb && p->tb_decode)
            tb_set_resident_shared(*tb);
        if (*tb)
            tb_set_hash_files(*tb);  /* a proof's writer; verify-proof hashes the values */
    } else if (p->tb_dir)
        return cli_fail(EXIT_USAGE, "prove: no table directory '%s'", p->tb_dir);
    return 0;
}

