/* tablebase/materials.c - which tables a set of tables needs. */
#include "tb_internal.h"

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
