/* render/booklet.c - problems as one self-contained HTML page: a title and
 * author, a legend of the board's marks, a numbered diagram (inline SVG)
 * and stipulation per problem, the solution (key, main line, duals, tries)
 * folded until clicked; printed, two problems to an A4 page, the solutions
 * left out and an answer key at the end (a booklet to solve).  A script in
 * the page counts the diagrams that drew (boxes of non-zero size) into the
 * page's title and data-drawn: `make check-html` reads it from a browser. */
#include "render.h"
#include "../util/util.h"

#include <string.h>

static const char style[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:2em auto;max-width:60em;color:#222}\n"
    "h1{font-size:1.4em}.problem{display:inline-block;vertical-align:top;width:28em;margin:0 1em 2em 0}\n"
    ".stip{font-weight:bold}.position{font-family:monospace;font-size:.85em}\n"
    "details{margin-top:.4em}summary{cursor:pointer;color:#4a3b8c}pre{white-space:pre-wrap;font-size:.85em}\n"
    ".author{font-style:italic}.legend{font-size:.9em;color:#444}dt{font-weight:bold;float:left;width:5.5em}"
    "dd{margin-left:6em;font-family:monospace}.answers{display:none}\n"
    "@page{size:A4;margin:15mm}\n"
    "@media print{body{margin:0;max-width:none}h1{font-size:1.1em;margin:0 0 2mm}.problem{display:block;width:auto;height:124mm;margin:0;"
    "page-break-inside:avoid;break-inside:avoid}.problem:nth-of-type(2n){page-break-after:always;break-after:page}"
    "details,.screen{display:none}svg{max-height:105mm}"
    ".answers{display:block;page-break-before:always;break-before:page}.answers li{margin-bottom:2mm}}\n";

static const char script[] =
    "<script>\n"
    "window.addEventListener('load',function(){var s=document.querySelectorAll('.diagram svg'),n=0;\n"
    "for(var i=0;i<s.length;i++){var b=s[i].getBBox();if(b.width>0&&b.height>0&&s[i].querySelectorAll('rect').length>1)n++;}\n"
    "document.body.setAttribute('data-drawn',n+' of '+s.length);document.title='drawn '+n+' of '+s.length;});\n"
    "</script>\n";

/* What the shaded squares and marks of g's diagrams mean. */
static const char *legend(const game *g)
{
    if (strncmp(g->name, "jungle", 6) == 0)
        return "Shaded squares are the dens (d1 White's, d7 Black's): a piece that steps into the other side's den "
               "wins. Letters: R rat, D dog, T tiger, E elephant; light pieces are White's.";
    if (strncmp(g->name, "ostle", 5) == 0)
        return "The shaded square is the hole: a piece pushed into it or off the board is lost. A red crossed arrow "
               "marks the move rule 8 forbids (it would undo the move just played). Light pieces are White's.";
    return NULL;
}

/* One problem's section: diagram, stipulation, position, and its solution folded. */
static void problem(FILE *out, const game *g, const render_booklet_item *it, int no)
{
    char text[GAME_TEXT_MAX], head[64];
    game_format(g, it->s, text, sizeof text);
    snprintf(head, sizeof head, "No. %d", no);
    fprintf(out, "<section class=\"problem\" id=\"p%d\">\n<div class=\"diagram\">\n", no);
    render_svg_board(g, it->s, head, it->stipulation, out);
    fputs("</div>\n<p class=\"stip\">", out);
    render_xml_text(out, it->stipulation);
    fputs("</p>\n<p class=\"position\">", out);
    render_xml_text(out, text);
    fputs("</p>\n<details><summary>Solution</summary>\n<dl><dt>Key</dt><dd>", out);
    render_xml_text(out, it->key ? it->key : "");
    fputs("</dd><dt>Solution</dt><dd>", out);
    render_xml_text(out, it->solution ? it->solution : "");
    fputs("</dd></dl>\n", out);
    if (it->notes && *it->notes) {
        fputs("<pre class=\"notes\">", out);
        render_xml_text(out, it->notes);
        fputs("</pre>\n", out);
    }
    fputs("</details>\n</section>\n", out);
}

int render_booklet_write(const char *path, const char *title, const char *author, const game *g,
                         const render_booklet_item *items, int n, char *err, size_t errlen)
{
    if (!game_has_board(g))
        return util_error(err, errlen, "%s has no board to draw", g->name), RENDER_NO_BOARD;
    util_file f;
    char why[4400];
    if (util_file_create(&f, path, "w", why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write the booklet: %s", why);
    FILE *out = f.f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    render_xml_text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n%s</head>\n<body>\n<h1>", style, script);
    render_xml_text(out, title);
    fputs("</h1>\n", out);
    if (author) {
        fputs("<p class=\"author\">", out);
        render_xml_text(out, author);
        fputs("</p>\n", out);
    }
    if (legend(g))
        fprintf(out, "<p class=\"legend\">%s</p>\n", legend(g));
    fprintf(out, "<p class=\"screen\">%d problems. Click a problem's solution to see it; printed, two problems to a "
                 "page, the answers at the end.</p>\n", n);
    for (int i = 0; i < n; i++)
        problem(out, g, &items[i], i + 1);
    fputs("<section class=\"answers\">\n<h2>Answers</h2>\n<ol>\n", out);
    for (int i = 0; i < n; i++) {
        fputs("<li>", out);
        render_xml_text(out, items[i].key ? items[i].key : "");
        fputs(": ", out);
        render_xml_text(out, items[i].solution ? items[i].solution : "");
        fputs("</li>\n", out);
    }
    fputs("</ol>\n</section>\n</body>\n</html>\n", out);
    if (util_file_commit(&f, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write the booklet: %s", why);
    return 0;
}
