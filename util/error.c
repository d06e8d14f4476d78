/* util/error.c - one-line reasons, and text made safe to quote in them. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>

int util_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

char *util_escape(const char *text, char *out, size_t len)
{
    size_t n = 0;
    if (!len)
        return out;
    for (; *text && n + 5 < len; text++) {
        unsigned char c = (unsigned char)*text;
        if (c < 0x20 || c == 0x7f)
            n += (size_t)snprintf(out + n, len - n, "\\x%02x", c);
        else
            out[n++] = (char)c;
    }
    out[n] = 0;
    return out;
}
