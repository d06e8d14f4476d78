/* api/proof.c - the public API's proof checker (pnsolve.h). */
#include "api.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

pnsolve_status pnsolve_proof_check(const char *path, const char *tb_dir, int *sound, char *summary, size_t slen,
                                   char *err, size_t errlen)
{
    if (!path || !sound)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !path ? "path" : "output");
    *sound = 0;
    errno = 0;
    FILE *in = util_fopen_regular(path);
    if (!in)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s: %s", path, errno ? strerror(errno) : "not a regular file");
    proof_check_options co = { .tb_dir = tb_dir };
    char why[600] = "", said[600] = "";
    *sound = proof_verify(in, &co, said, sizeof said, why, sizeof why) == 0;
    fclose(in);
    if (summary && slen)
        snprintf(summary, slen, "%s", *sound ? said : "");
    if (!*sound)
        pnsolve_api_fail(PNSOLVE_OK, err, errlen, "%s", why);
    return PNSOLVE_OK;
}
