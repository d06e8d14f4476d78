/* cli/tb_mpi.c - the one file of the table builder that calls MPI: the two
 * collective calls of tb_ranks (tablebase.h) over MPI_COMM_WORLD, and what
 * the ranks report at the end (bytes sent between them, peak memory). */
#include "cli.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct {
    int size;
    int *count, *displ, *rcount, *rdispl;
    uint64_t sent;  /* words sent to other ranks */
} mpi_ranks;

static int mpi_alltoall(void *ctx, const uint64_t *send, const uint64_t *at, uint64_t **recv, uint64_t *cap,
                        uint64_t *from)
{
    mpi_ranks *m = ctx;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int p = 0; p < m->size; p++) {
        if (at[p + 1] > INT_MAX)
            return -1;  /* a round of the builder is a few MB: never */
        m->count[p] = (int)(at[p + 1] - at[p]);
        m->displ[p] = (int)at[p];
        if (p != rank)
            m->sent += at[p + 1] - at[p];
    }
    if (MPI_Alltoall(m->count, 1, MPI_INT, m->rcount, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
        return -1;
    uint64_t total = 0;
    for (int p = 0; p < m->size; p++) {
        from[p] = total;
        m->rdispl[p] = (int)total;
        total += (uint64_t)m->rcount[p];
        if (total > INT_MAX)
            return -1;
    }
    from[m->size] = total;
    if (total > *cap || !*recv) {
        uint64_t *grown = realloc(*recv, (total ? total : 1) * sizeof *grown);
        if (!grown)
            return -1;
        *recv = grown, *cap = total;
    }
    return MPI_Alltoallv(send, m->count, m->displ, MPI_UINT64_T, *recv, m->rcount, m->rdispl, MPI_UINT64_T,
                         MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

static int mpi_allreduce(void *ctx, uint64_t *v, int n, tb_reduce_op op)
{
    (void)ctx;
    MPI_Op o = op == TB_SUM ? MPI_SUM : op == TB_MAX ? MPI_MAX : MPI_MIN;
    return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, o, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int tb_mpi_build(const game *g, const char *dir, int pieces, tb_build_options *bo, char *err, size_t errlen,
                 int *rank_out)
{
    int provided, rank, size;
    /* Calls come from one thread at a time, not always the first. */
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS ||
        provided < MPI_THREAD_SERIALIZED)
        return snprintf(err, errlen, "MPI did not start (or not for threads)"), -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *rank_out = rank;
    mpi_ranks m = { size, calloc((size_t)size, sizeof(int)), calloc((size_t)size, sizeof(int)),
                    calloc((size_t)size, sizeof(int)), calloc((size_t)size, sizeof(int)), 0 };
    tb_ranks r = { rank, size, &m, mpi_alltoall, mpi_allreduce };
    int rc;
    if (!m.count || !m.displ || !m.rcount || !m.rdispl) {
        rc = -1;
        snprintf(err, errlen, "rank %d: out of memory", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    } else {
        bo->ranks = &r;
        if (rank != 0)
            bo->log = NULL, bo->progress = NULL;
        double t = MPI_Wtime();
        rc = tb_build(g, dir, pieces, bo, err, errlen);
        /* what crossed between the ranks and the most any rank held */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        uint64_t v[3] = { m.sent * 8, (uint64_t)ru.ru_maxrss, (uint64_t)ru.ru_maxrss }, sum[1], most[1], least[1];
        MPI_Reduce(&v[0], sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&v[1], most, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&v[2], least, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
        if (rank == 0 && bo->log && rc == 0)
            fprintf(bo->log, "%d ranks: %.1f s, %.1f MB sent between ranks, peak memory per rank %.1f to %.1f MB\n",
                    size, MPI_Wtime() - t, (double)sum[0] / 1e6, (double)least[0] / 1024, (double)most[0] / 1024);
    }
    free(m.count), free(m.displ), free(m.rcount), free(m.rdispl);
    MPI_Finalize();
    return rc;
}
