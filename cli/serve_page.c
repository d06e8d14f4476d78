/* cli/serve_page.c - the explorer's page (cli/page/), built into the
 * binary so that the server needs no installed files and fetches nothing
 * from elsewhere: each file's bytes by the assembler's .incbin, which the
 * Makefile's dependency on cli/page/ keeps current. */
#include "serve.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_FILE(sym, path)                                                                                        \
    __asm__(".section .rodata\n.global " #sym "\n.type " #sym ", @object\n.balign 16\n" #sym ":\n.incbin \"" path \
            "\"\n.global " #sym "_end\n" #sym "_end:\n.byte 0\n.previous\n");                                       \
    extern const char sym[], sym##_end[];

PAGE_FILE(page_index_html, "cli/page/index.html")
PAGE_FILE(page_app_js, "cli/page/app.js")
PAGE_FILE(page_style_css, "cli/page/style.css")

int serve_page(const char *path, serve_reply *r)
{
    static const struct {
        const char *path, *type;
        const char *start, *end;
    } files[] = {
        { "/", "text/html; charset=utf-8", page_index_html, page_index_html_end },
        { "/index.html", "text/html; charset=utf-8", page_index_html, page_index_html_end },
        { "/app.js", "text/javascript; charset=utf-8", page_app_js, page_app_js_end },
        { "/style.css", "text/css; charset=utf-8", page_style_css, page_style_css_end },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(path, files[i].path) == 0) {
            size_t len = (size_t)(files[i].end - files[i].start);
            r->body = malloc(len ? len : 1);
            if (!r->body)
                return -1;
            memcpy(r->body, files[i].start, len);
            r->len = len;
            r->status = 200;
            r->type = files[i].type;
            return 0;
        }
    return -1;
}
