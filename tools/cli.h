/* The command-line conventions every installed command follows
 * (mpiprof(7), COMMANDS): --help prints the usage on standard output and
 * exits 0; --version prints "NAME (mpiprof) VERSION" and exits 0; an
 * unknown option, or one without its argument, gets one line on standard
 * error that names it and points at --help, and exit status 2.  One
 * helper for the commands written in C, so that they cannot drift apart. */
#ifndef MPP_TOOLS_CLI_H
#define MPP_TOOLS_CLI_H

#include <getopt.h>

typedef struct {
    const char *name;              /* "mpiprof-view" */
    const char *usage;             /* what --help prints */
    const char *shortopts;         /* getopt's, without the leading ':' and without h */
    const struct option *longopts; /* the command's own long options (NULL-terminated), or NULL */
    int silent;                    /* say nothing (the ranks of mpiprof-analyze but 0) */
} mpp_cli_t;

/* cli_next's answer when the command line is answered or wrong. */
enum { MPP_CLI_EXIT = -2 };

/* The next option of argv, as getopt_long returns it (its optarg, optind);
 * -1 after the last.  --help, -h and --version are answered here, and a
 * wrong option said: then MPP_CLI_EXIT, with the exit status (0 or 2) in
 * *status. */
int mpp_cli_next(const mpp_cli_t *cli, int argc, char **argv, int *status);

/* A wrong command line the command finds itself (a bad value, too few
 * operands): "NAME: MESSAGE (NAME --help gives the usage)" on standard error;
 * returns 2, the exit status of a wrong command line. */
int mpp_cli_error(const mpp_cli_t *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
