/* tbfile/materials.c - which tables a set of tables needs. */
#include "tbfile.h"
#include "../util/util.h"

int tb_materials_with_deps(const game *g, const int *mats, int n, int *out, int cap)
{
    const game_tb_ops *ops = game_tables(g);
    int count = 0;
    for (int i = 0; i < n + count; i++) {
        int deps[16], k = i < n ? 1 : ops->material_deps(g, out[i - n], deps);
        if (i < n)
            deps[0] = mats[i];
        for (int j = 0; j < k; j++) {
            int seen = 0;
            for (int m = 0; m < count && !seen; m++)
                seen = out[m] == deps[j];
            if (!seen && count < cap)
                out[count++] = deps[j];
        }
    }
    return count;
}

/* Names the smaller tables whose values the captures of mat read: the
 * header checksums of their files (0 where one is missing). */
uint64_t tb_deps_id(const game *g, const char *dir, int mat)
{
    int deps[16];
    int n = game_tables(g)->material_deps(g, mat, deps);
    uint64_t id = TB_CHECKSUM_SEED;
    for (int i = 0; i < n; i++) {
        char path[4200];
        tb_header h;
        tb_path(g, dir, deps[i], path, sizeof path);
        FILE *f = util_fopen_regular(path);
        if (f && fread(&h, sizeof h, 1, f) == 1)
            id = tb_checksum_update(id, (const unsigned char *)&h.header_checksum, sizeof h.header_checksum);
        if (f)
            fclose(f);
    }
    return id;
}
