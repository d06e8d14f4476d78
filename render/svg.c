/* render/svg.c - a board diagram in SVG (game_ops.square): a file, or inline in a page. */
#include "render.h"
#include "../util/util.h"

#include <string.h>

enum { CELL = 48, MARGIN = 28 };

void render_xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", out);
        else if (*s == '>') fputs("&gt;", out);
        else if (*s == '&') fputs("&amp;", out);
        else if (*s == '"') fputs("&quot;", out);
        else fputc(*s, out);
    }
}

/* Lines of at most width characters, broken at spaces. */
static int wrap(const char *text, int width, char lines[][128], int max)
{
    int n = 0;
    while (*text && n < max) {
        int len = (int)strlen(text);
        if (len > width) {
            len = width;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = width;
        }
        snprintf(lines[n++], 128, "%.*s", len, text);
        text += len;
        while (*text == ' ')
            text++;
    }
    return n;
}

void render_svg_board(const game *g, const game_state *s, const char *title, const char *caption, FILE *out)
{
    int W = g->width, H = g->height;
    char lines[16][128];
    int width = W * CELL + 2 * MARGIN;
    int ncap = wrap(caption, (width - 16) / 7, lines, 16);
    if (width < 360) {
        width = 360;
        ncap = wrap(caption, (width - 16) / 7, lines, 16);
    }
    int x0 = (width - W * CELL) / 2, y0 = MARGIN + 24;
    int height = y0 + H * CELL + MARGIN + 18 * ncap + 8;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"DejaVu Sans, Arial, sans-serif\">\n", width, height, width, height);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">", width / 2,
            MARGIN + 4);
    render_xml_text(out, title);
    fputs("</text>\n", out);
    for (int rank = 0; rank < H; rank++)
        for (int file = 0; file < W; file++) {
            game_square sq;
            game_square_at(g, s, file, rank, &sq);
            int x = x0 + file * CELL, y = y0 + (H - 1 - rank) * CELL;
            const char *fill = sq.marked ? "#9db8a0" : (file + rank) % 2 ? "#f3e7c9" : "#e6d3a8";
            /* data-sq names the square as the notation does, for a page that marks moves on it */
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#6b5a3a\" "
                         "data-sq=\"%c%d\"/>\n", x, y, CELL, CELL, fill, 'a' + file, game_rows_from_top(g) ? H - rank : rank + 1);
            int light = sq.player == game_light_player(g);
            if (sq.player >= 0)
                fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#222222\" "
                             "stroke-width=\"2\"/>\n", x + CELL / 2, y + CELL / 2, CELL * 2 / 5, light ? "#fafafa" : "#303030");
            if (sq.player >= 0 && sq.letter)
                fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" "
                             "fill=\"%s\">%c</text>\n", x + CELL / 2, y + CELL / 2 + 7, light ? "#222222" : "#fafafa",
                        sq.letter);
            if (sq.forbidden) {  /* the move rule 8 forbids: an arrow out of the square, crossed */
                int dx = sq.forbidden == 'L' ? -1 : sq.forbidden == 'R' ? 1 : 0;
                int dy = sq.forbidden == 'U' ? -1 : sq.forbidden == 'D' ? 1 : 0;
                int cx = x + CELL / 2, cy = y + CELL / 2, ex = cx + dx * CELL * 9 / 20, ey = cy + dy * CELL * 9 / 20;
                fprintf(out, "<g><title>the move rule 8 forbids</title><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                             "stroke=\"#c0392b\" stroke-width=\"4\"/><text x=\"%d\" y=\"%d\" font-size=\"18\" "
                             "font-weight=\"bold\" text-anchor=\"middle\" fill=\"#c0392b\">&#215;</text></g>\n",
                        cx, cy, ex, ey, ex, ey + 6);
            }
        }
    for (int file = 0; file < W; file++)
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%c</text>\n",
                x0 + file * CELL + CELL / 2, y0 + H * CELL + 14, 'a' + file);
    for (int rank = 0; rank < H; rank++)
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%d</text>\n", x0 - 10,
                y0 + (H - 1 - rank) * CELL + CELL / 2 + 4, game_rows_from_top(g) ? H - rank : rank + 1);
    for (int i = 0; i < ncap; i++) {
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", 8, y0 + H * CELL + MARGIN + 10 + 18 * i);
        render_xml_text(out, lines[i]);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
}

/* A position of a game without a board: the node, and below it each child
 * under its move (at most a row of GAME_MAX_MOVES). */
static void svg_node(const game *g, const game_state *s, const char *title, FILE *out)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_result_of(g, s) == GAME_ONGOING ? game_moves(g, s, mv) : 0, step = 96;
    int width = n * step > 360 ? n * step + 2 * MARGIN : 360 + 2 * MARGIN, height = 240;
    char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"DejaVu Sans, Arial, sans-serif\">\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            width, height, width, height, width, height);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">", width / 2,
            MARGIN);
    render_xml_text(out, title);
    fputs("</text>\n", out);
    int cx = width / 2, cy = 80;
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        char move[GAME_TEXT_MAX], child[GAME_TEXT_MAX];
        game_format_move(g, s, mv[i], move, sizeof move);
        game_format(g, &c, child, sizeof child);
        int x = (width - n * step) / 2 + i * step + step / 2, y = 190;
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#6b5a3a\" stroke-width=\"2\"/>\n", cx,
                cy + 22, x, y - 18);
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"#6b5a3a\">",
                (cx + x) / 2, (cy + y) / 2);
        render_xml_text(out, move);
        fprintf(out, "</text>\n<circle cx=\"%d\" cy=\"%d\" r=\"18\" fill=\"#f3e7c9\" stroke=\"#6b5a3a\" data-move=\"",
                x, y);
        render_xml_text(out, move);
        fprintf(out, "\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", x, y + 4);
        render_xml_text(out, child);
        fputs("</text>\n", out);
    }
    fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"22\" fill=\"#9db8a0\" stroke=\"#222222\" stroke-width=\"2\"/>\n"
                 "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">", cx, cy, cx,
            cy + 4);
    render_xml_text(out, text);
    fputs("</text>\n</svg>\n", out);
}

void render_svg_any(const game *g, const game_state *s, const char *title, const char *caption, FILE *out)
{
    if (game_has_board(g))
        render_svg_board(g, s, title, caption, out);
    else
        svg_node(g, s, title, out);
}

int render_svg_write(const game *g, const game_state *s, const char *title, const char *caption, const char *path,
                     char *err, size_t errlen)
{
    if (!game_has_board(g))
        return util_error(err, errlen, "%s has no board to draw", g->name), RENDER_NO_BOARD;
    util_file file;
    char why[4400];
    if (util_file_create(&file, path, "w", why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write %s", why);
    render_svg_board(g, s, title, caption, file.f);
    if (util_file_commit(&file, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "writing failed: %s", why);
    return 0;
}
