/* cli/campaign_mpi.c - the one file of the campaign that calls MPI: rank 0
 * runs the campaign, every other rank answers the questions it is sent.
 * A question and an answer are small fixed structs; the proofs stay files
 * in the campaign's directory, which every rank must reach at the same path
 * (a cluster's shared file system): a proof may be gigabytes (the 6x7
 * bounds: 276 MB and 902 MB joined), which a file system moves and keeps
 * better than messages to one rank's memory would. */
#include "cli.h"
#include "campaign_cli.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_QUESTION = 1, TAG_ANSWER, TAG_STOP };

typedef struct {
    int size, *busy, *tag;
} manager;

static int send_question(void *ctx, int tag, const campaign_question *q)
{
    manager *m = ctx;
    for (int r = 1; r < m->size; r++)
        if (!m->busy[r]) {
            m->busy[r] = 1, m->tag[r] = tag;
            return MPI_Send(q, (int)sizeof *q, MPI_BYTE, r, TAG_QUESTION, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
        }
    return -1;
}

static int receive_answer(void *ctx, int *tag, campaign_answer *a)
{
    manager *m = ctx;
    int busy = 0;
    for (int r = 1; r < m->size; r++)
        busy += m->busy[r];
    if (!busy)
        return -1;
    MPI_Status st;
    if (MPI_Recv(a, (int)sizeof *a, MPI_BYTE, MPI_ANY_SOURCE, TAG_ANSWER, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
        return -1;
    m->busy[st.MPI_SOURCE] = 0;
    *tag = m->tag[st.MPI_SOURCE];
    return 0;
}

static int run_manager(const char *dir, const campaign_spec *spec, int size, cli_progress *progress)
{
    int rc = 0;
    campaign *c = campaign_cli_open(dir, spec, &rc);
    manager m = { size, calloc((size_t)size, sizeof(int)), calloc((size_t)size, sizeof(int)) };
    if (c && m.busy && m.tag) {
        campaign_workers w = { size - 1, send_question, receive_answer, &m };
        rc = campaign_cli_drive(c, &w, progress);
    } else if (c) {
        rc = cli_fail(1, "campaign run: out of memory");
    }
    for (int r = 1; r < size; r++)  /* ends the idle ranks, and stops the busy ones' searches */
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
    campaign_close(c);
    free(m.busy), free(m.tag);
    return rc;
}

typedef struct {
    campaign_prover *pv;
    campaign_question q;
    campaign_answer a;
    int rank;
    volatile int done;
} job;

static void *answer_job(void *arg)
{
    job *j = arg;
    campaign_cli_answer(j->pv, j->rank, &j->q, &j->a);
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* A worker rank: each question searched on a thread of its own while this
 * one watches for the manager's stop (only this thread calls MPI). */
static int run_worker(campaign_prover *pv, int rank)
{
    for (;;) {
        job j = { .pv = pv, .rank = rank };
        MPI_Status st;
        MPI_Recv(&j.q, (int)sizeof j.q, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG != TAG_QUESTION)
            return 0;
        pthread_t t;
        if (pthread_create(&t, NULL, answer_job, &j) != 0)
            return cli_fail(1, "campaign run: rank %d cannot start a search thread", rank);
        int stopped = 0;
        while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) {
            int flag = 0;
            MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (flag && !stopped)
                stopped = 1, cli_stop = 1;  /* the search ends at its next look at the flag */
            nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
        }
        pthread_join(t, NULL);
        if (stopped)
            return 0;  /* the manager has ended: its stop is the message left */
        MPI_Send(&j.a, (int)sizeof j.a, MPI_BYTE, 0, TAG_ANSWER, MPI_COMM_WORLD);
    }
}

int campaign_mpi_run(const char *dir, const campaign_spec *spec, campaign_prover *pv)
{
    int provided, rank, size;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return cli_fail(1, "campaign run: MPI did not start");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = size < 2 ? cli_fail(1, "campaign run: one MPI rank: run it without mpirun")
             : rank == 0 ? run_manager(dir, spec, size, pv->progress)
                         : run_worker(pv, rank);
    MPI_Finalize();
    return rc;
}
