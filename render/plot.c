/* render/plot.c - the BDD sizes of van Dijk's algorithms per iteration as
 * an SVG line chart on a log scale (his Figure 7.2): one colour per
 * algorithm, White's set solid, Black's dashed, algorithm 1's reached set
 * solid. */
#include "render.h"
#include "../util/util.h"

#include <math.h>
#include <stdio.h>

enum { PW = 640, PH = 400, LEFT = 70, RIGHT = 150, TOP = 40, BOTTOM = 50 };

static const char *const colour[6] = { "", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd" };

static double px(int i, int most) { return LEFT + (double)(PW - LEFT - RIGHT) * i / (most > 1 ? most - 1 : 1); }
static double py(double v, int lo, int hi) { return TOP + (PH - TOP - BOTTOM) * (hi - log10(v > 1 ? v : 1)) / (hi - lo); }

static void line(FILE *f, const sym_series *s, int algo, int dashed, int most, int lo, int hi)
{
    int n = s->iterations < SYM_MAX_ITERATIONS ? s->iterations : SYM_MAX_ITERATIONS;
    if (n == 0)
        return;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", colour[algo],
            dashed ? " stroke-dasharray=\"6,4\"" : "");
    for (int i = 0; i < n; i++)
        fprintf(f, "%.1f,%.1f ", px(i, most), py(s->nodes_at[i], lo, hi));
    fprintf(f, "\"/>\n");
}

int render_bdd_plot(const char *path, const char *title, const sym_result *res, const int *algos, char *err,
                    size_t errlen)
{
    int most = 2, peak = 10;
    for (int a = 1; a <= 5; a++) {
        if (!algos[a])
            continue;
        const sym_series *s[3] = { &res[a].reach, &res[a].side[0], &res[a].side[1] };
        for (int k = 0; k < 3; k++) {
            most = s[k]->iterations > most ? s[k]->iterations : most;
            peak = s[k]->peak_nodes > peak ? s[k]->peak_nodes : peak;
        }
    }
    most = most < SYM_MAX_ITERATIONS ? most : SYM_MAX_ITERATIONS;
    int lo = 0, hi = (int)ceil(log10(peak));
    util_file file;
    char why[4400];
    if (util_file_create(&file, path, "w", why, sizeof why) != 0)
        return util_error(err, errlen, "cannot write %s", why);
    FILE *f = file.f;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", PW, PH);
    fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"14\">", LEFT);
    render_xml_text(f, title);
    fprintf(f, ": BDD nodes per iteration</text>\n");
    for (int e = lo; e <= hi; e++)
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
                   "text-anchor=\"end\">1e%d</text>\n", LEFT, PW - RIGHT, py(pow(10, e), lo, hi), py(pow(10, e), lo, hi),
                LEFT - 6, py(pow(10, e), lo, hi) + 4, e);
    for (int i = 0; i < most; i += most > 20 ? 5 : 2)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", px(i, most), PH - BOTTOM + 16, i + 1);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">iteration</text>\n", (LEFT + PW - RIGHT) / 2,
            PH - BOTTOM + 36);
    int key = 0;
    for (int a = 1; a <= 5; a++) {
        if (!algos[a])
            continue;
        if (a == 1)
            line(f, &res[a].reach, a, 0, most, lo, hi);
        else
            line(f, &res[a].side[1], a, 0, most, lo, hi), line(f, &res[a].side[0], a, 1, most, lo, hi);
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                   "<text x=\"%d\" y=\"%d\">Alg %d%s</text>\n", PW - RIGHT + 12, PW - RIGHT + 36, TOP + 10 + 18 * key,
                TOP + 10 + 18 * key, colour[a], PW - RIGHT + 42, TOP + 14 + 18 * key, a, a == 1 ? " (reach)" : "");
        key++;
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">solid White,</text><text x=\"%d\" y=\"%d\">dashed Black</text>\n",
            PW - RIGHT + 12, TOP + 22 + 18 * key, PW - RIGHT + 12, TOP + 36 + 18 * key);
    fprintf(f, "</svg>\n");
    if (util_file_commit(&file, 1, why, sizeof why) != 0)
        return util_error(err, errlen, "writing failed: %s", why);
    return 0;
}
