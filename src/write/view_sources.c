/* The source lines of the page: a few lines around the line of every frame
 * of every SRC point and of every correctness finding (both sides), read
 * when the page is written, each file once.  A file that cannot be read is
 * said to be missing, with why and where it was looked for, never
 * skipped. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "write/process_data.h"
#include "write/view.h"

/* Longest line kept: a generated file's line of megabytes stays out. */
#define LINE_KEPT 400

/* The lines wanted of each frame of `stack`: path -> {"n": true}. */
static void want_stack(json_t *stack, json_t *wanted)
{
    json_t *f;
    size_t j;
    json_array_foreach(stack, j, f)
    {
        json_t *line = json_object_get(f, "line");
        const char *path = json_string_value(json_object_get(f, "path"));
        if (!json_is_integer(line) || !path || !*path)
            continue; /* an unresolved frame: module+0xOFFSET, no source */
        json_t *lines = json_object_get(wanted, path);
        if (!lines) {
            lines = json_object();
            json_object_set_new(wanted, path, lines);
        }
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(line));
        json_object_set(lines, key, json_true());
    }
}

/* The lines wanted of the page: every frame of every SRC point, and of
 * every correctness finding and its other side (the Correctness panel
 * shows their stacks too; a finding may have no SRC point). */
static void wanted_lines(json_t *doc, json_t *wanted)
{
    json_t *in, *s;
    size_t i, k;
    json_array_foreach(json_object_get(doc, "intervals"), i, in) json_array_foreach(json_object_get(in, "src"), k, s)
        want_stack(json_object_get(s, "stack"), wanted);
    json_array_foreach(json_object_get(json_object_get(doc, "correctness"), "findings"), i, s)
    {
        want_stack(json_object_get(s, "stack"), wanted);
        want_stack(json_object_get(json_object_get(s, "other"), "stack"), wanted);
    }
}

static int starts_with_dir(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return n && !strncmp(path, dir, n) && path[n] == '/';
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The places a frame's file is looked for, in order (mpiprof-view(1),
 * SOURCES): without a source directory, the path itself, a relative one
 * from the run's working directory; with one, the path's part below the
 * working directory (or the relative path) under it, then its file name
 * under it, then the path itself. */
static int candidates(const char *path, const char *cwd, const char *source_dir, char out[][PATH_MAX])
{
    int n = 0;
    if (!source_dir) {
        if (path[0] == '/' || !cwd || !*cwd)
            snprintf(out[n++], PATH_MAX, "%s", path);
        else
            snprintf(out[n++], PATH_MAX, "%s/%s", cwd, path);
        return n;
    }
    if (path[0] != '/')
        snprintf(out[n++], PATH_MAX, "%s/%s", source_dir, path);
    else if (cwd && starts_with_dir(path, cwd))
        snprintf(out[n++], PATH_MAX, "%s%s", source_dir, path + strlen(cwd) - (cwd[strlen(cwd) - 1] == '/'));
    snprintf(out[n++], PATH_MAX, "%s/%s", source_dir, base_name(path));
    if (path[0] == '/')
        snprintf(out[n++], PATH_MAX, "%s", path);
    return n;
}

static json_t *missing(char tried[][PATH_MAX], int ntried, const char *reason)
{
    char text[3 * PATH_MAX + 256];
    size_t at = (size_t)snprintf(text, sizeof text, "cannot be read (%s); looked for at ", reason);
    for (int t = 0; t < ntried && at < sizeof text; t++)
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%s", t ? ", " : "", tried[t]);
    return json_pack("{s:o}", "missing", mpp_json_text(text));
}

/* The wanted lines of one file, with `context` lines either side. */
static json_t *excerpt(FILE *f, const char *file, json_t *wanted, int context)
{
    /* the lines to keep: a line is kept when a wanted line is near */
    long last = 0;
    const char *key;
    json_t *v;
    json_object_foreach(wanted, key, v)
    {
        long line = strtol(key, NULL, 10);
        if (line > last)
            last = line;
    }
    last += context;
    unsigned char *keep = calloc((size_t)last + 2, 1);
    json_t *lines = json_object();
    if (!keep || !lines) {
        free(keep);
        json_decref(lines);
        return json_pack("{s:s}", "missing", "out of memory while reading it");
    }
    json_object_foreach(wanted, key, v)
    {
        long line = strtol(key, NULL, 10);
        for (long l = line - context; l <= line + context; l++)
            if (l >= 1 && l <= last)
                keep[l] = 1;
    }
    char *text = NULL;
    size_t cap = 0;
    ssize_t len;
    long number = 0;
    while ((len = getline(&text, &cap, f)) >= 0) {
        number++;
        if (number > last || !keep[number])
            continue;
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        if (len > LINE_KEPT)
            strcpy(text + LINE_KEPT - 3, "...");
        char name[32];
        snprintf(name, sizeof name, "%ld", number);
        json_object_set_new(lines, name, mpp_json_text(text));
    }
    free(text);
    free(keep);
    return json_pack("{s:o, s:I, s:o}", "file", mpp_json_text(file), "line_count", (json_int_t)number, "lines",
                     lines);
}

json_t *mpp_view_sources(json_t *doc, const mpp_view_options_t *options)
{
    json_t *wanted = json_object(), *sources = json_object();
    const char *cwd = json_string_value(json_object_get(json_object_get(doc, "parameters"), "working_directory"));
    wanted_lines(doc, wanted);
    const char *path;
    json_t *lines;
    json_object_foreach(wanted, path, lines)
    {
        char tried[3][PATH_MAX];
        int ntried = candidates(path, cwd, options ? options->source_dir : NULL, tried);
        FILE *f = NULL;
        int t = 0;
        const char *reason = NULL; /* why the first place failed */
        for (; t < ntried && !f; t++) {
            struct stat st;
            f = fopen(tried[t], "r");
            if (!f && !reason)
                reason = strerror(errno);
            if (f && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))) {
                fclose(f), f = NULL; /* a directory or a device: no source file */
                if (!reason)
                    reason = "not a regular file";
            }
        }
        if (!f) {
            json_object_set_new(sources, path, missing(tried, ntried, reason));
            continue;
        }
        json_object_set_new(sources, path, excerpt(f, tried[t - 1], lines, MPP_VIEW_CONTEXT_LINES));
        fclose(f);
    }
    json_decref(wanted);
    return sources;
}
