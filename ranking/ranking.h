/* ranking/ranking.h - perfect ranks of piece placements, for the tables:
 * Lehmer codes of Jungle Checkers positions (thesis chapter 5) with the
 * mirror and colour-swap reductions (rank_*), and Ostle's combinatorial
 * ranks of two colour sets and a hole (rank_ostle_*, below).
 *
 * Jungle.
 * Locations: the 47 squares that are not dens, numbered column by column from
 * a7 (0) down to a1 (6), then b7 (7) ... g1 (46) (docs/rules.md).  Pieces are
 * numbered R r D d T t E e (0..7): colour = p & 1 (0 White), strength = p >> 1.
 * A material is a bit set of pieces.  Each table covers one canonical
 * material: the stronger side White (colour swap), and when both sides are
 * equal only White to move.  An index is side * positions + the mixed-radix
 * Lehmer code, whose first digit (the first piece) has radix 26 (files a-d,
 * the mirror reduction) and digit p >= 1 radix 47 - p.
 */
#ifndef PNSOLVE_RANKING_H
#define PNSOLVE_RANKING_H

#include <stddef.h>
#include <stdint.h>

#define RANK_LOCATIONS 47
#define RANK_HALF_LOCATIONS 26   /* files a-d */
#define RANK_MAX_PIECES 8
#define RANK_ABSENT 0xFF

typedef unsigned rank_material;  /* bit p set: piece p is on the board */

typedef struct {
    int n;                       /* pieces on the board */
    int side;                    /* 0 White to move, 1 Black */
    uint8_t piece[RANK_MAX_PIECES];  /* ascending */
    uint8_t loc[RANK_MAX_PIECES];    /* location of each piece */
} rank_position;

/* Location of board square (rank-1)*7 + file, or -1 for a den. */
int rank_location(int square);
/* Board square of a location 0..46. */
int rank_square(int loc);

/* The material with colours swapped. */
rank_material rank_material_swap(rank_material m);
/* The representative of {m, swap(m)} that has a table. */
rank_material rank_material_canonical(rank_material m);
/* 1 if swapping colours gives the same material (e.g. RrDd). */
int rank_material_symmetric(rank_material m);
/* Writes the name in docs/rules.md order, e.g. "RrDTe"; buf needs 9 bytes. */
void rank_material_name(rank_material m, char *buf);
/* Reads a name such as "RrDTe"; returns -1 if it is not one. */
int rank_material_parse(const char *name, rank_material *m);
/* Canonical materials with 2..max_pieces pieces and both colours present,
 * fewer pieces first (a valid build order); returns the count. */
int rank_materials(int max_pieces, rank_material *out, int cap);
/* Canonical materials one capture away from m (that still have both colours);
 * returns the count (at most 8). */
int rank_material_deps(rank_material m, rank_material *out);

/* Number of entries of the table of a canonical material. */
uint64_t rank_size(rank_material m);

/* Maps p to the representative of its symmetry class: colour swap when the
 * material is not canonical (or is symmetric with Black to move), then the
 * mirror that puts the first piece off file d onto files a-c. */
void rank_canonicalize(rank_position *p);
/* The index of a canonical position in the table of its material; O(n). */
uint64_t rank_index(const rank_position *p);
/* The table index of any position given as the board square ((rank-1)*7 +
 * file) of each piece R r D d T t E e, RANK_ABSENT if off the board, and
 * the side to move: canonicalize + rank_index in one table-driven pass (the
 * retrograde builder calls it for every child and predecessor). */
uint64_t rank_index_squares(const uint8_t square[8], int side);
/* The position of an index of material m's table (inverse of rank_index for
 * canonical positions; non-canonical twins on file d unrank too). */
void rank_unindex(rank_material m, uint64_t index, rank_position *p);
/* The material of a position. */
rank_material rank_material_of(const rank_position *p);

/* Incremental ranking of positions that differ from one position by a
 * single piece (the un-moves of the retrograde builder): the Lehmer digits
 * of the base are kept, and a moved piece changes its own digit and shifts
 * later ones by one; falls back to the full path when the mirror decision
 * changes, or the colour swap does (but a material that is its own colour
 * swap keeps its base swapped too, so that its positions with Black to
 * move, which the table holds swapped, rank incrementally as well). */
typedef struct {
    rank_position p;
    uint64_t code;                 /* its Lehmer code, without the side */
    uint8_t digit[RANK_MAX_PIECES];
    uint64_t before[RANK_MAX_PIECES];  /* locations of pieces 0..i-1 */
    uint64_t occ;                  /* locations of all pieces */
    /* the mirror rule's facts: the first piece off file d (n: none), and
     * whether it, and the next one off file d, stand on files e-g */
    uint8_t first, first_right, second_right;
} rank_lehmer;
typedef struct {
    rank_lehmer base;              /* the base position */
    uint8_t plain[2];              /* per side to move: incremental path usable */
    uint8_t swapped;               /* sw holds the base colour-swapped (piece i is sw's i ^ 1), */
    rank_lehmer sw[2];             /* as it is and mirrored */
} rank_mover;
/* Prepares the base position p (pieces ascending). */
void rank_mover_init(rank_mover *mv, const rank_position *p);
/* Prepares the base position of index of material m's table, as
 * rank_unindex gives it, from the index's own digits (no recount). */
void rank_mover_unindex(rank_mover *mv, rank_material m, uint64_t index);
/* The index of the base with piece number i (0..n-1) on location loc and
 * side to move side; equals rank_index of its canonical form.  Adds 1 to
 * *folded when a symmetry other than the colour swap of a whole side had
 * to be applied: only such indices can coincide for two different
 * placements with the same side to move. */
uint64_t rank_mover_index(const rank_mover *mv, int i, int loc, int side, int *folded);
/* rank_mover_index of piece i on each of the k locations loc[], into out
 * (one call a piece: what the ranks share is worked out once); returns the
 * number of them that *folded would count. */
int rank_mover_indices(const rank_mover *mv, int i, const uint8_t *loc, int k, int side, uint64_t *out);

/* Enumeration in index order by the increment of thesis listing 5. */
typedef struct {
    rank_position pos;
    uint8_t digit[RANK_MAX_PIECES];
    uint8_t changed;   /* bit i: piece i's location changed in the last step (0xFF: maybe any, or the side) */
    uint64_t index, end;
} rank_iter;
/* Starts at index first of material m; iteration stops before index end. */
void rank_iter_start(rank_iter *it, rank_material m, uint64_t first, uint64_t end);
/* Advances to the next index; returns 0 when it reaches end. */
int rank_iter_next(rank_iter *it);

/* --- Ostle (docs/rules.md 2, boards of 3..5 x 3..5) ------------------------------
 * Positions without colour or forbidden move: the hole square, the set of
 * the side to move's pieces and the set of the other's (bit = square
 * (rank-1)*W + file).  One table per material (m, o), of size classes *
 * C(N, m) * C(N-m, o), N = W*H - 1; the board's symmetries (8 on square
 * boards, else 4) are reduced through the hole square, whose orbits are the
 * classes (6 on 5x5).  Mapping is by binomial (colex) ranks: O(pieces). */
typedef struct {
    int w, h, cells, nsym, nclass;
    uint8_t map[8][25];   /* square -> its image under symmetry k */
    int8_t cls[25];       /* the hole's class of each square */
    uint8_t rep[25];      /* each class's least square */
    uint32_t image[8][4][256];  /* image under symmetry k of the squares of byte b of a set */
} rank_ostle;

/* The image of a set of squares under symmetry k, a byte at a time. */
static inline uint32_t rank_ostle_image(const rank_ostle *r, int k, uint32_t set)
{
    return r->image[k][0][set & 0xFF] | r->image[k][1][set >> 8 & 0xFF] | r->image[k][2][set >> 16 & 0xFF] |
           r->image[k][3][set >> 24 & 0xFF];
}

/* Prepares the index of a W x H board; -1 for a size outside 3..5. */
int rank_ostle_init(rank_ostle *r, int w, int h);
/* Entries of material (mover pieces, other pieces). */
uint64_t rank_ostle_size(const rank_ostle *r, int mover, int other);
/* The index of a position: the least over the symmetries that put the hole
 * on its class's least square. */
uint64_t rank_ostle_index(const rank_ostle *r, unsigned hole, uint32_t mover, uint32_t other);
/* The same, with the indexed placement in c (hole, mover's set, other's set)
 * and in *syms a bit per symmetry that maps the position onto it. */
uint64_t rank_ostle_canonical(const rank_ostle *r, unsigned hole, uint32_t mover, uint32_t other, uint32_t c[3],
                              unsigned *syms);
/* The position of an index of material (mover, other), hole on its class's
 * least square (a twin when rank_ostle_index of it is smaller). */
void rank_ostle_unindex(const rank_ostle *r, int mover, int other, uint64_t index, unsigned *hole, uint32_t *mover_set,
                        uint32_t *other_set);

#endif
