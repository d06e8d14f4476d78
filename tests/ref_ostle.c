/* tests/ref_ostle.c - naive Ostle rules on a character grid, with rule 8
 * checked against the actual position two plies back, not a stored move. */
#include "ref.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct { int w, h; char g[5][5]; char side; } board;  /* g[row][col], row 0 = rank 1 */

static void read_pos(int w, int h, const char *t, board *b)
{
    b->w = w;
    b->h = h;
    memset(b->g, '.', sizeof b->g);
    int r = h - 1, c = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') { r--; c = 0; }
        else if (isdigit((unsigned char)*t)) c += *t - '0';
        else b->g[r][c++] = *t;
    }
    b->side = t[1];
}

static void write_pos(const board *b, char *out)
{
    int n = 0;
    for (int r = b->h - 1; r >= 0; r--) {
        int e = 0;
        for (int c = 0; c < b->w; c++) {
            if (b->g[r][c] == '.') { e++; continue; }
            if (e) out[n++] = (char)('0' + e);
            e = 0;
            out[n++] = b->g[r][c];
        }
        if (e) out[n++] = (char)('0' + e);
        if (r) out[n++] = '/';
    }
    sprintf(out + n, " %c", b->side);
}

static int off(const board *b, int r, int c) { return r < 0 || c < 0 || r >= b->h || c >= b->w; }

/* Moves the piece on (r,c) one step, first making room by pushing. */
static void push(board *b, int r, int c, int dr, int dc)
{
    char p = b->g[r][c];
    int r2 = r + dr, c2 = c + dc;
    b->g[r][c] = '.';
    if (off(b, r2, c2) || b->g[r2][c2] == 'H')
        return;  /* falls off or into the hole */
    if (b->g[r2][c2] != '.')
        push(b, r2, c2, dr, dc);
    b->g[r2][c2] = p;
}

static int count(const board *b, char p)
{
    int n = 0;
    for (int r = 0; r < b->h; r++)
        for (int c = 0; c < b->w; c++)
            n += b->g[r][c] == p;
    return n;
}

int ref_ostle_children(int w, int h, const char *pos, const char *prev, ref_child *out, char *result)
{
    board b;
    read_pos(w, h, pos, &b);
    int lose_at = w - 2;
    if (count(&b, 'B') <= lose_at) { *result = '1'; return 0; }
    if (count(&b, 'W') <= lose_at) { *result = '0'; return 0; }
    static const int dr[4] = { 1, -1, 0, 0 }, dc[4] = { 0, 0, -1, 1 };
    static const char dname[] = "UDLR";
    char mine = b.side == 'b' ? 'B' : 'W';
    int n = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            if (b.g[r][c] != 'H' && b.g[r][c] != mine)
                continue;
            for (int d = 0; d < 4; d++) {
                board a = b;
                int r2 = r + dr[d], c2 = c + dc[d];
                if (b.g[r][c] == 'H') {
                    if (off(&b, r2, c2) || b.g[r2][c2] != '.')
                        continue;
                    a.g[r2][c2] = 'H';
                    a.g[r][c] = '.';
                } else {
                    push(&a, r, c, dr[d], dc[d]);
                }
                a.side = b.side == 'b' ? 'w' : 'b';
                char text[REF_TEXT];
                write_pos(&a, text);
                if (prev && strcmp(text, prev) == 0)
                    continue;  /* rule 8 */
                sprintf(out[n].move, "%c%d%c", 'a' + c, r + 1, dname[d]);
                strcpy(out[n].after, text);
                n++;
            }
        }
    *result = 'o';
    return n;
}

/* b's image under symmetry k (bit 0 mirrors files, bit 1 ranks, bit 2
 * transposes), colours swapped when swap, written with side to move side. */
static void image(const board *b, int k, int swap, char side, char *out)
{
    board a = *b;
    a.side = side;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int sx = k & 1 ? b->w - 1 - x : x, sy = k & 2 ? b->h - 1 - y : y;
            char p = k & 4 ? b->g[sx][sy] : b->g[sy][sx];
            a.g[y][x] = swap && p == 'B' ? 'W' : swap && p == 'W' ? 'B' : p;
        }
    write_pos(&a, out);
}

void ref_ostle_canonical(int w, int h, const char *pos, char *out)
{
    board b;
    read_pos(w, h, pos, &b);
    out[0] = 0;
    for (int k = 0; k < (w == h ? 8 : 4); k++) {
        char text[REF_TEXT];
        image(&b, k, b.side == 'w', 'b', text);
        if (!out[0] || strcmp(text, out) < 0)
            strcpy(out, text);
    }
}

void ref_ostle_state_key(int w, int h, const char *pos, const char *prev, char *out)
{
    ref_child kids[REF_MAX];
    char result;
    int n = prev ? ref_ostle_children(w, h, pos, NULL, kids, &result) : 0, restricts = 0;
    for (int i = 0; i < n && !restricts; i++)
        restricts = strcmp(kids[i].after, prev) == 0;
    board b, p;
    read_pos(w, h, pos, &b);
    if (restricts)
        read_pos(w, h, prev, &p);
    out[0] = 0;
    for (int k = 0; k < (w == h ? 8 : 4); k++) {
        char text[2 * REF_TEXT + 2];
        image(&b, k, b.side == 'w', 'b', text);
        strcat(text, "|");
        if (restricts)
            image(&p, k, b.side == 'w', 'w', text + strlen(text));
        if (!out[0] || strcmp(text, out) < 0)
            strcpy(out, text);
    }
}
