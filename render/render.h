/* render/render.h - pictures of what the project knows, for the command
 * line, the API and a server alike: a position as an SVG board, a game's
 * positions and a proof's tree as Graphviz DOT, problems as an HTML
 * booklet, the BDD sizes of van Dijk's algorithms as an SVG chart.  Each
 * writer writes all or nothing (a temporary name renamed) and returns 0,
 * or -1 with a one-line reason in err (RENDER_NO_BOARD: the game has no
 * board to draw).  Nothing here prints or exits: the caller says it. */
#ifndef PNSOLVE_RENDER_H
#define PNSOLVE_RENDER_H

#include <stdio.h>

#include "../games/game.h"
#include "../symbolic/symbolic.h"

#define RENDER_NO_BOARD (-2)
#define RENDER_DOT_MAX 2000  /* positions or proof lines a DOT picture holds */

/* Writes s to out with XML's five special characters escaped (SVG, HTML). */
void render_xml_text(FILE *out, const char *s);

/* Draws s as an SVG element (title above, caption below) on out; g has a board. */
void render_svg_board(const game *g, const game_state *s, const char *title, const char *caption, FILE *out);
/* As render_svg_board, and for a game with no board (a graph) the
 * position as a node with an edge to each child, labelled by its move. */
void render_svg_any(const game *g, const game_state *s, const char *title, const char *caption, FILE *out);
/* The same as a file at path. */
int render_svg_write(const game *g, const game_state *s, const char *title, const char *caption, const char *path,
                     char *err, size_t errlen);

/* Every position reachable from s and its moves as DOT at path (OR
 * positions boxes, AND ellipses, finished games filled by their result,
 * moves back onto the path dashed); refused past RENDER_DOT_MAX positions. */
int render_dot_positions(const game *g, const game_state *s, const char *path, char *err, size_t errlen);
/* The tree of the proof file proof_path as DOT at path (the prover's moves
 * bold, the lines that name another line edges to it); refused past
 * RENDER_DOT_MAX lines. */
int render_dot_proof(const char *proof_path, const char *path, char *err, size_t errlen);

/* A problem of a booklet: its position, stipulation, key (with its
 * motifs), solution line, and the notes on it (duals, tries), a line each. */
typedef struct {
    const game_state *s;
    const char *stipulation, *key, *solution, *notes;
} render_booklet_item;
/* items[0 .. n) of g as one self-contained HTML page at path, with a title
 * and an author (NULL: none), a legend of the board's marks, the solutions
 * folded on screen and an answer key at the end when printed. */
int render_booklet_write(const char *path, const char *title, const char *author, const game *g,
                         const render_booklet_item *items, int n, char *err, size_t errlen);

/* The BDD sizes per iteration of the algorithms a with algos[a] set
 * (res[a] their results) as an SVG line chart on a log scale at path. */
int render_bdd_plot(const char *path, const char *title, const sym_result *res, const int *algos, char *err,
                    size_t errlen);

#endif
