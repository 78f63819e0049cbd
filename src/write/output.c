/* Where the protocol goes, and writing it atomically: a reader never sees
 * half a protocol, and an existing file is never replaced unless asked. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/warnings.h"
#include "write/view.h"
#include "write/writer.h"

static char run_unique[64]; /* %u of the run, the same on every process */

void mpp_output_unique(char *out, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    snprintf(out, size, "%04d%02d%02d-%02d%02d%02d-%ld", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (long)getpid());
}

void mpp_output_set_unique(const char *unique) { snprintf(run_unique, sizeof run_unique, "%s", unique); }

/* Expand the template into out; 0, or -1 when the path did not fit. */
static int expand(const char *t, const char *program, int nprocs, const char *hostname, char *out, size_t size)
{
    size_t j = 0, i = 0;
    char unique[64];
    if (run_unique[0])
        snprintf(unique, sizeof unique, "%s", run_unique);
    else
        mpp_output_unique(unique, sizeof unique);
    for (; t[i] && j + 1 < size; i++) {
        char piece[300] = "";
        if (t[i] != '%' || !t[i + 1]) {
            out[j++] = t[i];
            continue;
        }
        switch (t[++i]) {
        case 'p':
            snprintf(piece, sizeof piece, "%s", program);
            break;
        case 'n':
            snprintf(piece, sizeof piece, "%d", nprocs);
            break;
        case 'u':
            snprintf(piece, sizeof piece, "%s", unique);
            break;
        case 'h':
            snprintf(piece, sizeof piece, "%s", hostname);
            break;
        case '%':
            snprintf(piece, sizeof piece, "%%");
            break;
        default:
            mpp_warn("MPIPROF_OUTPUT='%s' has an unknown placeholder '%%%c' (accepted: %%p %%n %%u %%h %%%%); "
                     "it is kept as written",
                     t, t[i]);
            snprintf(piece, sizeof piece, "%%%c", t[i]);
        }
        size_t k = 0;
        for (; piece[k] && j + 1 < size; k++)
            out[j++] = piece[k];
        if (piece[k])
            break; /* cut: reported below */
    }
    out[j] = '\0';
    return t[i] ? -1 : 0;
}

/* Longest file name the writer creates: room is left for ".json",
 * ".tmp.<pid>" and a numbered suffix within the file system's NAME_MAX. */
#define OUTPUT_NAME_MAX (NAME_MAX - 32)

/* path = text, when it fits (PATH_MAX); 0 or -1. */
static int set_path(char *path, const char *text)
{
    size_t n = strlen(text);
    if (n >= PATH_MAX)
        return -1;
    memcpy(path, text, n + 1);
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether a file can be created in the directory of `path`: tried, not
 * guessed from permission bits (root passes access() for directories it
 * cannot write to, such as /proc or a read-only mount). */
static int directory_writable(const char *path)
{
    char dir[PATH_MAX];
    if ((size_t)snprintf(dir, sizeof dir, "%s", path) >= sizeof dir)
        return 0;
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
        return 0;
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/.mpiprof-probe-XXXXXX", dir) >= sizeof probe)
        return 0;
    int fd = mkstemp(probe);
    if (fd < 0)
        return 0;
    close(fd);
    unlink(probe);
    return 1;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The files of `format` at `path` (suffixes[i] for bit 1 << i). */
static const char *const suffixes[] = {"", ".json", ".html"};

/* The first file of `format` at `path` that exists, its suffix; NULL: none. */
static const char *taken(const char *path, int format)
{
    for (int i = 0; i < 3; i++) {
        char file[PATH_MAX + 8];
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        if ((format & (1 << i)) && exists(file))
            return suffixes[i];
    }
    return NULL;
}

int mpp_output_path(const char *template_text, const char *program, int nprocs, const char *hostname, int overwrite,
                    int format, char *out, size_t size)
{
    char path[PATH_MAX];
    const char *default_template = mpp_vars[MPP_CFG_OUTPUT].default_value;
    if (expand(template_text, program, nprocs, hostname, path, sizeof path) != 0) {
        char shown[PATH_MAX];
        memcpy(shown, path, sizeof shown);
        expand(default_template, program, nprocs, hostname, path, sizeof path);
        mpp_warn("MPIPROF_OUTPUT='%.80s' expands to a path longer than %d bytes ('%.80s...'); the protocol is "
                 "written to '%s' instead",
                 template_text, PATH_MAX - 1, shown, path);
    }
    if (path[0] && is_directory(path)) {
        char name[NAME_MAX + 1], inside[2 * PATH_MAX];
        expand(default_template, program, nprocs, hostname, name, sizeof name);
        snprintf(inside, sizeof inside, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", name);
        mpp_warn("MPIPROF_OUTPUT: '%s' is a directory; the protocol is written into it: '%s'", path, inside);
        if (set_path(path, inside) != 0)
            return -1;
    }
    /* A file name no file system accepts (a long %p, several of them): cut. */
    size_t name_length = strlen(base_name(path));
    if (name_length > OUTPUT_NAME_MAX) {
        char whole[PATH_MAX];
        snprintf(whole, sizeof whole, "%s", path);
        path[strlen(path) - name_length + OUTPUT_NAME_MAX] = '\0';
        /* the new path first: a warning is cut at MPP_WARNING_LEN */
        mpp_warn("MPIPROF_OUTPUT: the protocol is written to '%s', as the file name of '%.40s...' (%zu bytes) "
                 "is longer than %d bytes",
                 path, base_name(whole), name_length, OUTPUT_NAME_MAX);
    }
    if (!directory_writable(path)) {
        const char *base = base_name(path);
        char fallback[PATH_MAX];
        const char *chosen = NULL;
        /* base is at most OUTPUT_NAME_MAX bytes long: both fit */
        if (directory_writable("./x"))
            snprintf(fallback, sizeof fallback, "%.*s", OUTPUT_NAME_MAX, base), chosen = "the working directory";
        else
            snprintf(fallback, sizeof fallback, "/tmp/%.*s", OUTPUT_NAME_MAX, base), chosen = "/tmp";
        mpp_warn("MPIPROF_OUTPUT: the directory of '%s' does not exist or is not writable; "
                 "the protocol goes to %s instead: %s",
                 path, chosen, fallback);
        set_path(path, fallback);
        if (!directory_writable(path))
            return -1;
    }
    if (!overwrite && taken(path, format)) {
        char numbered[2 * PATH_MAX];
        int n = 1;
        for (; n < 10000; n++) {
            snprintf(numbered, sizeof numbered, "%s.%d", path, n);
            if (!taken(numbered, format))
                break;
        }
        if (n == 10000) /* every number taken */
            snprintf(numbered, sizeof numbered, "%s.p%ld", path, (long)getpid());
        mpp_warn("MPIPROF_OUTPUT: '%s%s' exists and MPIPROF_OVERWRITE is off; the protocol is written to '%s'", path,
                 taken(path, format), numbered);
        if (set_path(path, numbered) != 0)
            return -1;
    }
    snprintf(out, size, "%s", path);
    return 0;
}

/* The page of the protocol: the JSON document through the page writer,
 * as mpiprof-view makes it from the JSON file (named as the protocol). */
static int write_page(FILE *f, json_t *doc, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *label = slash ? slash + 1 : path;
    char why[1200];
    mpp_view_options_t options = {.source_dir = NULL};
    if (mpp_view_write(f, &doc, &label, 1, &options, why, sizeof why) != 0) {
        mpp_warn("the HTML page of the protocol is not written: %s", why);
        return -1;
    }
    return 0;
}

/* One file of the protocol: `kind` is a single MPP_FORMAT_* bit. */
static int write_atomically(const char *path, const mpp_report_t *r, int kind, json_t *doc, const char *protocol)
{
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        mpp_warn("cannot create '%s': %s; the protocol is not written there", tmp, strerror(errno));
        return -1;
    }
    /* A protocol of thousands of SRC points is megabytes: written in large
     * pieces, not stdio's 4 KiB (one system call each). */
    char *buffer = malloc(1 << 20);
    if (buffer)
        setvbuf(f, buffer, _IOFBF, 1 << 20);
    int rc = 0;
    if (kind == MPP_FORMAT_JSON)
        rc = mpp_dump_json(f, doc);
    else if (kind == MPP_FORMAT_HTML)
        rc = write_page(f, doc, protocol);
    else
        mpp_write_text(f, r);
    int closed = fclose(f);
    free(buffer);
    if (closed != 0 || rc != 0 || rename(tmp, path) != 0) {
        if (rc == 0 || kind != MPP_FORMAT_HTML)
            mpp_warn("writing '%s' failed: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int mpp_write_protocol(const mpp_report_t *r, const char *path, int format)
{
    int rc = 0;
    if (format & MPP_FORMAT_TEXT)
        rc |= write_atomically(path, r, MPP_FORMAT_TEXT, NULL, path);
    if (!(format & (MPP_FORMAT_JSON | MPP_FORMAT_HTML)))
        return rc;
    /* one document for the JSON protocol and the page */
    json_t *doc = mpp_protocol_json(r);
    if (!doc) {
        mpp_warn("out of memory while making the JSON protocol; it is not written");
        return -1;
    }
    for (int kind = MPP_FORMAT_JSON; kind <= MPP_FORMAT_HTML; kind <<= 1) {
        char file[PATH_MAX + 8];
        snprintf(file, sizeof file, "%s%s", path, kind == MPP_FORMAT_JSON ? ".json" : ".html");
        if (format & kind)
            rc |= write_atomically(file, r, kind, doc, path);
    }
    json_decref(doc);
    return rc;
}

static int same_frame(const mpp_frame_t *a, const mpp_frame_t *b)
{
    return !strcmp(a->text, b->text) && !strcmp(a->path, b->path);
}

/* Where SRC point s is, for one line: its first frame, and when other SRC
 * points of its function share that frame (one line reached from different
 * callers), the first frame where its stack differs from all of theirs
 * ("a <- b", or "a <- ... <- d" past frames they share too). */
void mpp_report_site(const mpp_reduced_t *rd, const mpp_reduced_src_t *s, char *out, size_t size)
{
    if (!s->nframes) {
        snprintf(out, size, "?");
        return;
    }
    int shown = 1; /* frames needed to tell s apart */
    for (int o = 0; o < rd->nsrcs; o++) {
        const mpp_reduced_src_t *x = &rd->srcs[o];
        if (x == s || !x->nframes || strcmp(x->function, s->function) || !same_frame(&x->frames[0], &s->frames[0]))
            continue;
        int k = 1;
        while (k < s->nframes && k < x->nframes && same_frame(&x->frames[k], &s->frames[k]))
            k++;
        if (k + 1 > shown)
            shown = k + 1;
    }
    if (shown > s->nframes) /* its whole stack is the start of another's */
        shown = s->nframes;
    snprintf(out, size, "%s%s%s%s", s->frames[0].text, shown > 2 ? " <- ..." : "", shown > 1 ? " <- " : "",
             shown > 1 ? s->frames[shown - 1].text : "");
}
