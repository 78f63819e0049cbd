/* The command-line conventions of the commands written in C (cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "autoconf.h"
#include "cli.h"

/* Values no command uses for an option of its own (getopt's are chars). */
enum { OPT_HELP = 0x1001, OPT_VERSION = 0x1002 };

enum { MAX_OPTIONS = 32 };

static void print_error(const mpp_cli_t *cli, const char *fmt, va_list ap)
{
    if (cli->silent)
        return;
    fprintf(stderr, "%s: ", cli->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (%s --help gives the usage)\n", cli->name);
}

int mpp_cli_error(const mpp_cli_t *cli, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error(cli, fmt, ap);
    va_end(ap);
    return 2;
}

/* The option as the user wrote it, without a value after '='. */
static void written(const char *arg, char *out, size_t size)
{
    snprintf(out, size, "%s", arg);
    out[strcspn(out, "=")] = '\0';
}

/* What getopt_long refused ('?' or ':' for a missing argument), said. */
static int refuse(const mpp_cli_t *cli, int c, int argc, char **argv)
{
    const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    char name[128];
    int is_long = !strncmp(arg, "--", 2);
    if (is_long)
        written(arg, name, sizeof name);
    else
        snprintf(name, sizeof name, "-%c", optopt);
    if (c == ':')
        return mpp_cli_error(cli, "option '%s' needs an argument", name);
    if (is_long && optopt)
        return mpp_cli_error(cli, "option '%s' takes no argument", name);
    return mpp_cli_error(cli, "unknown option '%s'", name);
}

int mpp_cli_next(const mpp_cli_t *cli, int argc, char **argv, int *status)
{
    struct option options[MAX_OPTIONS + 3];
    int n = 0;
    for (; cli->longopts && cli->longopts[n].name && n < MAX_OPTIONS; n++)
        options[n] = cli->longopts[n];
    options[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
    options[n++] = (struct option){"version", no_argument, NULL, OPT_VERSION};
    options[n] = (struct option){NULL, 0, NULL, 0};
    char shortopts[64];
    snprintf(shortopts, sizeof shortopts, ":%sh", cli->shortopts ? cli->shortopts : "");
    opterr = 0; /* the messages are ours: they name the option and point at --help */
    int c = getopt_long(argc, argv, shortopts, options, NULL);
    if (c == 'h' || c == OPT_HELP) {
        if (!cli->silent)
            fputs(cli->usage, stdout);
        *status = 0;
        return MPP_CLI_EXIT;
    }
    if (c == OPT_VERSION) {
        if (!cli->silent)
            printf("%s (%s) %s\n", cli->name, PACKAGE_NAME, PACKAGE_VERSION);
        *status = 0;
        return MPP_CLI_EXIT;
    }
    if (c == '?' || c == ':') {
        *status = refuse(cli, c, argc, argv);
        return MPP_CLI_EXIT;
    }
    return c;
}
