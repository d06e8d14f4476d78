/* campaign/pool.c - a campaign's workers as threads of one process: one
 * slot each, a question in, an answer out, all under one lock. */
#include "campaign.h"

#include <pthread.h>
#include <stdlib.h>

enum { IDLE, BUSY, DONE, QUIT };

typedef struct {
    campaign_pool *p;
    int id, state, tag;
    campaign_question q;
    campaign_answer a;
    pthread_t t;
} slot;

struct campaign_pool {
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    campaign_answer_fn fn;
    void *ctx;
    int n, started;
    slot *s;
};

static void *worker(void *arg)
{
    slot *w = arg;
    campaign_pool *p = w->p;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (w->state != BUSY && w->state != QUIT)
            pthread_cond_wait(&p->work, &p->lock);
        if (w->state == QUIT)
            break;
        pthread_mutex_unlock(&p->lock);
        campaign_answer a = { 0 };
        p->fn(p->ctx, w->id, &w->q, &a);
        pthread_mutex_lock(&p->lock);
        if (w->state == QUIT)  /* the pool ended meanwhile: nobody waits for the answer */
            break;
        w->a = a;
        w->state = DONE;
        pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int pool_start(void *ctx, int tag, const campaign_question *q)
{
    campaign_pool *p = ctx;
    pthread_mutex_lock(&p->lock);
    int i;
    for (i = 0; i < p->n && p->s[i].state != IDLE; i++)
        ;
    if (i < p->n) {
        p->s[i].q = *q, p->s[i].tag = tag, p->s[i].state = BUSY;
        pthread_cond_broadcast(&p->work);
    }
    pthread_mutex_unlock(&p->lock);
    return i < p->n ? 0 : -1;
}

static int pool_wait(void *ctx, int *tag, campaign_answer *a)
{
    campaign_pool *p = ctx;
    int rc = -1;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        int busy = 0;
        for (int i = 0; i < p->n && rc < 0; i++) {
            busy |= p->s[i].state == BUSY;
            if (p->s[i].state == DONE) {
                *tag = p->s[i].tag, *a = p->s[i].a;
                p->s[i].state = IDLE;
                rc = 0;
            }
        }
        if (rc == 0 || !busy)
            break;
        pthread_cond_wait(&p->done, &p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

campaign_pool *campaign_pool_new(int n, campaign_answer_fn fn, void *ctx)
{
    campaign_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->s = calloc((size_t)n, sizeof *p->s)))
        return free(p), NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->fn = fn, p->ctx = ctx, p->n = n;
    for (; p->started < n; p->started++) {
        slot *w = &p->s[p->started];
        w->p = p, w->id = p->started, w->state = IDLE;
        if (pthread_create(&w->t, NULL, worker, w) != 0)
            break;
    }
    if (p->started < n)
        return campaign_pool_free(p), NULL;
    return p;
}

campaign_workers campaign_pool_workers(campaign_pool *p)
{
    return (campaign_workers){ p->n, pool_start, pool_wait, p };
}

void campaign_pool_free(campaign_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->started; i++)
        p->s[i].state = QUIT;  /* a busy one quits after its question */
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->s[i].t, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p->s);
    free(p);
}
