#!/usr/bin/env python3
"""docs/cluster_model.py - what a table build across MPI ranks would take on a
cluster of N nodes (16 cores, 64 GB each), from figures measured here
(docs/tablebases.md, "Across machines"), beside the seeds' own runs.

    python3 docs/cluster_model.py            # the table
    python3 docs/cluster_model.py --bw 1.25  # another network (GB/s per node)

The model: a table's positions are resolved at the builder's rate per core
(measured, one process, per game) times the cores, times the efficiency of ranks that
share a table (measured: ranks against threads on the same cores); every
update that crosses to another node costs its bytes at the node's share of
the network (rounds are synchronous: computing and sending add, they do not
overlap). Memory per node: the node's share of the largest table at the
builder's bytes per position, plus the smaller tables its captures read:
decoded whole ("decoded"), or probed compressed ("compressed": `tb build
--tb-cache MB`, the default under mpirun): their compressed files (mapped,
in the page cache) and each thread's cache of decoded blocks, as large as
the node has room for, plus a margin. A miss of that cache decodes a 32 KB
block; the misses a position costs follow from the share of the smaller
tables a thread's cache holds, on the curve measured here (a five-piece
table over its compressed four-piece tables), and lengthen the compute
time ("compute, compressed"). Measured here at a small scale (a five-piece
table, 2 cores); the rest is arithmetic, and the seeds' figures are what
they reported.
"""
import argparse

# Measured on this project's 2-core VM, 2026-12-01 (docs/tablebases.md):
RANK_EFFICIENCY = 0.97   # threaded wall / wall of 2 ranks of 1 thread on the same 2 cores (31.7 s / 32.8 s)
BYTES_CROSSING = 74.8    # bytes sent per position over the share (N-1)/N: 4 ranks sent 56.1 B a position (2 ranks: 47.7)
BYTES_PER_POSITION = 1.44  # the builder's memory per position of the table being built
MARGIN_GB = 2.0          # MPI, boxes, the process
COMPRESSED = 0.078       # bytes per position of a compressed table (RrDdTE: 664 MB for 8.55e9)

# Measured 2026-12-08 (docs/tablebases.md, "Smaller tables probed compressed"):
# DdTEe (203,654,880 positions) on 2 ranks of 1 thread over its compressed
# four-piece tables (16.6 MB decoded), each thread's cache 0.1 MB and 1 MB.
PROBES_PER_POSITION = 0.34   # probes of the smaller tables a position built (34,677,999 on a rank of 101.8 M)
DECODE_SECONDS = 14e-6       # CPU a miss costs (193.7 s for 14.3 M decodes at 0.1 MB; 15.7 s for 1.0 M at 1 MB)
MISS_CURVE = [(0.1 / 16.6, 0.2062), (1.0 / 16.6, 0.0144)]  # a thread's cache as a share of the tables read: miss rate
CACHE_MAX_GB = 4.0           # a thread's cache at most (past the measured points the curve is a guess)


def miss_rate(share):
    """The miss rate of a thread's cache holding `share` of the tables read:
    log-log through the measured points, no better than the best measured
    past them (a guess there), 1 where the cache holds nothing."""
    import math
    (s0, m0), (s1, m1) = MISS_CURVE
    if share <= 0:
        return 1.0
    slope = math.log(m1 / m0) / math.log(s1 / s0)
    m = m0 * (share / s0) ** slope
    return min(1.0, max(m, m1 if share > s1 else 0.0))

CORES, NODE_GB = 16, 64

# What each build is (sizes from the sources named).
BUILDS = [
    # name, positions (Ostle: states) of the tables built, of the largest one,
    # smaller tables read decoded (bytes), positions per core-second of one
    # process (measured), the seed's figure
    ("Jungle, the four seven-piece materials", 4 * 3.6e11, 3.6e11,
     7 * 8.55e9,  # up to seven six-piece tables a capture leads to, at most RrDdTE's 8.55e9 each, a byte each
     3.51e6,      # `tb build jungle --only RrDdT`: 203,654,880 positions in 58.0 CPU-s, 2026-12-01
     "thesis: 65 h on 16 threads"),
    ("Ostle 5x5, every table to ten pieces", 12.92e9, 7.44e9,
     4.76e9 * 2,  # the (4,5)+(5,4) states, two bytes each (distances past 127)
     0.36e6,      # the whole set from nothing: about 5 h on 2 cores (docs/history/ostle.md)
     "paper: 35 h on 36 threads"),
]


def hours(seconds):
    return "%.1f h" % (seconds / 3600) if seconds >= 3600 else "%.0f min" % (seconds / 60)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bw", type=float, default=12.5, help="network GB/s per node (default 12.5: 100 Gb/s InfiniBand)")
    args = ap.parse_args()
    print("nodes of %d cores and %d GB; network %.2f GB/s per node" % (CORES, NODE_GB, args.bw))
    for name, total, largest, deps, rate, seed in BUILDS:
        print()
        print("%s (%.3g positions, %.2f M per core-second; %s)" % (name, total, rate / 1e6, seed))
        print("%6s  %9s  %9s  %9s  %12s  %12s  %9s  %9s  %10s" % ("nodes", "compute", "network", "total", "decoded",
                                                                   "compressed", "cache/thr", "misses", "compute,c"))
        for n in (1, 2, 4, 8, 16, 32, 64):
            eff = 1.0 if n == 1 else RANK_EFFICIENCY
            compute = total / (rate * CORES * n * eff)
            crossing = (n - 1) / n
            network = total * BYTES_CROSSING * crossing / (n * args.bw * 1e9)
            share = largest * BYTES_PER_POSITION / n / 1e9 + MARGIN_GB
            mem = share + deps / 1e9
            files = deps * COMPRESSED / 1e9
            cache = min(CACHE_MAX_GB, max(0.0, (NODE_GB - share - files) / CORES))  # GB a thread
            miss = miss_rate(cache * 1e9 / deps)
            slower = 1 + PROBES_PER_POSITION * miss * DECODE_SECONDS * rate  # a position's CPU, misses included
            small = share + files + cache * CORES
            fit = lambda gb: "%5.0f %-6s" % (gb, "fits" if gb <= NODE_GB else "no")
            print("%6d  %9s  %9s  %9s  %12s  %12s  %8.2fG  %8.2f%%  %10s" % (
                n, hours(compute), hours(network), hours(compute + network), fit(mem), fit(small), cache, 100 * miss,
                hours(compute * slower + network)))

if __name__ == "__main__":
    main()
