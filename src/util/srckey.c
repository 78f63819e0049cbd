#include <stdlib.h>
#include <string.h>

#include "srckey.h"

static char *field(const char **p, char stop1, char stop2)
{
    const char *s = *p;
    size_t n = strcspn(s, (char[]){stop1, stop2, '\0'});
    char *out = strndup(s, n);
    *p = s + n;
    return out;
}

int mpp_srckey_parse(const char *key, char **function, mpp_frame_t **frames)
{
    const char *p = key;
    int n = 0;
    for (const char *q = key; *q; q++)
        n += *q == MPP_RS;
    *function = field(&p, MPP_RS, MPP_RS);
    *frames = calloc(n ? (size_t)n : 1, sizeof **frames);
    for (int i = 0; i < n && *p == MPP_RS; i++) {
        mpp_frame_t *f = &(*frames)[i];
        p++;
        f->path = field(&p, MPP_US, MPP_RS);
        if (*p == MPP_US) p++;
        char *line = field(&p, MPP_US, MPP_RS);
        f->line = atoi(line);
        free(line);
        if (*p == MPP_US) p++;
        f->function = field(&p, MPP_US, MPP_RS);
        if (*p == MPP_US) p++;
        f->text = field(&p, MPP_RS, MPP_RS);
        const char *base = strrchr(f->path, '/');
        f->file = strdup(base ? base + 1 : f->path);
    }
    return n;
}

void mpp_srckey_free_frames(mpp_frame_t *frames, int n)
{
    for (int i = 0; i < n; i++) {
        free(frames[i].path);
        free(frames[i].function);
        free(frames[i].file);
        free(frames[i].text);
    }
    free(frames);
}
