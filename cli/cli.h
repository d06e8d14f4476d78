/* cli/cli.h - private to cli/: what the commands share. */
#ifndef PNSOLVE_CLI_H
#define PNSOLVE_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../symbolic/symbolic.h"
#include "../pns/pns.h"
#include "../pwrite/pwrite.h"

enum { EXIT_USAGE = 2, EXIT_PAUSED = 3, EXIT_INTERRUPTED = 130 };  /* 3: a slice of a long run done, saved */

/* The most pieces a table may have: Ostle's full board (5 + 5). */
enum { CLI_MAX_PIECES = 10 };

/* Set by SIGINT; long commands poll it and report what they have. */
extern volatile int cli_stop;
void cli_catch_interrupt(void);

/* Prints "pnsolve: <message>" on stderr and returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens spec (with variant) and reads position (or the start when NULL) into
 * *s; on error prints one line and returns EXIT_USAGE, else 0. */
int cli_open_game(const char *spec, const char *variant, const char *position, game **g, game_state *s);

/* Options every game command takes. */
typedef struct {
    const char *position, *variant;
    int help;
} cli_game_opts;

/* Parses argv (argv[0] is the command name) with getopt_long: the common
 * options plus extra ones (handled by on_extra, which returns 0 if it took the
 * option; extra long options use vals above 255); the positional arguments are left in argv[*first .. argc).  Returns
 * 0, or EXIT_USAGE after printing one line. */
int cli_parse(int argc, char **argv, cli_game_opts *o, const struct option *extra,
              int (*on_extra)(int opt, const char *arg, void *ctx), void *ctx, int *first);

/* on_extra for a command whose only extra option takes a string: stores a
 * non-empty value in *(const char **)ctx. */
int cli_store_string(int opt, const char *arg, void *ctx);

/* Numbers of options and arguments: the whole text one decimal number in
 * [lo, hi] (a finite one for doubles), else -1 and *out untouched. */
int cli_long(const char *text, long lo, long hi, long *out);
int cli_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);
int cli_double(const char *text, double lo, double hi, double *out);
int cli_int(const char *text, int lo, int hi, int *out);

/* The number of ranks mpirun or srun started this process among (1 when
 * none): read from their environment, before MPI starts. */
int cli_mpi_size(void);
/* This process's rank among them (0 when alone), read the same way. */
int cli_mpi_rank(void);
/* tb_mpi.c: tb_build of g to `pieces` in dir as one of the ranks of mpirun
 * or srun (bo->ranks set; the log and progress on rank 0 alone, which also
 * reports what crossed between the ranks); tb_build's return, *rank set. */
int tb_mpi_build(const game *g, const char *dir, int pieces, tb_build_options *bo, char *err, size_t errlen,
                 int *rank);

/* tb_layers_cmd.c: tb build, stats, verify and reach of a game solved whole
 * by layers of empty squares; an exit code. */
int cli_tb_layers(const game *g, const char *action, const char *dir, int json, int threads, uint64_t memory);
/* tb_probe.c: tb probe of position (or '-': one a line from stdin) in the
 * tables of g in dir, any kind, with every move's value (moves), as text
 * or JSON; tb line: the mainline of perfect play from position, at most
 * max_plies plies.  An exit code. */
int cli_tb_probe(const game *g, const char *dir, const char *position, int json, int moves);
int cli_tb_line(const game *g, const char *dir, const char *position, int max_plies, int json);
/* The value of any state s: 1 with *v (a finished game's from the rules,
 * else the tables'), 0 with err when no table holds it, -1 with err (a bad
 * table). */
int cli_tb_value(const game *g, tb_set *t, const game_state *s, tb_value *v, char *err, size_t errlen);
/* Why a mainline ended, and its word in JSON ("over", "repetition",
 * "max-plies", "no-table"). */
typedef enum { CLI_LINE_OVER, CLI_LINE_REPEATED, CLI_LINE_MAX, CLI_LINE_NO_TABLE } cli_line_end;
extern const char *const cli_line_end_key[];
typedef void (*cli_ply_fn)(void *ctx, int ply, const char *move, const game_state *s, const tb_value *v);
/* Plays the tables' best moves from s, on_ply after each, until the game
 * ends, a position repeats (a draw), max_plies or a position no table
 * holds (*end says which); 0, or -1 with err on a bad table. */
int cli_tb_walk(const game *g, tb_set *t, game_state s, int max_plies, cli_ply_fn on_ply, void *ctx,
                cli_line_end *end, char *err, size_t errlen);

/* A file a command reads or writes, named by its option. */
typedef struct {
    const char *what;   /* "--proof", "the game file" */
    const char *path;   /* NULL: not given */
    int output;
} cli_file;
/* Refuses (EXIT_USAGE, said as "CMD: WHAT and WHAT name one file") an
 * output that is one of the command's inputs or another of its outputs;
 * 0 when all are distinct. */
int cli_distinct_files(const char *cmd, const cli_file *files, int n);
/* The exit code of an input that could not be opened: 1 (a failure) when
 * there is no such file or it cannot be read, EXIT_USAGE when it is no
 * file at all (a directory, a FIFO: the wrong kind of argument). */
int cli_input_status(const char *path);
/* The file a game spec reads ("graph:FILE"), else NULL. */
const char *cli_game_file(const char *spec);

/* mkdir -p: 0 when dir is (now) a directory, or -1 with errno. */
int cli_make_dir(const char *dir);

/* Prints s as a JSON string (quoted, escaped). */
void cli_json_string(FILE *out, const char *s);
/* progress.c: a long command's progress: a line redrawn on a terminal (the
 * default), or every `every` seconds a timestamped line (--progress
 * SECONDS) or JSON object (--progress-json) on stderr, whatever it is. */
typedef struct {
    double every;         /* 0: the terminal's redrawn line alone */
    int json, tty;
    double last;
    const char *command;
    int rank, ranks;      /* under mpirun or srun: this rank of so many (ranks 1: alone) */
} cli_progress;
enum { CLI_OPT_PROGRESS = 900, CLI_OPT_PROGRESS_JSON };
#define CLI_PROGRESS_OPTIONS { "progress", required_argument, NULL, CLI_OPT_PROGRESS }, \
                             { "progress-json", no_argument, NULL, CLI_OPT_PROGRESS_JSON }
#define CLI_PROGRESS_HELP "  --progress SECONDS        a timestamped progress line every SECONDS on stderr,\n" \
                          "                            whatever stderr is (default: on a terminal alone)\n" \
                          "  --progress-json           the same lines as JSON objects (every 10 s unless given)\n"
/* After the options: whether stderr is a terminal decides the default;
 * under mpirun or srun, a timestamped line every 60 s from rank 0 alone,
 * tagged with its rank, whatever stderr is (a batch system's log). */
void cli_progress_setup(cli_progress *p, const char *command);
/* An option of CLI_PROGRESS_OPTIONS into p: 0, -1 a bad value, 1 not one. */
int cli_progress_option(cli_progress *p, int opt, const char *arg);
/* Whether any progress is to be shown. */
int cli_progress_wanted(const cli_progress *p);
/* Shows text (one line, no newline) and, as JSON, the members given
 * (e.g. "\"nodes\": 12"); lines after a --progress one wait `every`. */
void cli_progress_say(cli_progress *p, const char *text, const char *json_members);
/* Clears the terminal's redrawn line. */
void cli_progress_end(cli_progress *p);
/* For work that reports nothing for minutes (a campaign waiting on its
 * workers): calls say(p, ctx) every p->every seconds from a thread of its
 * own until cli_ticker_stop (nothing when p->every is 0: a terminal's
 * redrawn line would cut into what the command prints).  NULL: none. */
typedef struct cli_ticker cli_ticker;
cli_ticker *cli_ticker_start(cli_progress *p, void (*say)(cli_progress *p, void *ctx), void *ctx);
/* Stops the ticker and frees it (NULL: nothing). */
void cli_ticker_stop(cli_ticker *t);

/* For an output named "-" (a picture to standard output): sends what the
 * command prints meanwhile to standard error, and returns the descriptor
 * to give back with cli_stdout_back just before the picture is written
 * (-1, nothing done, for any other name). */
int cli_stdout_aside(const char *name);
void cli_stdout_back(int saved);


int cmd_perft(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_bdd(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_tb(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify_proof(int argc, char **argv);
int cmd_join_proofs(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_plot(int argc, char **argv);
/* A trace, as `plot` reads it: its header line, then one line of the root's
 * numbers each progress call (written by `prove --trace` and campaigns). */
void cli_trace_header(FILE *f);
void cli_trace_line(FILE *f, const pns_progress *pr);
int cmd_puzzles(int argc, char **argv);
int cmd_solve_puzzle(int argc, char **argv);

#endif
