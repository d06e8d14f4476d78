/* games/ostle_tb.c - Ostle's tables: a state index for the generic builder.
 *
 * Rule 8 makes a state's value depend on its forbidden move, so the tables
 * index states, not positions: per canonical position of ranking/'s index
 * (colour-free: mover's set, other's set, hole) first the state with nothing
 * forbidden, then one per move rule 8 can forbid there, in the order of
 * ostle_forbiddable.  An offset per position, made when a material is first
 * used (one pass over its positions), maps positions to states.  A material
 * is a pair of piece counts {a, b}, a <= b; with a < b its table holds both
 * orientations (the side to move with a pieces first, then with b), because
 * a move that removes nothing turns one into the other.  Of the images of a
 * state on a symmetric position the least slot is the entry, the others are
 * twins (the builder's contract).
 */
#include "ostle_impl.h"
#include "../ranking/ranking.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define MAT(a, b) ((a) * 8 + (b))

#define HINT_SHIFT 8
#define LINE 56  /* positions per index line */

/* A position's first state is its line's base plus the state counts before
 * it in the line: a 64-bit base and 56 one-byte counts make one cache line,
 * one miss to place a position (a separate base array made it two: 9% of
 * the nine-piece plies), 1.14 bytes per position (the nine-piece table's
 * index, 1.98 G positions and 4.7 G states, 2.3 GB where a 64-bit offset
 * each would take 16). */
typedef struct {
    uint64_t base;          /* the first state of the line's first position */
    uint8_t count[LINE];    /* states of each position index (0: not canonical) */
} index_line;
_Static_assert(sizeof(index_line) == 64, "an index line is a cache line");

typedef struct {
    index_line *line;  /* n_pos / LINE + 1 lines (the last padded with zero counts) */
    uint64_t n_pos;    /* positions in the table */
    uint64_t lines;
    uint64_t states;
    uint64_t split;    /* [0, split): the side to move has a pieces */
    /* The line of state h << HINT_SHIFT, for each h: unindexing searches a
     * few bases instead of all of them. */
    uint32_t *hint;
    uint64_t n_hint;
    void *map;       /* the index file the arrays lie in, or NULL: malloc'd */
    size_t map_len;
} mat_index;

/* The sum of the n state counts at c (a whole word at a time: each count is
 * below 256, so 16-bit lanes hold the pair sums). */
static uint64_t count_sum(const uint8_t *c, unsigned n)
{
    uint64_t sum = 0;
    unsigned at = 0;
    for (; at + 8 <= n; at += 8) {
        uint64_t x;
        memcpy(&x, c + at, 8);
        x = (x & 0x00FF00FF00FF00FFULL) + ((x >> 8) & 0x00FF00FF00FF00FFULL);
        sum += (x * 0x0001000100010001ULL) >> 48;
    }
    for (; at < n; at++)
        sum += c[at];
    return sum;
}

/* The states of position p. */
static unsigned count_of(const mat_index *mi, uint64_t p) { return mi->line[p / LINE].count[p % LINE]; }

/* The first state of position p. */
static uint64_t first_state(const mat_index *mi, uint64_t p)
{
    const index_line *l = &mi->line[p / LINE];
    return l->base + count_sum(l->count, (unsigned)(p % LINE));
}

struct ostle_tb {
    pthread_mutex_t lock;
    uint64_t serial;  /* distinct for every ostle_tb a process makes, from 1 */
    rank_ostle r;
    mat_index *m[64];
    /* Index files: "<file_prefix>-<a>+<b>.pnidx" for the materials of at
     * least file_min positions; file_prefix "" keeps none. */
    char file_prefix[4200];
    uint64_t file_min;
};

static void index_free(mat_index *mi)
{
    if (mi->map) {
        munmap(mi->map, mi->map_len);
    } else {
        free(mi->line);
        free(mi->hint);
    }
    free(mi);
}

struct ostle_tb *ostle_tb_new(int w, int h)
{
    struct ostle_tb *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    static uint64_t made;
    t->serial = __atomic_add_fetch(&made, 1, __ATOMIC_RELAXED);
    pthread_mutex_init(&t->lock, NULL);
    rank_ostle_init(&t->r, w, h);
    return t;
}

void ostle_tb_free(struct ostle_tb *t)
{
    if (!t)
        return;
    for (int i = 0; i < 64; i++)
        if (t->m[i])
            index_free(t->m[i]);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static int side_pieces(const ostle_geom *gm, int k) { return k > gm->lose_at && k <= gm->w; }

/* The board of position index i of material (a, b): side 0 to move. */
static void board_of(const struct ostle_tb *t, int a, int b, const mat_index *mi, uint64_t i, game_state *s)
{
    int mover = i < mi->split ? a : b, other = i < mi->split ? b : a;
    unsigned hole;
    uint32_t ms, os;
    rank_ostle_unindex(&t->r, mover, other, i < mi->split ? i : i - mi->split, &hole, &ms, &os);
    memset(s, 0, sizeof *s);
    s->w[0] = ms;
    s->w[1] = os;
    set_meta(s, hole, 0, NO_MOVE);
}

/* Is position index i, whose board is s, its own least index? */
static int canonical(const struct ostle_tb *t, const mat_index *mi, uint64_t i, const game_state *s)
{
    return rank_ostle_index(&t->r, hole_of(s), (uint32_t)s->w[0], (uint32_t)s->w[1]) == (i < mi->split ? i : i - mi->split);
}

/* What the index pass over one material needs. */
typedef struct {
    const game *g;
    mat_index *mi;
    int a, b;
} count_job;

/* The states of position index i: none for a twin position, else the one
 * with nothing forbidden and one per forbiddable move. */
static uint8_t states_at(const game *g, const mat_index *mi, int a, int b, uint64_t i)
{
    const struct ostle_tb *t = geom(g)->tb;
    game_state s;
    game_move f[GAME_MAX_MOVES];
    board_of(t, a, b, mi, i, &s);
    return canonical(t, mi, i, &s) ? (uint8_t)(1 + ostle_forbiddable(g, &s, f)) : 0;
}

/* States per position (0 for a twin position) over [lo, hi), into the
 * lines' counts: one slice of the index pass. */
static void count_states(void *arg, uint64_t lo, uint64_t hi)
{
    count_job *j = arg;
    for (uint64_t i = lo; i < hi; i++)
        j->mi->line[i / LINE].count[i % LINE] = states_at(j->g, j->mi, j->a, j->b, i);
}

/* The pass over every position of a material, on every core: every process
 * that opens a 5x5 table pays it (45 s for (4,4) on one core). */
static void count_all(const game *g, mat_index *mi, int a, int b)
{
    count_job job = { g, mi, a, b };
    game_parallel(mi->n_pos < 100000 ? 1 : 0, mi->n_pos, 0, count_states, &job);
}

/* The hints of mi, whose lines are set. */
static void index_hints(mat_index *mi)
{
    uint64_t h = 0;
    for (uint64_t k = 0; k < mi->lines; k++) {
        uint64_t next = k + 1 < mi->lines ? mi->line[k + 1].base : mi->states;
        while (h < mi->n_hint && (h << HINT_SHIFT) < next)
            mi->hint[h++] = (uint32_t)k;
    }
    while (h < mi->n_hint)
        mi->hint[h++] = (uint32_t)(mi->lines - 1);
}

/* Counts, line bases and hints of material (a, b) into mi, whose n_pos,
 * split and lines are set: 0, or -1 when out of memory (nothing kept). */
static int index_make(const game *g, mat_index *mi, int a, int b)
{
    uint64_t total = 0;
    mi->line = aligned_alloc(sizeof(index_line), mi->lines * sizeof(index_line));
    if (mi->line) {
        memset(mi->line, 0, mi->lines * sizeof(index_line));
        count_all(g, mi, a, b);
        for (uint64_t k = 0; k < mi->lines; k++) {
            mi->line[k].base = total;
            total += count_sum(mi->line[k].count, LINE);
        }
        mi->states = total;
        mi->n_hint = (total >> HINT_SHIFT) + 1;
        mi->hint = malloc(mi->n_hint * sizeof *mi->hint);
    }
    if (!mi->hint) {
        free(mi->line);
        mi->line = NULL;
        return -1;
    }
    index_hints(mi);
    return 0;
}

/* --- index files --------------------------------------------------------
 * The index pass costs every process that opens a large table minutes (the
 * nine-piece one: about 4 on two cores), so the index is kept beside the
 * tables and mapped: instant, and shared by the processes that use it.  A
 * file is trusted only if its header, its checksum and the recounted states
 * of a sample of its positions agree; else it is made again. */

#define INDEX_MAGIC "PNSOIDX1"
#define INDEX_VERSION 2  /* the state order and layout (2: lines); a file of another is made again */
#define INDEX_SAMPLE 4096

typedef struct {
    char magic[8];
    uint32_t version, w, h, a, b, block, hint_shift, reserved0;
    uint64_t n_pos, lines, states, n_hint;
    uint64_t data_sum;   /* XXH3 of the arrays that follow */
    uint64_t header_sum; /* XXH3 of this header with this field zero */
    char reserved[40];
} index_header;          /* 128 bytes, then the lines and the hints */
_Static_assert(sizeof(index_header) == 128, "index_header is 128 bytes on disk");

static void index_path(const struct ostle_tb *t, int a, int b, char *buf, size_t len)
{
    snprintf(buf, len, "%s-%d+%d.pnidx", t->file_prefix, a, b);
}

static uint64_t header_sum(index_header h)
{
    h.header_sum = 0;
    return XXH3_64bits(&h, sizeof h);
}

/* The header mi's file must have (sums and sizes after n_pos aside). */
static index_header header_of(const struct ostle_tb *t, const mat_index *mi, int a, int b)
{
    index_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, INDEX_MAGIC, 8);
    h.version = INDEX_VERSION;
    h.w = (uint32_t)t->r.w;
    h.h = (uint32_t)t->r.h;
    h.a = (uint32_t)a;
    h.b = (uint32_t)b;
    h.block = LINE;
    h.hint_shift = HINT_SHIFT;
    h.n_pos = mi->n_pos;
    h.lines = mi->lines;
    return h;
}

/* Maps mi's arrays from its index file: 1 if it is there and checks, else
 * 0 (mi as it was). */
static int index_read(const game *g, mat_index *mi, int a, int b)
{
    const struct ostle_tb *t = geom(g)->tb;
    char path[4300];
    index_path(t, a, b, path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t lines = mi->lines * sizeof(index_line);
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > sizeof(index_header) + lines)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    index_header h, want = header_of(t, mi, a, b);
    memcpy(&h, map, sizeof h);
    want.states = h.states;
    want.n_hint = h.n_hint;
    want.data_sum = h.data_sum;
    want.header_sum = h.header_sum;
    const unsigned char *data = (const unsigned char *)map + sizeof h;
    size_t len = (size_t)st.st_size - sizeof h;
    int ok = memcmp(&h, &want, sizeof h) == 0 && h.header_sum == header_sum(h) &&
             h.n_hint == (h.states >> HINT_SHIFT) + 1 && len == lines + h.n_hint * sizeof *mi->hint &&
             XXH3_64bits(data, len) == h.data_sum;
    mat_index m = *mi;
    m.line = (index_line *)data;  /* 64-aligned: the header is 128 bytes */
    m.hint = (uint32_t *)(data + lines);
    m.n_hint = h.n_hint;
    m.states = h.states;
    ok = ok && m.line[m.lines - 1].base + count_sum(m.line[m.lines - 1].count, LINE) == h.states;
    /* The checksum catches damage; a sample recounted catches a file made
     * by an older state order of the same size. */
    uint64_t step = m.n_pos > INDEX_SAMPLE ? m.n_pos / INDEX_SAMPLE : 1;
    for (uint64_t p = 0; ok && p < m.n_pos; p += step) {
        uint64_t q = p + (p * 0x9E3779B97F4A7C15ULL >> 40) % step;
        ok = q >= m.n_pos || count_of(&m, q) == states_at(g, &m, a, b, q);
    }
    if (!ok) {
        munmap(map, (size_t)st.st_size);
        return 0;
    }
    m.map = map;
    m.map_len = (size_t)st.st_size;
    *mi = m;
    return 1;
}

/* Writes mi's index file under a temporary name and renames it; where the
 * directory does not take it there is none, which costs only the pass. */
static void index_write(const game *g, const mat_index *mi, int a, int b)
{
    const struct ostle_tb *t = geom(g)->tb;
    char path[4300];
    index_path(t, a, b, path, sizeof path);
    game_file out;
    if (game_file_create(&out, path, "wb", NULL, 0) != 0)
        return;
    FILE *f = out.f;
    size_t lines = mi->lines * sizeof(index_line), hints = mi->n_hint * sizeof *mi->hint;
    index_header h = header_of(t, mi, a, b);
    h.states = mi->states;
    h.n_hint = mi->n_hint;
    XXH3_state_t sum;
    XXH3_INITSTATE(&sum);
    XXH3_64bits_reset(&sum);
    XXH3_64bits_update(&sum, mi->line, lines);
    XXH3_64bits_update(&sum, mi->hint, hints);
    h.data_sum = XXH3_64bits_digest(&sum);
    h.header_sum = header_sum(h);
    int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(mi->line, 1, lines, f) == lines &&
             fwrite(mi->hint, 1, hints, f) == hints;
    game_file_commit(&out, ok, NULL, 0);
}

static void ostle_index_files(const game *g, const char *prefix, uint64_t min_positions)
{
    struct ostle_tb *t = geom(g)->tb;
    pthread_mutex_lock(&t->lock);
    snprintf(t->file_prefix, sizeof t->file_prefix, "%s", prefix);
    t->file_min = min_positions;
    pthread_mutex_unlock(&t->lock);
}

/* The material's index, read from its file or made on first use; NULL if
 * it has no table or there is no memory for it. */
static const mat_index *index_of(const game *g, int mat)
{
    ostle_geom *gm = geom(g);
    struct ostle_tb *t = gm->tb;
    int a = mat / 8, b = mat % 8;
    if (mat < 0 || mat >= 64 || a > b || !side_pieces(gm, a) || !side_pieces(gm, b))
        return NULL;
    mat_index *mi = __atomic_load_n(&t->m[mat], __ATOMIC_ACQUIRE);
    if (mi)
        return mi;  /* every index and unindex asks: no lock once it exists */
    pthread_mutex_lock(&t->lock);
    mi = t->m[mat];
    if (!mi && (mi = calloc(1, sizeof *mi)) != NULL) {
        mi->split = rank_ostle_size(&t->r, a, b);
        mi->n_pos = mi->split + (a < b ? rank_ostle_size(&t->r, b, a) : 0);
        mi->lines = mi->n_pos / LINE + 1;
        int filed = t->file_prefix[0] && mi->n_pos >= t->file_min;
        if (filed && index_read(g, mi, a, b)) {
            /* mapped */
        } else if (index_make(g, mi, a, b) == 0) {
            if (filed)
                index_write(g, mi, a, b);
        } else {
            free(mi);
            mi = NULL;
        }
        if (mi)
            __atomic_store_n(&t->m[mat], mi, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&t->lock);
    return mi;
}

/* Image of move f (a square and a direction whose step stays on the board)
 * under symmetry k. */
static unsigned map_move(const ostle_geom *gm, const rank_ostle *r, int k, unsigned f)
{
    unsigned from = r->map[k][f >> 2], to = r->map[k][gm->step[f >> 2][f & 3]];
    for (unsigned d = 0; d < 4; d++)
        if (gm->step[from][d] == (int)to)
            return from * 4 + d;
    return NO_MOVE;
}

/* A position's place in its table: where its states start, its canonical
 * board and the symmetries that take the position onto it, and, made when
 * first needed, that board's forbiddable moves (the slots' order); once for
 * all the states of a position (the un-moves of a state name up to a dozen). */
typedef struct {
    const mat_index *mi;
    uint64_t pos;    /* the position's index in mi */
    uint64_t first;
    int states;  /* how many: the state with nothing forbidden, then one per slot */
    int n, nk;  /* n < 0: the rest not made yet (only a forbidden move needs it) */
    game_move list[GAME_MAX_MOVES];
    uint8_t k[8];
    game_state board;
} pos_ref;

/* Everything but where the states start, whose index lines are
 * prefetched: a caller with several positions to place finds all their
 * canonical boards while those lines arrive. */
static void locate_start(const game *g, const game_state *s, pos_ref *pr)
{
    const struct ostle_tb *t = geom(g)->tb;
    int side = side_of(s);
    uint32_t ms = (uint32_t)s->w[side], os = (uint32_t)s->w[!side], c[3];
    int a = __builtin_popcount(ms), b = __builtin_popcount(os);
    int lo = a < b ? a : b, hi = a < b ? b : a;
    const mat_index *mi = index_of(g, MAT(lo, hi));
    unsigned syms;
    uint64_t j = rank_ostle_canonical(&t->r, hole_of(s), ms, os, c, &syms);
    pr->mi = mi;
    pr->pos = a == lo ? j : mi->split + j;
    __builtin_prefetch(&mi->line[pr->pos / LINE]);
    pr->n = -1;
    pr->nk = 0;
    for (; syms; syms &= syms - 1)
        pr->k[pr->nk++] = (uint8_t)__builtin_ctz(syms);
    memset(&pr->board, 0, sizeof pr->board);
    pr->board.w[0] = c[1];
    pr->board.w[1] = c[2];
    set_meta(&pr->board, c[0], 0, NO_MOVE);
}

static void locate_finish(pos_ref *pr)
{
    pr->first = first_state(pr->mi, pr->pos);
    pr->states = (int)count_of(pr->mi, pr->pos);
}

static void locate(const game *g, const game_state *s, pos_ref *pr)
{
    locate_start(g, s, pr);
    locate_finish(pr);
}

/* The slots' order: the canonical board's forbiddable moves. */
static void locate_rest(const game *g, pos_ref *pr)
{
    pr->n = ostle_forbiddable(g, &pr->board, pr->list);
}

/* The entry of the position's state with move f (in the position's own
 * frame) forbidden: the least slot over its images. */
static uint64_t state_entry(const game *g, pos_ref *pr, unsigned f)
{
    if (f == NO_MOVE)
        return pr->first;
    if (pr->n < 0)
        locate_rest(g, pr);
    const ostle_geom *gm = geom(g);
    int best = pr->n;
    for (int q = 0; q < pr->nk; q++) {
        unsigned fk = map_move(gm, &gm->tb->r, pr->k[q], f);
        for (int x = 0; x < best; x++)
            if (pr->list[x] == fk)
                best = x;
    }
    return pr->first + 1 + (uint64_t)best;  /* best == n cannot happen for a reachable state */
}

static uint64_t ostle_index(const game *g, const game_state *s)
{
    pos_ref pr;
    locate(g, s, &pr);
    return state_entry(g, &pr, forbidden_of(s));
}

/* The position whose states hold state index, and its first state. */
static uint64_t position_of(const mat_index *mi, uint64_t index, uint64_t *first)
{
    uint64_t h = index >> HINT_SHIFT;
    uint64_t lo = mi->hint[h], hi = h + 1 < mi->n_hint ? (uint64_t)mi->hint[h + 1] + 1 : mi->lines;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (mi->line[mid].base <= index)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t p = lo * LINE, at = mi->line[lo].base;
    while (at + count_of(mi, p) <= index)
        at += count_of(mi, p++);
    *first = at;
    return p;
}

/* The last position a thread unindexed: the builder's frontiers come in
 * index order, and a position's states often resolve at the same ply. */
static _Thread_local struct {
    uint64_t tb, first, end;  /* tb: the ostle_tb's serial, 0 for none */
    int mat, nf;
    game_state board;
    game_move list[GAME_MAX_MOVES];
} last_position;

static void ostle_unindex_state(const game *g, int mat, uint64_t index, game_state *s)
{
    const struct ostle_tb *t = geom(g)->tb;
    if (last_position.tb != t->serial || last_position.mat != mat || index < last_position.first ||
        index >= last_position.end) {
        const mat_index *mi = index_of(g, mat);
        uint64_t first, p = position_of(mi, index, &first);
        board_of(t, mat / 8, mat % 8, mi, p, &last_position.board);
        last_position.tb = t->serial;
        last_position.mat = mat;
        last_position.first = first;
        last_position.end = first + count_of(mi, p);
        last_position.nf = -1;
    }
    *s = last_position.board;
    uint64_t slot = index - last_position.first;
    if (slot) {
        if (last_position.nf < 0)
            last_position.nf = ostle_forbiddable(g, s, last_position.list);
        set_meta(s, hole_of(s), 0, last_position.list[slot - 1]);
    }
}

/* Position by position: a board, its forbiddable moves and its symmetries
 * once for all its states; only a symmetric board can have twin states. */
static void ostle_each(const game *g, int mat, uint64_t first, uint64_t end,
                       void (*fn)(void *ctx, uint64_t index, const game_state *s, int twin), void *ctx)
{
    if (first >= end)
        return;
    const struct ostle_tb *t = geom(g)->tb;
    const mat_index *mi = index_of(g, mat);
    uint64_t at, e = first;
    for (uint64_t p = position_of(mi, first, &at); e < end; at += count_of(mi, p++)) {
        if (!count_of(mi, p))
            continue;  /* not canonical: no states */
        game_state board;
        board_of(t, mat / 8, mat % 8, mi, p, &board);
        pos_ref pr;
        locate(g, &board, &pr);
        for (; e < at + count_of(mi, p) && e < end; e++) {
            uint64_t slot = e - at;
            if (slot == 0) {
                fn(ctx, e, &board, 0);
                continue;
            }
            if (pr.n < 0)
                locate_rest(g, &pr);
            game_state s = board;
            unsigned f = pr.list[slot - 1];
            set_meta(&s, hole_of(&s), 0, f);
            fn(ctx, e, &s, pr.nk > 1 && state_entry(g, &pr, f) != e);
        }
    }
}

static int ostle_materials(const game *g, int max_pieces, int *out, int cap)
{
    const ostle_geom *gm = geom(g);
    int n = 0;
    for (int total = 2 * (gm->lose_at + 1); total <= max_pieces; total++)
        for (int a = gm->lose_at + 1; 2 * a <= total; a++)
            if (side_pieces(gm, total - a) && n < cap)
                out[n++] = MAT(a, total - a);
    return n;
}

static int ostle_material_deps(const game *g, int mat, int *out)
{
    const ostle_geom *gm = geom(g);
    int a = mat / 8, b = mat % 8, n = 0;
    if (side_pieces(gm, a - 1))
        out[n++] = MAT(a - 1, b);
    if (side_pieces(gm, b - 1) && a != b)
        out[n++] = a <= b - 1 ? MAT(a, b - 1) : MAT(b - 1, a);
    return n;
}

static int ostle_material_of(const game *g, const game_state *s)
{
    const ostle_geom *gm = geom(g);
    int a = __builtin_popcountll(s->w[0]), b = __builtin_popcountll(s->w[1]);
    if (!side_pieces(gm, a) || !side_pieces(gm, b))
        return -1;
    return a < b ? MAT(a, b) : MAT(b, a);
}

static int ostle_material_pieces(const game *g, int mat) { (void)g; return mat / 8 + mat % 8; }

static void ostle_material_name(const game *g, int mat, char *buf, size_t len)
{
    (void)g;
    snprintf(buf, len, "%d+%d", mat / 8, mat % 8);
}

static int ostle_material_parse(const game *g, const char *name)
{
    int a, b;
    char extra;
    if (sscanf(name, "%d+%d%c", &a, &b, &extra) != 2 || a > b || !side_pieces(geom(g), a) || !side_pieces(geom(g), b))
        return -1;
    return MAT(a, b);
}

static uint64_t ostle_size(const game *g, int mat)
{
    const mat_index *mi = index_of(g, mat);
    return mi ? mi->states : 0;
}

/* Sorts v[0..n) and drops repeats; returns the new count.  Lists are a few
 * dozen long: insertion sort beats qsort's calls through a pointer. */
static int distinct(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* The entries of the states of un-move j's position (located in pr) that
 * allow its move mv, into pred; returns how many. */
static int states_allowing(const game *g, pos_ref *pr, const game_state *from, game_move mv, uint64_t *pred)
{
    int n = 0;
    if (pr->nk == 1) {
        /* One symmetry onto the canonical board: its forbiddable moves are
         * the images of this position's, slot by slot (in order). */
        locate_rest(g, pr);
        unsigned barred = map_move(geom(g), &geom(g)->tb->r, pr->k[0], mv);
        pred[n++] = pr->first;
        for (int x = 0; x < pr->n; x++)
            if (pr->list[x] != barred)
                pred[n++] = pr->first + 1 + (uint64_t)x;
        return n;
    }
    game_move f[GAME_MAX_MOVES];
    int nf = ostle_forbiddable(g, from, f);
    for (int q = -1; q < nf; q++) {
        unsigned forbid = q < 0 ? NO_MOVE : f[q];
        if (forbid != mv)
            pred[n++] = state_entry(g, pr, forbid);
    }
    return distinct(pred, n);
}

/* States from which a move that removes nothing leads to state s: the
 * un-moves into s, each from every state of its position that allows the
 * move; in order. */
static int ostle_unmoves_states(const game *g, const game_state *s, uint64_t *pred)
{
    game_state from[GAME_MAX_MOVES];
    game_move mv[GAME_MAX_MOVES];
    int np = ostle_unmoves_state(g, s, from, mv);
    pos_ref pr;
    if (forbidden_of(s) != NO_MOVE) {
        if (np == 0)
            return 0;  /* a forbidden move names at most one un-move */
        locate(g, &from[0], &pr);
        return states_allowing(g, &pr, &from[0], mv[0], pred);
    }
    /* A move that leaves nothing forbidden is forbiddable nowhere: every
     * state of a predecessor position allows it, a whole run of entries
     * (or, on a symmetric board, its entries that are no twins).  Runs of
     * distinct positions do not overlap: sorted by their start, once each. */
    struct { uint64_t first; int len; } run[GAME_MAX_PREDECESSORS];
    struct { const mat_index *mi; uint64_t pos; int nk; } at[GAME_MAX_MOVES];
    for (int j = 0; j < np; j++) {
        locate_start(g, &from[j], &pr);
        at[j].mi = pr.mi;
        at[j].pos = pr.pos;
        at[j].nk = pr.nk;
    }
    int nr = 0;
    for (int j = 0; j < np; j++) {
        if (at[j].nk == 1) {
            run[nr].first = first_state(at[j].mi, at[j].pos);
            run[nr++].len = (int)count_of(at[j].mi, at[j].pos);
            continue;
        }
        locate(g, &from[j], &pr);
        uint64_t e[GAME_MAX_MOVES];
        int ne = states_allowing(g, &pr, &from[j], mv[j], e);
        for (int x = 0; x < ne; x++) {
            run[nr].first = e[x];
            run[nr++].len = 1;
        }
    }
    for (int i = 1; i < nr; i++)
        for (int j = i; j > 0 && run[j - 1].first > run[j].first; j--) {
            __typeof__(run[0]) t = run[j];
            run[j] = run[j - 1];
            run[j - 1] = t;
        }
    int n = 0;
    for (int i = 0; i < nr; i++)
        if (i == 0 || run[i].first != run[i - 1].first)
            for (int x = 0; x < run[i].len; x++)
                pred[n++] = run[i].first + (uint64_t)x;
    return n;
}

/* A state's symmetry class as a number: the least image, over the
 * symmetries that put the hole on its class's square, of the two sets and
 * the forbidden move.  Equal exactly when the states share a table entry,
 * and far cheaper than the entry (no ranks, no index arrays). */
static uint64_t orbit_key(const game *g, const game_state *s)
{
    const ostle_geom *gm = geom(g);
    const rank_ostle *r = &gm->tb->r;
    int side = side_of(s);
    unsigned hole = hole_of(s), f = forbidden_of(s), cls = (unsigned)r->cls[hole];
    uint64_t best = UINT64_MAX;
    for (int k = 0; k < r->nsym; k++) {
        if (r->map[k][hole] != r->rep[cls])
            continue;
        uint64_t fk = f == NO_MOVE ? 0x7F : map_move(gm, r, k, f);
        uint64_t key = rank_ostle_image(r, k, (uint32_t)s->w[side]) | (uint64_t)rank_ostle_image(r, k, (uint32_t)s->w[!side]) << 25 | fk << 50;
        if (key < best)
            best = key;
    }
    return best | (uint64_t)cls << 57;
}

/* key() of each child of s that keeps every piece, distinct, into out;
 * returns how many. */
static int staying_children(const game *g, const game_state *s, uint64_t (*key)(const game *, const game_state *),
                            uint64_t *out)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), k = 0;
    uint64_t pieces = (uint64_t)__builtin_popcountll(s->w[0] | s->w[1]);
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        if ((uint64_t)__builtin_popcountll(c.w[0] | c.w[1]) == pieces)
            out[k++] = key(g, &c);
    }
    return distinct(out, k);
}

static int ostle_successors_states(const game *g, const game_state *s, uint64_t *succ)
{
    return staying_children(g, s, ostle_index, succ);
}

static int ostle_count_successors(const game *g, const game_state *s)
{
    uint64_t key[GAME_MAX_MOVES];
    return staying_children(g, s, orbit_key, key);
}

/* The moves that remove a piece: a piece move whose chain of pieces runs
 * off the board or into the hole without meeting an empty square. */
static int ostle_exits(const game *g, const game_state *s, game_move *out, int *stays)
{
    const ostle_geom *gm = geom(g);
    unsigned hole = hole_of(s), forbidden = forbidden_of(s);
    uint64_t occ = s->w[0] | s->w[1];
    int n = 0;
    for (uint64_t own = s->w[side_of(s)]; own; own &= own - 1) {
        unsigned sq = (unsigned)__builtin_ctzll(own);
        for (unsigned d = 0; d < 4; d++) {
            int next = gm->step[sq][d];
            while (next >= 0 && (unsigned)next != hole && ((occ >> next) & 1))
                next = gm->step[next][d];
            if ((next < 0 || (unsigned)next == hole) && sq * 4 + d != forbidden)
                out[n++] = sq * 4 + d;
        }
    }
    *stays = game_count(g, s) > n ? -1 : 0;
    return n;
}

const game_tb_ops ostle_tb_ops = {
    .materials = ostle_materials,
    .material_deps = ostle_material_deps,
    .material_of = ostle_material_of,
    .material_pieces = ostle_material_pieces,
    .material_name = ostle_material_name,
    .material_parse = ostle_material_parse,
    .size = ostle_size,
    .index = ostle_index,
    .unindex = ostle_unindex_state,
    .each = ostle_each,
    .unmoves = ostle_unmoves_states,
    .successors = ostle_successors_states,
    .count_successors = ostle_count_successors,
    .exits = ostle_exits,
    .index_files = ostle_index_files,
};
