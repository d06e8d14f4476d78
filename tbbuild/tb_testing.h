/* tbbuild/tb_testing.h - private: knobs the tests set on one call (as
 * SQLite's SQLITE_TEST hooks), through tb_build_options.testing and
 * tb_verify_watch.testing; no program sets them, and no call sets them for
 * another (none is process-global).  Tests include this header; the public
 * one names the struct alone. */
#ifndef PNSOLVE_TB_TESTING_H
#define PNSOLVE_TB_TESTING_H

#include <stdint.h>

struct tb_testing {
    int long_from;         /* <= 1: normal; else distances from this one on are kept out of
                              the one-byte cells, to test that path */
    int owner_block_log2;  /* 0: normal; else 6 and up: each owner of index ranges holds
                              blocks of 2^this entries, to test many owners on small tables */
    int stop_at_ply;       /* 0: normal; else a table that reaches this ply stops there at
                              once, as a killed build would, to test resuming */
    int stop_at;           /* build: 0 normal; else a stop is asked, as *stop would, inside */
    int stop_in_ply;       /* pass stop_at (RETRO_INIT, _WINS, _LOSSES of tbbuild/retro.h) of */
    uint64_t stop_blocks;  /* ply stop_in_ply once it has taken this many blocks, to test saves
                              made part way through a pass */
    uint64_t stop_after;   /* verify: 0 normal; else stop as *stop would once this many
                              entries of a table are checked, to test resuming */
};

#endif
