/* cli/serve_jobs.c - the server's searches: POST /api/v1/prove queues a
 * job, GET /api/v1/jobs/ID gives its progress and result, DELETE cancels
 * it.  One searcher thread runs the jobs in order, each through the
 * public API (pnsolve_prove) under the server's caps; the queue is
 * bounded (503 past it) and the last JOBS_KEPT jobs are remembered. */
#include "serve.h"
#include "../api/pnsolve.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define JOBS_KEPT 64

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_CANCELLED } job_state;
static const char *const state_word[] = { "queued", "running", "done", "cancelled" };

typedef struct {
    unsigned id;
    job_state state;
    char spec[PATH_MAX + 16];     /* as opened: a graph's file resolved */
    char game[256], position[PNSOLVE_TEXT_MAX];
    pnsolve_options o;
    volatile int cancel;
    pnsolve_progress seen;        /* the last progress */
    pnsolve_result r;
    char error[600];
} job;

struct serve_jobs {
    serve_ctx *c;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job *kept[JOBS_KEPT];         /* oldest first */
    int n, queue_max, quit;
    unsigned next_id;
    pthread_t searcher;
    int started;
};

static const char *const questions[] = { "win", "advantage", "value", "score" };

static void on_progress(const pnsolve_progress *p, void *ctx)
{
    serve_jobs *J = ((void **)ctx)[0];
    job *j = ((void **)ctx)[1];
    pthread_mutex_lock(&J->lock);
    j->seen = *p;
    pthread_mutex_unlock(&J->lock);
}

static void run(serve_jobs *J, job *j)
{
    pnsolve_result r;
    char err[600] = "";
    void *ctx[2] = { J, j };
    pnsolve_options o = j->o;
    o.progress = on_progress, o.ctx = ctx, o.progress_seconds = 0.5, o.cancel = &j->cancel;
    o.tb_dir = J->c->tb_dir;
    pnsolve_game *h = pnsolve_game_open(j->spec, NULL, err, sizeof err);
    pnsolve_status rc = h ? pnsolve_prove(h, j->position[0] ? j->position : NULL, &o, &r, err, sizeof err)
                          : PNSOLVE_EINVAL;
    pnsolve_game_close(h);
    pthread_mutex_lock(&J->lock);
    if (rc == PNSOLVE_OK)
        j->r = r;
    else
        snprintf(j->error, sizeof j->error, "%s", err[0] ? err : "the search failed");
    j->state = j->cancel ? JOB_CANCELLED : JOB_DONE;
    pthread_mutex_unlock(&J->lock);
}

static void *searcher(void *arg)
{
    serve_jobs *J = arg;
    pthread_mutex_lock(&J->lock);
    for (;;) {
        job *next = NULL;
        for (int i = 0; i < J->n && !next; i++)
            if (J->kept[i]->state == JOB_QUEUED)
                next = J->kept[i];
        if (J->quit)
            break;
        if (!next) {
            pthread_cond_wait(&J->wake, &J->lock);
            continue;
        }
        next->state = JOB_RUNNING;
        pthread_mutex_unlock(&J->lock);
        run(J, next);
        pthread_mutex_lock(&J->lock);
    }
    pthread_mutex_unlock(&J->lock);
    return NULL;
}

serve_jobs *serve_jobs_new(serve_ctx *c, int queue, int searchers)
{
    (void)searchers;  /* one at a time: a search takes the machine's memory cap */
    serve_jobs *J = calloc(1, sizeof *J);
    if (!J)
        return NULL;
    J->c = c;
    J->queue_max = queue;
    J->next_id = 1;
    pthread_mutex_init(&J->lock, NULL);
    pthread_cond_init(&J->wake, NULL);
    if (!c->read_only && pthread_create(&J->searcher, NULL, searcher, J) == 0)
        J->started = 1;
    return J;
}

void serve_jobs_free(serve_jobs *J)
{
    if (!J)
        return;
    pthread_mutex_lock(&J->lock);
    J->quit = 1;
    for (int i = 0; i < J->n; i++)
        __atomic_store_n(&J->kept[i]->cancel, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&J->wake);
    pthread_mutex_unlock(&J->lock);
    if (J->started)
        pthread_join(J->searcher, NULL);
    for (int i = 0; i < J->n; i++)
        free(J->kept[i]);
    pthread_mutex_destroy(&J->lock);
    pthread_cond_destroy(&J->wake);
    free(J);
}

/* Room for one more job: the oldest finished one forgotten; 0, or -1 when
 * every kept job is still queued or running. */
static int make_room(serve_jobs *J)
{
    if (J->n < JOBS_KEPT)
        return 0;
    for (int i = 0; i < J->n; i++)
        if (J->kept[i]->state == JOB_DONE || J->kept[i]->state == JOB_CANCELLED) {
            free(J->kept[i]);
            memmove(&J->kept[i], &J->kept[i + 1], sizeof J->kept[0] * (size_t)(J->n - i - 1));
            J->n--;
            return 0;
        }
    return -1;
}

/* A number member of the body within [lo, cap]: 0 (absent: *out kept), -1 bad. */
static int number(json_t *body, const char *name, double lo, double cap, double *out)
{
    json_t *v = json_object_get(body, name);
    if (!v)
        return 0;
    if (!json_is_number(v) || json_number_value(v) < lo || json_number_value(v) > cap)
        return -1;
    *out = json_number_value(v);
    return 0;
}

void serve_jobs_post(serve_jobs *J, const char *text, size_t len, serve_reply *r)
{
    json_error_t je;
    json_t *body = json_loadb(text, len, 0, &je);
    if (!body || !json_is_object(body)) {
        json_decref(body);
        return serve_error(r, 400, "body: not a JSON object (%s)", je.text);
    }
    job *j = calloc(1, sizeof *j);
    const char *game = json_string_value(json_object_get(body, "game"));
    const char *pos = json_string_value(json_object_get(body, "position"));
    const char *q = json_string_value(json_object_get(body, "question"));
    json_t *posv = json_object_get(body, "position");
    char err[1600];
    serve_game *sg = game ? serve_game_get(J->c, game, err, sizeof err) : NULL;
    const serve_caps *caps = &J->c->caps;
    double seconds = caps->seconds, nodes = caps->nodes ? (double)caps->nodes : 0;
    int question = -1;
    for (int i = 0; q && i < 4; i++)
        if (strcmp(q, questions[i]) == 0)
            question = i;
    if (!j)
        serve_error(r, 500, "out of memory");
    else if (!game)
        serve_error(r, 400, "game: missing");
    else if (!sg)
        serve_error(r, 400, "%s", err);
    else if (posv && (!pos || strlen(pos) >= sizeof j->position))
        serve_error(r, 400, "position: not a position");
    else if (question < 0)
        serve_error(r, 400, "question: one of win, advantage, value, score");
    else if (number(body, "seconds", 0.01, caps->seconds, &seconds) != 0)
        serve_error(r, 400, "seconds: a number up to the server's cap, %g", caps->seconds);
    else if (number(body, "nodes", 1, caps->nodes ? (double)caps->nodes : 1e18, &nodes) != 0)
        serve_error(r, 400, "nodes: a number up to the server's cap");
    else {
        game_state s;
        if (pos && game_parse(sg->g, pos, &s, err, sizeof err) != 0) {
            serve_error(r, 400, "position: %s", err);
        } else {
            snprintf(j->game, sizeof j->game, "%s", game);
            snprintf(j->spec, sizeof j->spec, "%s", strncmp(game, "graph:", 6) == 0 ? "graph:" : game);
            if (strncmp(game, "graph:", 6) == 0)  /* the file as serve_game_get found it */
                serve_confined(J->c->proofs, game + 6, j->spec + 6, sizeof j->spec - 6, err, sizeof err);
            if (pos)
                game_format(sg->g, &s, j->position, sizeof j->position);
            pnsolve_options_default(&j->o);
            j->o.question = (pnsolve_question)question;
            j->o.max_seconds = seconds;
            j->o.max_nodes = (uint64_t)nodes;
            j->o.memory_mb = caps->memory_mb;
            j->o.threads = caps->threads;
            pthread_mutex_lock(&J->lock);
            int queued = 0;
            for (int i = 0; i < J->n; i++)
                queued += J->kept[i]->state == JOB_QUEUED;
            if (queued >= J->queue_max || make_room(J) != 0) {
                pthread_mutex_unlock(&J->lock);
                serve_error(r, 503, "the queue is full (%d searches wait): try again later", queued);
            } else {
                j->id = J->next_id++;
                J->kept[J->n++] = j;
                unsigned id = j->id;
                j = NULL;
                pthread_cond_signal(&J->wake);
                pthread_mutex_unlock(&J->lock);
                char ids[16];
                snprintf(ids, sizeof ids, "%u", id);
                serve_json(r, 202, json_pack("{ss ss}", "id", ids, "state", "queued"));
            }
        }
    }
    free(j);
    json_decref(body);
}

void serve_jobs_get(serve_jobs *J, const char *ids, int cancel, serve_reply *r)
{
    char *end;
    unsigned long id = strtoul(ids, &end, 10);
    if (!*ids || *end || id == 0)
        return serve_error(r, 400, "job: '%s' is not a job id", ids);
    pthread_mutex_lock(&J->lock);
    job *j = NULL;
    for (int i = 0; i < J->n && !j; i++)
        if (J->kept[i]->id == id)
            j = J->kept[i];
    if (!j) {
        pthread_mutex_unlock(&J->lock);
        return serve_error(r, 404, "job %lu: no such job (or forgotten)", id);
    }
    if (cancel && j->state == JOB_QUEUED)
        j->state = JOB_CANCELLED;
    else if (cancel && j->state == JOB_RUNNING)
        __atomic_store_n(&j->cancel, 1, __ATOMIC_RELAXED);
    json_t *o = json_pack("{ss ss ss ss ss}", "id", ids, "state", state_word[j->state], "game", j->game, "position",
                          j->position, "question", questions[j->o.question]);
    json_object_set_new(o, "progress", json_pack("{sI sf}", "nodes", (json_int_t)j->seen.nodes, "seconds",
                                                  j->seen.seconds));
    if (j->state == JOB_DONE && j->error[0]) {
        json_object_set_new(o, "error", json_string(j->error));
    } else if (j->state == JOB_DONE || (j->state == JOB_CANCELLED && j->r.seconds > 0)) {
        const pnsolve_result *res = &j->r;
        static const char *const answers[] = { "open", "proven", "disproven" };
        json_t *rr = json_pack("{ss sI sf}", "answer", answers[res->answer], "nodes", (json_int_t)res->nodes, "seconds",
                               res->seconds);
        if (res->answer == PNSOLVE_PROVEN && j->o.question == PNSOLVE_QUESTION_VALUE)
            json_object_set_new(rr, "value", json_string(res->value > 0 ? "win" : res->value < 0 ? "loss" : "draw"));
        if (res->answer == PNSOLVE_PROVEN && j->o.question == PNSOLVE_QUESTION_SCORE)
            json_object_set_new(rr, "score", json_integer(res->value));
        json_object_set_new(rr, "stopped_by", res->stopped_by ? json_string(res->stopped_by) : json_null());
        json_object_set_new(rr, "line", json_string(res->line));
        json_object_set_new(o, "result", rr);
    }
    pthread_mutex_unlock(&J->lock);
    serve_json(r, 200, o);
}
