/* render/booklet.c - problems as one self-contained HTML page: a numbered
 * diagram (inline SVG) and stipulation per problem, the analysis (key, main
 * line, duals, cooks, tries) folded until clicked; printed, two problems to
 * an A4 page and the analyses left out (a booklet to solve).  A script in
 * the page counts the diagrams that drew (boxes of non-zero size) into the
 * page's title and data-drawn: `make check-html` reads it from a browser. */
#include "render.h"
#include "../util/util.h"

static const char style[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:2em auto;max-width:60em;color:#222}\n"
    "h1{font-size:1.4em}.problem{display:inline-block;vertical-align:top;width:28em;margin:0 1em 2em 0}\n"
    ".stip{font-weight:bold}.position{font-family:monospace;font-size:.85em}\n"
    "details{margin-top:.4em}summary{cursor:pointer;color:#4a3b8c}pre{white-space:pre-wrap;font-size:.85em}\n"
    "@page{size:A4;margin:15mm}\n"
    "@media print{body{margin:0;max-width:none}h1{font-size:1.1em;margin:0 0 2mm}.problem{display:block;width:auto;height:124mm;margin:0;"
    "page-break-inside:avoid;break-inside:avoid}.problem:nth-of-type(2n){page-break-after:always;break-after:page}"
    "details,.screen{display:none}svg{max-height:105mm}}\n";

static const char script[] =
    "<script>\n"
    "window.addEventListener('load',function(){var s=document.querySelectorAll('.diagram svg'),n=0;\n"
    "for(var i=0;i<s.length;i++){var b=s[i].getBBox();if(b.width>0&&b.height>0&&s[i].querySelectorAll('rect').length>1)n++;}\n"
    "document.body.setAttribute('data-drawn',n+' of '+s.length);document.title='drawn '+n+' of '+s.length;});\n"
    "</script>\n";

int render_booklet_write(const char *path, const char *title, const game *g, const render_booklet_item *items, int n,
                         char *err, size_t errlen)
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
    fprintf(out, "</h1>\n<p class=\"screen\">%d problems. Click a problem's analysis to see its solution; printed, two "
                 "problems to a page without the solutions.</p>\n", n);
    for (int i = 0; i < n; i++) {
        char text[GAME_TEXT_MAX], head[64];
        game_format(g, items[i].s, text, sizeof text);
        snprintf(head, sizeof head, "No. %d", i + 1);
        fprintf(out, "<section class=\"problem\" id=\"p%d\">\n<div class=\"diagram\">\n", i + 1);
        render_svg_board(g, items[i].s, head, items[i].stipulation, out);
        fputs("</div>\n<p class=\"stip\">", out);
        render_xml_text(out, items[i].stipulation);
        fputs("</p>\n<p class=\"position\">", out);
        render_xml_text(out, text);
        fputs("</p>\n<details><summary>Solution, duals and tries</summary>\n<pre>", out);
        render_xml_text(out, items[i].analysis);
        fputs("</pre>\n</details>\n</section>\n", out);
    }
    fputs("</body>\n</html>\n", out);
    if (util_file_commit(&f, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write the booklet: %s", why);
    return 0;
}
