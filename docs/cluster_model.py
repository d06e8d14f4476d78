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
decoded whole, as the builder keeps them today ("GB/node"), or probed
compressed ("compressed": not built yet; the init pass would then decode a
block per probe, at a cost not measured), plus a margin. Only the first two figures
were measured at scale here (a five-piece table, 2 cores); the rest is
arithmetic, and the seeds' figures are what they reported.
"""
import argparse

# Measured on this project's 2-core VM, 2026-12-01 (docs/tablebases.md):
RANK_EFFICIENCY = 0.97   # threaded wall / wall of 2 ranks of 1 thread on the same 2 cores (31.7 s / 32.8 s)
BYTES_CROSSING = 74.8    # bytes sent per position over the share (N-1)/N: 4 ranks sent 56.1 B a position (2 ranks: 47.7)
BYTES_PER_POSITION = 1.44  # the builder's memory per position of the table being built
MARGIN_GB = 2.0          # MPI, boxes, the process
COMPRESSED = 0.078       # bytes per position of a compressed table (RrDdTE: 664 MB for 8.55e9)

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
        print("%6s  %9s  %9s  %9s  %12s  %12s" % ("nodes", "compute", "network", "total", "GB/node", "compressed"))
        for n in (1, 2, 4, 8, 16, 32, 64):
            eff = 1.0 if n == 1 else RANK_EFFICIENCY
            compute = total / (rate * CORES * n * eff)
            crossing = (n - 1) / n
            network = total * BYTES_CROSSING * crossing / (n * args.bw * 1e9)
            share = largest * BYTES_PER_POSITION / n / 1e9 + MARGIN_GB
            mem, small = share + deps / 1e9, share + deps * COMPRESSED / 1e9
            fit = lambda gb: "%5.0f %-6s" % (gb, "fits" if gb <= NODE_GB else "no")
            print("%6d  %9s  %9s  %9s  %12s  %12s" % (n, hours(compute), hours(network), hours(compute + network),
                                                      fit(mem), fit(small)))


if __name__ == "__main__":
    main()
