/* pwrite/pwrite_testing.h - private: the hooks the tests set on one proof
 * writer (as SQLite's SQLITE_TEST hooks), through pns_options.solved_testing;
 * no program sets them, and none is process-global.  Tests include this
 * header. */
#ifndef PNSOLVE_PWRITE_TESTING_H
#define PNSOLVE_PWRITE_TESTING_H

#include "pwrite_int.h"

struct pwrite_testing {
    /* NULL, or called with each set the closed-set writer closes: the
     * tests check it against a naive greatest fixed point */
    void (*closed_observe)(const pwrite_closed_graph *g);
    /* nonzero: the closed-set writer keeps each position's state even where
     * the game gives the state of a key (the tests compare the two files) */
    int closed_keep_states;
};

#endif
