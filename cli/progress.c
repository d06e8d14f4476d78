/* cli/progress.c - how a long command reports progress: by default a line
 * redrawn in place when stderr is a terminal (nothing in a file or a
 * pipe); with --progress SECONDS a timestamped line every SECONDS on
 * stderr whatever it is, as a batch system's log keeps it; with
 * --progress-json the same as one JSON object a line. */
#include "cli.h"
#include "../util/util.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cli_progress_setup(cli_progress *p, const char *command)
{
    p->command = command;
    p->tty = p->every == 0 && !p->json && isatty(2);
    p->last = -1e300;
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

int cli_progress_wanted(const cli_progress *p) { return p->tty || p->every > 0; }

void cli_progress_say(cli_progress *p, const char *text, const char *json_members)
{
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
    if (p->json) {
        fprintf(stderr, "{\"time\": \"%s\", \"command\": \"%s\"%s%s}\n", stamp, p->command,
                json_members && *json_members ? ", " : "", json_members ? json_members : "");
    } else {
        while (*text == ' ')
            text++;
        fprintf(stderr, "%s %s: %s\n", stamp, p->command, text);
    }
    fflush(stderr);
}

void cli_progress_end(cli_progress *p)
{
    if (p->tty)
        fputs("\r\033[K", stderr);
}
