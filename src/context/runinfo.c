#include <stdio.h>
#include <string.h>
#include <time.h>

#include "context/runinfo.h"

void mpp_now_iso8601(char *out, unsigned size)
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(out, size, "%Y-%m-%dT%H:%M:%S%z", &tm);
}

void mpp_read_command_line(char *line, unsigned line_size, char *name, unsigned name_size)
{
    char buf[4096];
    size_t n = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    const char *argv0 = buf;
    const char *slash = strrchr(argv0, '/');
    snprintf(name, name_size, "%s", n ? (slash ? slash + 1 : argv0) : "program");
    for (size_t i = 0; i + 1 < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    snprintf(line, line_size, "%s", n ? buf : "(unknown)");
}
