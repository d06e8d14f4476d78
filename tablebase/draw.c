/* tablebase/draw.c - random positions of a material, for sampling a table. */
#include "tablebase.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

int tb_draw_position(tb_set *t, const game *g, int mat, uint64_t *rng, game_state *s)
{
    const game_tb_ops *ops = game_tables(g);
    const game_tb_index *ix = tb_index_need(tb_set_index(t), mat);
    if (!ix)
        return -1;
    uint64_t size = ops->size(g, ix, mat);
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t i = util_random(rng) % size;
        ops->unindex(g, ix, mat, i, s);
        if (game_result_of(g, s) == GAME_ONGOING && ops->index(g, ix, s) == i && ops->material_of(g, s) == mat)
            return 0;
    }
    return -1;
}
