/* cli/progress.c - how a long command reports progress: by default a line
 * redrawn in place when stderr is a terminal (nothing in a file or a
 * pipe); with --progress SECONDS a timestamped line every SECONDS on
 * stderr whatever it is, as a batch system's log keeps it; with
 * --progress-json the same as one JSON object a line.  Under mpirun or
 * srun the default is such a line every 60 s, from rank 0 alone and
 * tagged with it. */
#include "cli.h"
#include "../util/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cli_progress_setup(cli_progress *p, const char *command)
{
    p->command = command;
    p->last = -1e300;
    p->ranks = cli_mpi_size();
    p->rank = p->ranks > 1 ? cli_mpi_rank() : 0;
    if (p->ranks > 1 && p->every == 0)
        p->every = 60;  /* a batch system keeps stderr in a file: a line a minute */
    p->tty = p->ranks == 1 && p->every == 0 && !p->json && isatty(2);
}

int cli_progress_option(cli_progress *p, int opt, const char *arg)
{
    if (opt == CLI_OPT_PROGRESS)
        return cli_double(arg, 0.001, 1e7, &p->every) == 0 ? 0 : -1;
    if (opt == CLI_OPT_PROGRESS_JSON) {
        p->json = 1;
        if (p->every == 0)
            p->every = 10;  /* --progress-json alone: a line every 10 s */
        return 0;
    }
    return 1;
}

int cli_progress_wanted(const cli_progress *p) { return p->rank == 0 && (p->tty || p->every > 0); }

void cli_progress_say(cli_progress *p, const char *text, const char *json_members)
{
    if (p->rank != 0)
        return;  /* rank 0 speaks for the ranks */
    if (p->tty) {
        fprintf(stderr, "\r%s   ", text);
        fflush(stderr);
        return;
    }
    double now = util_clock();
    if (p->every <= 0 || now - p->last < p->every * 0.95)
        return;
    p->last = now;
    char stamp[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    char tag[48] = "";
    if (p->ranks > 1)
        snprintf(tag, sizeof tag, p->json ? ", \"rank\": %d, \"ranks\": %d" : "rank %d/%d ", p->rank, p->ranks);
    if (p->json) {
        fprintf(stderr, "{\"time\": \"%s\", \"command\": \"%s\"%s%s%s}\n", stamp, p->command, tag,
                json_members && *json_members ? ", " : "", json_members ? json_members : "");
    } else {
        while (*text == ' ')
            text++;
        fprintf(stderr, "%s %s%s: %s\n", stamp, tag, p->command, text);
    }
    fflush(stderr);
}

void cli_progress_end(cli_progress *p)
{
    if (p->tty)
        fputs("\r\033[K", stderr);
}

struct cli_ticker {
    cli_progress *p;
    void (*say)(cli_progress *p, void *ctx);
    void *ctx;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int quit;
};

static void *tick(void *arg)
{
    cli_ticker *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->quit) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double at = (double)until.tv_nsec * 1e-9 + t->p->every;
        until.tv_sec += (time_t)at;
        until.tv_nsec = (long)((at - (double)(time_t)at) * 1e9);
        int rc = 0;
        while (!t->quit && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&t->wake, &t->lock, &until);
        if (!t->quit)
            t->say(t->p, t->ctx);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

cli_ticker *cli_ticker_start(cli_progress *p, void (*say)(cli_progress *p, void *ctx), void *ctx)
{
    if (p->every <= 0 || p->rank != 0)
        return NULL;
    cli_ticker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    *t = (cli_ticker){ .p = p, .say = say, .ctx = ctx };
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    if (pthread_create(&t->thread, NULL, tick, t) != 0) {
        pthread_mutex_destroy(&t->lock);
        pthread_cond_destroy(&t->wake);
        free(t);
        return NULL;
    }
    return t;
}

void cli_ticker_stop(cli_ticker *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->quit = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->wake);
    free(t);
}
