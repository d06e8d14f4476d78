/* tbfile/paths.c - where the files of a game's tables are named. */
#include "tbfile.h"

#include <stdio.h>

void tb_file_prefix(const game *g, const char *dir, char *buf, size_t len)
{
    char name[64];
    snprintf(name, sizeof name, "%.63s", g->name);
    for (char *c = name; *c; c++)
        if (*c == ':')
            *c = '-';
    snprintf(buf, len, "%s/%s", dir, name);
}

void tb_path(const game *g, const char *dir, int mat, char *buf, size_t len)
{
    char prefix[4200], material[32];
    tb_file_prefix(g, dir, prefix, sizeof prefix);
    game_tables(g)->material_name(g, mat, material, sizeof material);
    snprintf(buf, len, "%s-%s.pntb", prefix, material);
}
