/* tests/ref_othello.c - naive Othello rules on a character grid. */
#include "ref.h"

#include <stdio.h>
#include <string.h>

typedef struct { int w, h; char g[8][8]; char side; } board;  /* g[row][col] */

static void read_pos(const char *t, board *b)
{
    sscanf(t, "%dx%d:", &b->w, &b->h);
    t = strchr(t, ':') + 1;
    for (int r = 0; r < b->h; r++) {
        for (int c = 0; c < b->w; c++)
            b->g[r][c] = *t++;
        t++;  /* '/' or ' ' */
    }
    b->side = *t;
}

static void write_pos(const board *b, char *out)
{
    int n = sprintf(out, "%dx%d:", b->w, b->h);
    for (int r = 0; r < b->h; r++) {
        for (int c = 0; c < b->w; c++)
            out[n++] = b->g[r][c];
        if (r + 1 < b->h)
            out[n++] = '/';
    }
    sprintf(out + n, " %c", b->side);
}

/* Plays (r,c) for side me if legal; returns the number of discs flipped. */
static int place(board *b, int r, int c, char me)
{
    char opp = me == 'X' ? 'O' : 'X';
    int flipped = 0;
    if (b->g[r][c] != '-')
        return 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (!dr && !dc)
                continue;
            int k = 1;
            while (r + k * dr >= 0 && r + k * dr < b->h && c + k * dc >= 0 && c + k * dc < b->w
                   && b->g[r + k * dr][c + k * dc] == opp)
                k++;
            if (k == 1 || r + k * dr < 0 || r + k * dr >= b->h || c + k * dc < 0 || c + k * dc >= b->w
                || b->g[r + k * dr][c + k * dc] != me)
                continue;
            for (int i = 1; i < k; i++)
                b->g[r + i * dr][c + i * dc] = me;
            flipped += k - 1;
        }
    if (flipped)
        b->g[r][c] = me;
    return flipped;
}

static int has_move(const board *b, char me)
{
    for (int r = 0; r < b->h; r++)
        for (int c = 0; c < b->w; c++) {
            board t = *b;
            if (place(&t, r, c, me))
                return 1;
        }
    return 0;
}

int ref_othello_children(const char *pos, ref_child *out, char *result, int *score)
{
    board b;
    read_pos(pos, &b);
    char me = b.side, opp = me == 'X' ? 'O' : 'X';
    int n = 0;
    for (int r = 0; r < b.h; r++)
        for (int c = 0; c < b.w; c++) {
            board t = b;
            if (!place(&t, r, c, me))
                continue;
            t.side = opp;
            sprintf(out[n].move, "%c%d", 'a' + c, r + 1);
            write_pos(&t, out[n].after);
            n++;
        }
    *result = 'o';
    *score = 0;
    if (n)
        return n;
    if (has_move(&b, opp)) {
        board t = b;
        t.side = opp;
        strcpy(out[0].move, "pass");
        write_pos(&t, out[0].after);
        return 1;
    }
    int x = 0, o = 0;
    for (int r = 0; r < b.h; r++)
        for (int c = 0; c < b.w; c++) {
            x += b.g[r][c] == 'X';
            o += b.g[r][c] == 'O';
        }
    int empty = b.w * b.h - x - o;
    *score = x > o ? x - o + empty : x < o ? x - o - empty : 0;
    *result = x > o ? '0' : x < o ? '1' : 'd';
    return 0;
}

/* Negamax with alpha-beta over the naive reference Othello rules: the exact
 * score for the side to move ('X' is Black, player 0). */
int ref_negamax(const char *pos, int alpha, int beta)
{
    ref_child kids[REF_MAX];
    char result;
    int score, n = ref_othello_children(pos, kids, &result, &score);
    int black = pos[strlen(pos) - 1] == 'X';
    if (result != 'o')
        return black ? score : -score;
    int best = -1000;
    for (int i = 0; i < n && best < beta; i++) {
        int v = -ref_negamax(kids[i].after, -beta, -(alpha > best ? alpha : best));
        if (v > best)
            best = v;
    }
    return best;
}
