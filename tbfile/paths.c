/* tbfile/paths.c - where the files of a game's tables are named. */
#include "tbfile.h"

#include <stdio.h>
#include <string.h>

void tb_file_prefix(const game *g, const char *dir, char *buf, size_t len)
{
    char name[64];
    snprintf(name, sizeof name, "%.63s", g->name);
    for (char *c = name; *c; c++)
        if (*c == ':')
            *c = '-';
    snprintf(buf, len, "%s/%s", dir, name);
}

#define TABLE_EXT ".pntb"

void tb_path(const game *g, const char *dir, int mat, char *buf, size_t len)
{
    char prefix[4200], material[32];
    tb_file_prefix(g, dir, prefix, sizeof prefix);
    game_tables(g)->material_name(g, mat, material, sizeof material);
    snprintf(buf, len, "%s-%s" TABLE_EXT, prefix, material);
}

int tb_path_material(const game *g, const char *name)
{
    char prefix[80];
    tb_file_prefix(g, ".", prefix, sizeof prefix);
    const char *base = prefix + 2;  /* "<game>", past "./" */
    size_t nb = strlen(base), n = strlen(name), ne = strlen(TABLE_EXT);
    if (n < nb + 2 + ne || strncmp(name, base, nb) != 0 || name[nb] != '-' || strcmp(name + n - ne, TABLE_EXT) != 0)
        return -1;
    char material[64];
    snprintf(material, sizeof material, "%.*s", (int)(n - nb - 1 - ne), name + nb + 1);
    int mat = game_tables(g)->material_parse(g, material);  /* canonical names alone */
    return mat >= 0 && mat < TB_MAX_MATERIALS ? mat : -1;
}
