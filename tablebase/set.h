/* tablebase/set.h - private to tablebase/: an open set of tables. */
#ifndef PNSOLVE_TB_SET_H
#define PNSOLVE_TB_SET_H

#include "tablebase.h"
#include "../tbfile/tbfile.h"

#include <pthread.h>

typedef struct {
    int state;  /* 0 not tried, 1 loaded, 2 absent, 3 bad */
    tb_file f;
    char err[300];
    char hash[TB_HASH_HEX];  /* "" until asked for */
} slot;

struct tb_set {
    const game *g;
    tb_index *index;  /* the state indices its tables are read through */
    tb_layers *layers;  /* a game with layers: its scores, and no slots */
    char dir[4096];
    pthread_mutex_t lock;
    int resident;  /* compressed tables are decoded whole when loaded: 1 into memory, 2 through a shared file */
    int hash_files;  /* tb_hash keeps each hash in "<table file>.b2" */
    unsigned cache_log2;  /* its probing threads' caches of decoded blocks (tb_set_cache_size) */
    slot *slots[TB_MAX_MATERIALS];
};

/* The value an entry stands for. */
static inline tb_value tb_value_of(tb_entry e)
{
    return (tb_value){ .wdl = (tb_wdl)tb_entry_wdl(e), .distance = tb_entry_distance(e) };
}

/* A score as a value. */
static inline tb_value tb_value_scored(int score)
{
    return (tb_value){ .wdl = score > 0 ? TB_WIN : score < 0 ? TB_LOSS : TB_DRAW, .scored = 1, .score = score };
}

#endif
