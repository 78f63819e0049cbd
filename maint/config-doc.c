/* Print the ENVIRONMENT section of mpiprof(7) from the configuration table,
 * so the manual and the parser cannot drift apart. */
#include <stdio.h>

#include "context/config.h"

static void roff_escaped(const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else if (*s == ',' && s[1] && s[1] != ' ')
            fputs(",\\:", stdout); /* a list such as lat_intra=...,bw_intra=... may break there */
        else
            putchar(*s);
    }
}

int main(void)
{
    puts(".SH ENVIRONMENT");
    puts("Every variable is optional.  A malformed value gets one warning (the variable, the value,");
    puts("what is accepted and the default used instead) and the default; the program always runs on.");
    puts(".B mpiprof\\-view \\-\\-list\\-vars");
    puts("lists them from the same table, with the values of the environment it runs in.");
    puts("A variable named MPIPROF_* that is none of these is warned about (see CONFIGURATION ERRORS).");
    for (int i = 0; i < MPP_NVARS; i++) {
        const mpp_var_info_t *v = &mpp_vars[i];
        printf(".TP\n.B MPIPROF_%s\n", v->name);
        roff_escaped(v->description);
        fputs("\n.br\nAccepted: ", stdout);
        roff_escaped(v->accepted);
        fputs(".  Default: \\fB", stdout);
        roff_escaped(v->default_value);
        puts("\\fR.");
    }
    return 0;
}
