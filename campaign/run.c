/* campaign/run.c - the campaign's bounds in turn, each asked through the
 * workers until the root decides it; opening, resuming and the state. */
#include "internal.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static campaign *campaign_new(const char *dir, char *err, size_t errlen)
{
    campaign *c = calloc(1, sizeof *c);
    if (!c)
        return snprintf(err, errlen, "out of memory"), NULL;
    if (strlen(dir) >= sizeof c->dir)
        return free(c), snprintf(err, errlen, "the directory's name is too long"), NULL;
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    c->lock = -1;
    return c;
}

static int open_game(campaign *c, char *err, size_t errlen)
{
    if (!(c->g = game_open(c->spec.game, c->spec.variant[0] ? c->spec.variant : NULL, err, errlen)))
        return -1;
    c->scores = c->spec.kind == CAMPAIGN_AT_LEAST || c->spec.kind == CAMPAIGN_SCORE;
    c->estimator = game_has_solver(c->g) ? game_solver_new(c->g, (size_t)1 << 20) : NULL;
    return 0;
}

/* One run at a time writes a campaign: two would ask and journal the same
 * questions (a killed mpirun's ranks may run on).  The lock goes with the
 * process, however it ends. */
static int take_lock(campaign *c, char *err, size_t errlen)
{
    char path[CAMPAIGN_PATH_MAX];
    snprintf(path, sizeof path, "%s/lock", c->dir);
    if ((c->lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0)
        return snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)), -1;
    if (flock(c->lock, LOCK_EX | LOCK_NB) != 0)
        return snprintf(err, errlen, "another run is writing this campaign (wait for it to end, or end it)"), -1;
    return 0;
}

/* Whether a file's name is a temporary's: NAME.tmp.PID (util_file) or
 * NAME.tmp (a root link being made). */
static int is_temporary(const char *name)
{
    const char *t = strstr(name, ".tmp");
    if (!t)
        return 0;
    t += 4;
    return *t == 0 || (*t == '.' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1));
}

/* Removes what killed runs left half-written: with the lock held, no
 * other run is writing them. */
static void sweep_temporaries(const campaign *c)
{
    const char *sub[] = { "", "/p", "/j", "/t" };
    for (int i = 0; i < 4; i++) {
        char path[CAMPAIGN_PATH_MAX + 300];
        snprintf(path, sizeof path, "%s%s", c->dir, sub[i]);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!is_temporary(e->d_name))
                continue;
            snprintf(path, sizeof path, "%s%s/%s", c->dir, sub[i], e->d_name);
            unlink(path);
        }
        if (d)
            closedir(d);
    }
}

campaign *campaign_open(const char *dir, const campaign_spec *spec, char *err, size_t errlen, int *usage)
{
    *usage = 0;
    char sub[CAMPAIGN_PATH_MAX + 8];
    campaign *c = campaign_new(dir, err, errlen);
    if (!c)
        return NULL;
    c->spec = *spec;
    for (int i = 0; i < 4; i++) {
        snprintf(sub, sizeof sub, i == 0 ? "%s" : i == 1 ? "%s/p" : i == 2 ? "%s/j" : "%s/t", dir);
        struct stat st;
        if (mkdir(sub, 0777) != 0 && (errno != EEXIST || stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))) {
            snprintf(err, errlen, "cannot make the directory %s: %s", sub, errno == EEXIST ? "not a directory" : strerror(errno));
            return campaign_close(c), NULL;
        }
    }
    int rc = take_lock(c, err, errlen);
    if (rc == 0)
        sweep_temporaries(c);
    if (rc == 0)
        rc = open_game(c, err, errlen);
    if (rc == 0)
        rc = campaign_journal_open(c, 1, err, errlen);
    if (rc != 0) {
        *usage = rc == -2;
        return campaign_close(c), NULL;
    }
    return c;
}

campaign *campaign_load(const char *dir, char *err, size_t errlen)
{
    campaign *c = campaign_new(dir, err, errlen);
    if (!c)
        return NULL;
    /* the game comes from the journal's header: read it first, then again with the game */
    char path[CAMPAIGN_PATH_MAX + 16], why[CAMPAIGN_PATH_MAX + 64], *line = NULL;
    size_t cap = 0;
    long no = 0;
    snprintf(path, sizeof path, "%s/journal", dir);
    FILE *f = util_open_input(path, 0, why, sizeof why);
    if (!f)
        return snprintf(err, errlen, "no campaign here: %s", why), campaign_close(c), NULL;
    while (util_read_line(f, &line, &cap, &no, why, sizeof why) >= 0 && no < 8) {
        if (strncmp(line, "game ", 5) == 0)
            snprintf(c->spec.game, sizeof c->spec.game, "%s", line + 5);
        else if (strncmp(line, "variant ", 8) == 0)
            snprintf(c->spec.variant, sizeof c->spec.variant, "%s", line + 8);
        else if (strncmp(line, "question score", 14) == 0)
            c->spec.kind = CAMPAIGN_AT_LEAST;
    }
    free(line);
    fclose(f);
    if (!c->spec.game[0])
        return snprintf(err, errlen, "its journal is damaged (no game line)"), campaign_close(c), NULL;
    c->read_only = 1;
    if (open_game(c, err, errlen) != 0 || campaign_journal_open(c, 0, err, errlen) != 0)
        return campaign_close(c), NULL;
    c->scores = c->spec.kind == CAMPAIGN_AT_LEAST || c->spec.kind == CAMPAIGN_SCORE;
    return c;
}

void campaign_close(campaign *c)
{
    if (!c)
        return;
    if (c->journal)
        fclose(c->journal);
    if (c->lock >= 0)
        close(c->lock);
    campaign_decide_free(c);
    campaign_tree_free(c);
    free(c->ask), free(c->flight);
    if (c->estimator)
        game_solver_free(c->g, c->estimator);
    game_close(c->g);
    free(c);
}

const campaign_spec *campaign_spec_of(const campaign *c) { return &c->spec; }
const game *campaign_game(const campaign *c) { return c->g; }
