/* cli/common.c - error reporting, interrupts and game loading for commands. */
#include "cli.h"
#include "../util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <getopt.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

volatile int cli_stop;

/* The first signal asks the run to stop where it can report (between
 * segments, tables or nodes); some passes, such as making a large table's
 * index, have no such point for minutes, so a second signal ends the process
 * at once.  Finished files are safe: every file is written under a temporary
 * name and renamed only when complete. */
static int interrupt_said_on_tty;  /* set before the handler: isatty is not safe inside it */

static void on_interrupt(int sig)
{
    if (cli_stop) {
        static const char msg[] = "\npnsolve: interrupted again: quitting now (finished files are kept)\n";
        ssize_t unused = write(2, msg, sizeof msg - 1);
        (void)unused;
        _exit(EXIT_INTERRUPTED);
    }
    __atomic_store_n(&cli_stop, 1, __ATOMIC_RELAXED);  /* lock-free: safe in a handler, and the threads read it atomically */
    if (sig == SIGINT && interrupt_said_on_tty) {  /* said at once: a pass may run minutes before it can stop */
        static const char msg[] = "\npnsolve: stopping, the work done kept (saved where it stands); "
                                  "Ctrl-C again quits at once\n";
        ssize_t unused = write(2, msg, sizeof msg - 1);
        (void)unused;
    }
}

void cli_catch_interrupt(void)
{
    interrupt_said_on_tty = isatty(2);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);  /* a batch system's early warning (Slurm's --signal=B:USR1@300) */
}

int cli_fail(int code, const char *fmt, ...)
{
    /* escaped: a message may quote a file's bytes, which must not paint
     * the terminal (a forged 'sound:' line, say) */
    char msg[8192], shown[4 * sizeof msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pnsolve: %s\n", util_escape(msg, shown, sizeof shown));
    return code;
}

int cli_open_game(const char *spec, const char *variant, const char *position, game **g, game_state *s)
{
    char err[256];
    *g = game_open(spec, variant, err, sizeof err);
    if (!*g)
        return cli_fail(EXIT_USAGE, "%s", err);
    if (!position) {
        game_start(*g, s);
        return 0;
    }
    if (game_parse(*g, position, s, err, sizeof err) != 0) {
        game_close(*g);
        *g = NULL;
        return cli_fail(EXIT_USAGE, "bad position: %s", err);
    }
    return 0;
}

int cli_parse(int argc, char **argv, cli_game_opts *o, const struct option *extra,
              int (*on_extra)(int opt, const char *arg, void *ctx), void *ctx, int *first)
{
    enum { MAX_OPTIONS = 64 };
    struct option all[MAX_OPTIONS] = {
        { "position", required_argument, NULL, 'p' },
        { "variant", required_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
    };
    int n = 3;
    for (; extra && extra[n - 3].name; n++) {
        if (n == MAX_OPTIONS - 1)  /* a command with more options than this table: never cut one off */
            return cli_fail(1, "%s: more than %d options: cli_parse's table is too small", argv[0], MAX_OPTIONS - 4);
        all[n] = extra[n - 3];
    }
    all[n] = (struct option){ NULL, 0, NULL, 0 };
    memset(o, 0, sizeof *o);
    opterr = 0;
    optind = 1;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":p:v:h", all, &li)) != -1) {
        switch (c) {
        case 'p': o->position = optarg; break;
        case 'v': o->variant = optarg; break;
        case 'h': o->help = 1; break;
        case ':':
            return cli_fail(EXIT_USAGE, "%s: option '%s' needs a value", argv[0], argv[optind - 1]);
        case '?':
            return cli_fail(EXIT_USAGE, "%s: unknown option '%s'", argv[0], argv[optind - 1]);
        default:
            if (!on_extra || on_extra(c, optarg, ctx) != 0)
                return cli_fail(EXIT_USAGE, "%s: bad value '%s' for option '--%s'", argv[0], optarg ? optarg : "",
                                li >= 0 ? all[li].name : "?");
        }
        li = -1;
    }
    *first = optind;
    return 0;
}

int cli_store_string(int opt, const char *arg, void *ctx)
{
    (void)opt;
    if (!arg || !*arg)
        return -1;
    *(const char **)ctx = arg;
    return 0;
}

void cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

int cli_make_dir(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        char c = *p;
        if (c == '/' || c == 0) {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = c;
        }
        if (!c) {  /* an existing file of that name is not a directory */
            struct stat st;
            if (stat(path, &st) != 0)
                return -1;
            return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
        }
    }
}

int cli_long(const char *text, long lo, long hi, long *out) { return util_read_long(text, lo, hi, out); }

int cli_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out) { return util_read_u64(text, lo, hi, out); }

int cli_double(const char *text, double lo, double hi, double *out)
{
    char *end;
    if (!text || !*text)
        return -1;
    errno = 0;
    double v = strtod(text, &end);
    if (*end || errno || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_int(const char *text, int lo, int hi, int *out)
{
    long v;
    if (cli_long(text, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int cli_mpi_size(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_SIZE");  /* mpirun of Open MPI */
    if (!v)
        v = getenv("PMI_SIZE");  /* srun, MPICH's mpiexec */
    if (!v && getenv("PMIX_RANK"))
        v = getenv("SLURM_NTASKS");  /* srun --mpi=pmix */
    return v ? atoi(v) : 1;
}

int cli_mpi_rank(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_RANK");
    if (!v)
        v = getenv("PMI_RANK");
    if (!v)
        v = getenv("PMIX_RANK");
    if (!v)
        v = getenv("SLURM_PROCID");
    return v ? atoi(v) : 0;
}

int cli_distinct_files(const char *cmd, const cli_file *files, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && files[i].path; j++)
            if (files[j].path && (files[i].output || files[j].output) && util_same_file(files[i].path, files[j].path))
                return cli_fail(EXIT_USAGE, "%s: %s and %s name one file (%s): an output would replace %s", cmd,
                                files[i].what, files[j].what, files[j].path,
                                files[i].output && files[j].output ? "the other" : "an input");
    return 0;
}

const char *cli_game_file(const char *spec) { return strncmp(spec, "graph:", 6) == 0 ? spec + 6 : NULL; }

int cli_input_status(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) ? EXIT_USAGE : 1;
}

int cli_stdout_aside(const char *name)
{
    if (!name || strcmp(name, "-") != 0)
        return -1;
    fflush(stdout);
    int saved = dup(1);
    if (saved >= 0)
        dup2(2, 1);
    return saved;
}

void cli_stdout_back(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
}
