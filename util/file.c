/* util/file.c - files written all or nothing, and outputs that never block. */
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int util_file_create(util_file *f, const char *path, const char *mode, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (snprintf(f->path, sizeof f->path, "%s", path) >= (int)sizeof f->path)
        return util_error(err, errlen, "%.200s...: path too long", path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* renaming over a device would replace it: written in place */
        if (!(f->f = util_open_output(path, err, errlen)))
            return -1;
        f->direct = 1;
        return 0;
    }
    /* the process id keeps two processes writing one file apart */
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp.%ld", path, (long)getpid());
    if (!(f->f = fopen(f->tmp, mode)))
        return util_error(err, errlen, "%s: %s", f->tmp, strerror(errno));
    return 0;
}

int util_file_commit(util_file *f, int keep, char *err, size_t errlen)
{
    int werr = 0;
    if (!f->f)
        return keep ? util_error(err, errlen, "%s: not open", f->path) : 0;
    /* the disk's own words (no space left, file too large) where it refused */
    if (keep && (fflush(f->f) != 0 || (!f->direct && fsync(fileno(f->f)) != 0)))
        werr = errno;
    if (fclose(f->f) != 0 && !werr)
        werr = errno;
    f->f = NULL;
    if (f->direct)
        return keep && werr ? util_error(err, errlen, "%s: %s", f->path, strerror(werr)) : 0;
    if (keep && !werr && rename(f->tmp, f->path) == 0)
        return 0;
    if (keep && !werr)
        werr = errno;
    unlink(f->tmp);
    return keep ? util_error(err, errlen, "%s: %s", f->path, strerror(werr ? werr : EIO)) : 0;
}


FILE *util_open_output(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
        util_error(err, errlen, "%s: not a regular file or a character device", path);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        util_error(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

/* The identity of the file path names or would make: (device, inode) of
 * the file, or of its directory with *name its last component. */
static int file_id(const char *path, struct stat *st, const char **name, char *dir, size_t dirlen)
{
    *name = NULL;
    if (stat(path, st) == 0)
        return 1;
    if (errno != ENOENT || snprintf(dir, dirlen, "%s", path) >= (int)dirlen)
        return 0;
    const char *slash = strrchr(path, '/');
    *name = slash ? slash + 1 : path;
    if (slash)
        dir[slash - path == 0 ? 1 : slash - path] = 0;
    else
        snprintf(dir, dirlen, ".");
    return stat(dir, st) == 0 ? 2 : 0;
}

int util_same_file(const char *a, const char *b)
{
    if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-"))
        return 0;
    struct stat sa, sb;
    const char *na, *nb;
    char da[4096], db[4096];
    int ka = file_id(a, &sa, &na, da, sizeof da), kb = file_id(b, &sb, &nb, db, sizeof db);
    if (!ka || ka != kb || sa.st_dev != sb.st_dev || sa.st_ino != sb.st_ino)
        return 0;
    return ka == 1 || strcmp(na, nb) == 0;
}
