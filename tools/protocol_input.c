/* The protocol a command is given: a file, or a directory holding one
 * (protocol_input.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "protocol_input.h"

typedef enum { UNREADABLE, EMPTY, OTHER, TEXT, JSON, JSON_PROTOCOL } kind_t;

/* What a file is, from its first bytes: a text protocol begins with
 * "mpiprof protocol", a JSON one with '{' and names its format
 * "mpiprof-protocol" first (src/write/json.c). */
static kind_t kind_of(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return UNREADABLE;
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    size_t skip = strspn(head, " \t\r\n");
    if (skip == n)
        return EMPTY;
    if (!strncmp(head + skip, "mpiprof protocol", 16))
        return TEXT;
    if (head[skip] != '{')
        return OTHER;
    return strstr(head, "\"mpiprof-protocol\"") ? JSON_PROTOCOL : JSON;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* A file given: JSON as it is (its parser and checks say what is wrong
 * with it), a text protocol through its sibling. */
static int resolve_file(const char *given, mpp_protocol_input_t *in, char *why, size_t size)
{
    int err = 0;
    kind_t kind = kind_of(given);
    if (kind == UNREADABLE)
        err = errno;
    in->text[0] = in->note[0] = '\0';
    snprintf(in->json, sizeof in->json, "%s", given);
    switch (kind) {
    case UNREADABLE:
        snprintf(why, size, "%s: %s", given, strerror(err));
        return -1;
    case EMPTY:
        snprintf(why, size, "%s: empty, not a protocol", given);
        return -1;
    case OTHER:
        snprintf(why, size,
                 "%s: not a protocol (neither a JSON protocol, which begins with '{', nor a text protocol, which "
                 "begins with \"mpiprof protocol\")",
                 given);
        return -1;
    case JSON:
    case JSON_PROTOCOL:
        return 0;
    case TEXT:
        break;
    }
    snprintf(in->text, sizeof in->text, "%s", given);
    snprintf(in->json, sizeof in->json, "%s.json", given);
    FILE *sibling = fopen(in->json, "r");
    if (!sibling) {
        snprintf(why, size,
                 "%s: a text protocol, and its JSON sibling %s cannot be read (%s): the JSON form is read, the text "
                 "rounds every number (write protocols with MPIPROF_FORMAT=both, json or all)",
                 given, in->json, strerror(errno));
        return -1;
    }
    fclose(sibling);
    snprintf(in->note, sizeof in->note, " (the JSON sibling of the text protocol %s)", given);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The names of the directory's files that are protocols: a text protocol
 * and its JSON sibling count once (as the text).  Sorted; NULL when the
 * directory cannot be read or memory runs out (errno). */
static char **protocols_in(const char *dir, int *count, int *files)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL, path[8192];
    int n = 0, room = 0, lost = 0;
    struct dirent *e;
    *files = 0;
    while (!lost && (e = readdir(d))) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        ++*files;
        kind_t kind = kind_of(path);
        if (kind != TEXT && kind != JSON_PROTOCOL)
            continue;
        if (n == room) {
            room = room ? 2 * room : 16;
            char **grown = realloc(names, (size_t)room * sizeof *names);
            lost = !grown;
            names = grown ? grown : names;
        }
        if (!lost && !(lost = !(names[n] = strdup(e->d_name))))
            n++;
    }
    closedir(d);
    if (lost) { /* a count of some of them would be wrong */
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        errno = ENOMEM;
        return NULL;
    }
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, by_name);
    /* a JSON protocol whose text protocol is here too is that one's sibling */
    int kept = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        int sibling = 0;
        for (int j = 0; ends_with(names[i], ".json") && j < n; j++)
            sibling |= j != i && strlen(names[j]) == len - 5 && !strncmp(names[j], names[i], len - 5);
        if (sibling)
            free(names[i]);
        else
            names[kept++] = names[i];
    }
    *count = kept;
    return names ? names : calloc(1, sizeof *names);
}

/* A directory given: the one protocol in it. */
static int resolve_directory(const char *given, mpp_protocol_input_t *in, char *why, size_t size)
{
    int n = 0, files = 0;
    char **names = protocols_in(given, &n, &files);
    if (!names) {
        snprintf(why, size, "%s: %s", given, strerror(errno));
        return -1;
    }
    int rc = -1;
    if (n == 1) {
        char path[8192];
        snprintf(path, sizeof path, "%s%s%s", given, ends_with(given, "/") ? "" : "/", names[0]);
        rc = resolve_file(path, in, why, size);
    } else if (n == 0) {
        snprintf(why, size,
                 "%s: a directory without a protocol (of its %d files, none is a text or JSON protocol); give a "
                 "protocol, or a directory that holds one",
                 given, files);
    } else {
        size_t at = (size_t)snprintf(why, size, "%s: a directory of %d protocols (", given, n);
        for (int i = 0; i < n && at < size; i++)
            at += (size_t)snprintf(why + at, size - at, "%s%s", i ? ", " : "", names[i]);
        if (at < size)
            snprintf(why + at, size - at, "): give one of them");
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int mpp_protocol_input(const char *given, mpp_protocol_input_t *in, char *why, size_t size)
{
    struct stat st;
    if (stat(given, &st) == 0 && S_ISDIR(st.st_mode)) {
        int rc = resolve_directory(given, in, why, size);
        if (rc == 0 && !in->note[0])
            snprintf(in->note, sizeof in->note, " (the protocol in the directory %s)", given);
        return rc;
    }
    return resolve_file(given, in, why, size);
}
