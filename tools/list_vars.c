/* mpiprof-view --list-vars (list_vars.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context/config.h"
#include "context/config_unknown.h"
#include "list_vars.h"
#include "util/warnings.h"

enum { WIDTH = 78, INDENT = 4 };

/* `text` as lines of at most WIDTH columns (a longer word on a line of its
 * own), each indented by INDENT. */
static void wrapped(FILE *out, const char *text)
{
    size_t column = 0;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (column && column + 1 + word > WIDTH) {
            fputc('\n', out);
            column = 0;
        }
        if (!column)
            column = (size_t)fprintf(out, "%*s", INDENT, "");
        else
            column += (size_t)fprintf(out, " ");
        column += fwrite(text, 1, word, out);
        text += word;
        text += strspn(text, " "); /* the table's two blanks after a full stop become one */
    }
    fputc('\n', out);
}

/* This environment's value of the variable, as the library takes it;
 * shown with its control characters as '?', at most 200 of them. */
static void print_value(FILE *out, const mpp_config_t *cfg, int i, const char *set)
{
    if (!set) {
        fprintf(out, "    value:    not set (the default)\n");
        return;
    }
    char shown[208];
    size_t n = 0;
    for (; set[n] && n < 200; n++)
        shown[n] = (unsigned char)set[n] < 0x20 || set[n] == 0x7f ? '?' : set[n];
    snprintf(shown + n, sizeof shown - n, "%s", set[n] ? "..." : "");
    if (cfg->is_default[i])
        fprintf(out, "    value:    '%s' is not valid: the default is used\n", shown);
    else
        fprintf(out, "    value:    %s\n", shown);
}

int mpp_list_vars(FILE *out)
{
    mpp_config_t cfg;
    mpp_warnings_set_echo(0); /* a malformed value is said in its entry */
    mpp_config_parse(&cfg, NULL);
    for (int i = 0; i < MPP_NVARS; i++) {
        const mpp_var_info_t *v = &mpp_vars[i];
        char name[64];
        snprintf(name, sizeof name, "MPIPROF_%s", v->name);
        fprintf(out, "%s%s\n    default:  %s\n", i ? "\n" : "", name, v->default_value);
        print_value(out, &cfg, i, getenv(name));
        fprintf(out, "    accepted: %s\n", v->accepted);
        wrapped(out, v->description);
    }
    int unknown = 0;
    for (char **e = environ; *e; e++) {
        char name[128];
        size_t len = strcspn(*e, "=");
        if (strncmp(*e, "MPIPROF_", 8) != 0 || len >= sizeof name)
            continue;
        memcpy(name, *e, len);
        name[len] = '\0';
        if (mpp_config_known(name))
            continue;
        char text[512];
        mpp_config_unknown_text(name, text, sizeof text);
        fprintf(out, "%s%s\n", unknown++ ? "" : "\nIn this environment, but not mpiprof's:\n", text);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}
