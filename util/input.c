/* util/input.c - strict input: files that cannot hang, lines and numbers
 * read one way everywhere. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int util_open_regular(const char *path, int flags)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    int bad = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (bad) {
        close(fd);
        errno = bad;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

const char *util_open_why(int e) { return e == EINVAL ? "not a regular file" : strerror(e); }

FILE *util_open_input(const char *path, int stdin_ok, char *err, size_t errlen)
{
    if (stdin_ok && strcmp(path, "-") == 0)
        return stdin;
    FILE *f = util_fopen_regular(path);
    if (!f && errno == EINVAL)
        util_error(err, errlen, "%s: not a regular file%s", path, stdin_ok ? " (give '-' to read standard input)" : "");
    else if (!f)
        util_error(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

FILE *util_fopen_regular(const char *path)
{
    int fd = util_open_regular(path, O_RDONLY);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}


void util_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

long util_read_line(FILE *f, char **line, size_t *cap, long *lineno, char *err, size_t errlen)
{
    errno = 0;
    ssize_t n = getline(line, cap, f);
    if (n < 0) {
        if (ferror(f))
            return util_error(err, errlen, "line %ld: cannot be read: %s", *lineno + 1, strerror(errno ? errno : EIO)) - 1;
        return -1;
    }
    ++*lineno;
    if (memchr(*line, 0, (size_t)n))
        return util_error(err, errlen, "line %ld: a NUL byte", *lineno) - 1;
    if (n > 0 && (*line)[n - 1] == '\n')
        (*line)[--n] = 0;
    if (n > 0 && (*line)[n - 1] == '\r')
        (*line)[--n] = 0;
    return (long)n;
}

int util_read_long(const char *text, long lo, long hi, long *out)
{
    const char *d = text && *text == '-' ? text + 1 : text;
    if (!d || *d < '0' || *d > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int util_read_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int util_read_pair(const char *text, char sep, const char *stop, long lo, long hi, long *a, long *b, const char **rest)
{
    char part[2][24];
    const char *at = text;
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        while (at[n] && at[n] != (k ? 0 : sep) && !(stop && strchr(stop, at[n])))
            n++;
        if (n == 0 || n >= sizeof part[k] || (k == 0 && at[n] != sep))
            return -1;
        memcpy(part[k], at, n);
        part[k][n] = 0;
        at += n + (k == 0);
    }
    long x, y;
    if (util_read_long(part[0], lo, hi, &x) != 0 || util_read_long(part[1], lo, hi, &y) != 0)
        return -1;
    if (!rest && *at)
        return -1;
    if (rest)
        *rest = at;
    *a = x;
    *b = y;
    return 0;
}
