/* tests/ref_jungle.c - naive Jungle Checkers rules on a 7x7 character grid. */
#include "ref.h"

#include <stdio.h>
#include <string.h>
#include <ctype.h>

static int strength(char p)
{
    return (int)(strchr("RDTE", toupper((unsigned char)p)) - "RDTE");
}

static int white(char p) { return isupper((unsigned char)p) != 0; }

static void read_jfen(const char *jfen, char grid[7][7], char *side)
{
    int r = 6, c = 0;  /* grid[row][col], row 6 = rank 7 */
    memset(grid, '.', 49);
    for (; *jfen != ' '; jfen++) {
        if (*jfen == '/') { r--; c = 0; }
        else if (isdigit((unsigned char)*jfen)) c += *jfen - '0';
        else grid[r][c++] = *jfen;
    }
    *side = jfen[1];
}

static void write_jfen(char grid[7][7], char side, char *out)
{
    int n = 0;
    for (int r = 6; r >= 0; r--) {
        int e = 0;
        for (int c = 0; c < 7; c++) {
            if (grid[r][c] == '.') { e++; continue; }
            if (e) out[n++] = (char)('0' + e);
            e = 0;
            out[n++] = grid[r][c];
        }
        if (e) out[n++] = (char)('0' + e);
        if (r) out[n++] = '/';
    }
    sprintf(out + n, " %c", side);
}

static int may_capture(char a, char v, int classic)
{
    int sa = strength(a), sv = strength(v);
    if (sa == 0 && sv == 3) return 1;
    if (classic && sa == 3 && sv == 0) return 0;
    return sa >= sv;
}

int ref_jungle_children(const char *jfen, int classic, ref_child *out, char *result)
{
    char grid[7][7], side;
    read_jfen(jfen, grid, &side);
    int me_white = side == 'w';
    int own_den_row = me_white ? 0 : 6, opp_den_row = me_white ? 6 : 0;
    /* Did the last mover reach our den, or take our last piece? */
    char on_den = grid[own_den_row][3];
    int mine = 0;
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++)
            if (grid[r][c] != '.' && white(grid[r][c]) == me_white)
                mine++;
    if ((on_den != '.' && white(on_den) != me_white) || mine == 0) {
        *result = me_white ? '1' : '0';
        return 0;
    }
    (void)opp_den_row;
    static const int dr[4] = { 1, -1, 0, 0 }, dc[4] = { 0, 0, 1, -1 };
    int n = 0;
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++) {
            char p = grid[r][c];
            if (p == '.' || white(p) != me_white)
                continue;
            for (int d = 0; d < 4; d++) {
                int r2 = r + dr[d], c2 = c + dc[d];
                if (r2 < 0 || r2 > 6 || c2 < 0 || c2 > 6)
                    continue;
                if (r2 == own_den_row && c2 == 3)
                    continue;
                char v = grid[r2][c2];
                if (v != '.' && (white(v) == me_white || !may_capture(p, v, classic)))
                    continue;
                char g2[7][7];
                memcpy(g2, grid, sizeof g2);
                g2[r2][c2] = p;
                g2[r][c] = '.';
                sprintf(out[n].move, "%c%d%c%d", 'a' + c, r + 1, 'a' + c2, r2 + 1);
                write_jfen(g2, me_white ? 'b' : 'w', out[n].after);
                n++;
            }
        }
    *result = n ? 'o' : 'd';
    return n;
}

void ref_jungle_jfen(const char grid[49], int side, char *out)
{
    char g[7][7];
    for (int sq = 0; sq < 49; sq++)
        g[sq / 7][sq % 7] = grid[sq] ? grid[sq] : '.';
    write_jfen(g, side ? 'b' : 'w', out);
}

unsigned long long ref_rand(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
