#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/srckey.h"

/* Length of the field at s: up to one of the stops or the end. */
static size_t field_length(const char *s, char stop1, char stop2) { return strcspn(s, (char[]){stop1, stop2, '\0'}); }

/* The field at *p copied to *store (NUL-terminated), both advanced. */
static char *take(const char **p, char **store, char stop1, char stop2)
{
    size_t n = field_length(*p, stop1, stop2);
    char *out = *store;
    memcpy(out, *p, n);
    out[n] = '\0';
    *store += n + 1;
    *p += n;
    return out;
}

/* The frames and their strings are one allocation (an SRC point's key is
 * parsed for every SRC point of every protocol: 10^4 and more), freed by
 * mpp_srckey_free_frames; `function` is allocated alone. */
int mpp_srckey_parse(const char *key, char **function, mpp_frame_t **frames)
{
    int n = 0;
    for (const char *q = strchr(key, MPP_RS); q; q = strchr(q + 1, MPP_RS))
        n++;
    size_t flen = field_length(key, MPP_RS, MPP_RS);
    *function = strndup(key, flen);
    const char *p = key + flen;
    /* each frame's five fields, a NUL after each, within the rest of the key */
    size_t strings = strlen(p) + 5 * (size_t)n + 1;
    size_t array = (n ? (size_t)n : 1) * sizeof **frames;
    *frames = calloc(1, array + strings);
    if (!*frames)
        return 0;
    char *store = (char *)*frames + array;
    for (int i = 0; i < n && *p == MPP_RS; i++) {
        mpp_frame_t *f = &(*frames)[i];
        p++;
        f->path = take(&p, &store, MPP_US, MPP_RS);
        if (*p == MPP_US)
            p++;
        f->line = atoi(take(&p, &store, MPP_US, MPP_RS));
        if (*p == MPP_US)
            p++;
        f->function = take(&p, &store, MPP_US, MPP_RS);
        if (*p == MPP_US)
            p++;
        f->text = take(&p, &store, MPP_US, MPP_RS);
        if (*p == MPP_US)
            p++;
        f->origin = take(&p, &store, MPP_RS, MPP_RS);
        const char *base = strrchr(f->path, '/');
        f->file = base ? (char *)base + 1 : f->path;
    }
    return n;
}

void mpp_srckey_free_frames(mpp_frame_t *frames, int n)
{
    (void)n; /* one allocation with its strings */
    free(frames);
}

/* The function field (the third) of the frame at f, its length in *n. */
static const char *function_field(const char *f, size_t *n)
{
    for (int k = 0; k < 2 && f; k++) {
        f = strchr(f, MPP_US);
        f = f ? f + 1 : NULL;
    }
    *n = f ? field_length(f, MPP_US, MPP_RS) : 0;
    return f ? f : "";
}

/* The function field f (n bytes) names `name`, with or without a symbol
 * version ("__libc_start_main@GLIBC_2.2.5"). */
static int named(const char *f, size_t n, const char *name)
{
    const char *at = memchr(f, '@', n);
    if (at)
        n = (size_t)(at - f);
    return n == strlen(name) && !strncmp(f, name, n);
}

int mpp_srckey_stack_end(const char *record)
{
    /* the C library's names, with and without its internal aliases */
    static const char *const runtime[] = {"start_thread",
                                          "clone",
                                          "clone3",
                                          "__clone",
                                          "__clone3",
                                          "__GI___clone",
                                          "__GI___clone3",
                                          "__clone_internal",
                                          "__libc_start_call_main",
                                          "__libc_start_main",
                                          "__libc_start_main_impl",
                                          "__libc_start_main_alias_2",
                                          "_start"};
    const char *last = strrchr(record, MPP_RS);
    size_t n;
    const char *f = function_field(last ? last + 1 : record, &n);
    if (named(f, n, "main") || named(f, n, "MAIN__"))
        return MPP_STACK_ENTRY;
    for (size_t i = 0; i < sizeof runtime / sizeof *runtime; i++)
        if (named(f, n, runtime[i]))
            return MPP_STACK_RUNTIME;
    return MPP_STACK_GOES_ON;
}

void mpp_srckey_record_text(const char *record, char *out, size_t size)
{
    size_t at = 0;
    if (size)
        out[0] = '\0';
    for (const char *f = record; f && at < size; f = strchr(f, MPP_RS), f = f ? f + 1 : NULL) {
        const char *text = f;
        for (int k = 0; k < 3 && text; k++) { /* the fourth field */
            text = strchr(text, MPP_US);
            text = text && text < f + field_length(f, MPP_RS, MPP_RS) ? text + 1 : NULL;
        }
        if (!text)
            text = f; /* not a frame record ("??") */
        int wrote =
            snprintf(out + at, size - at, "%s%.*s", at ? " <- " : "", (int)field_length(text, MPP_US, MPP_RS), text);
        if (wrote < 0)
            break;
        at += (size_t)wrote;
    }
}

const char *mpp_srckey_address_end(const char *frame)
{
    for (;;) {
        const char *end = frame + field_length(frame, MPP_RS, MPP_RS), *origin = frame;
        for (int k = 0; k < 4 && origin; k++) { /* the fifth field */
            origin = memchr(origin, MPP_US, (size_t)(end - origin));
            origin = origin ? origin + 1 : NULL;
        }
        if (!*end || !origin || (size_t)(end - origin) != strlen(MPP_ORIGIN_INLINED) ||
            strncmp(origin, MPP_ORIGIN_INLINED, (size_t)(end - origin)) != 0)
            return end;
        frame = end + 1;
    }
}
