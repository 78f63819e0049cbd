/* Warnings of one process: kept for the protocol's Warnings, printed on
 * stderr when the process may speak (rank 0, not MPIPROF_QUIET). */
#ifndef MPP_WARNINGS_H
#define MPP_WARNINGS_H

#include <stddef.h>

#define MPP_MAX_WARNINGS 64
#define MPP_WARNING_LEN 512

/* Whether warnings go to stderr too (set once the rank and MPIPROF_QUIET are known;
 * warnings raised before that are printed when it is set). */
void mpp_warnings_set_echo(int echo);

/* Record a warning (printf format).  Identical texts are kept once. */
void mpp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, for the protocol's Warnings only: about defaults the user did
 * not choose (e.g. hardware counters a VM cannot count), not worth stderr. */
void mpp_warn_protocol_only(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

size_t mpp_warnings_count(void);
const char *mpp_warning_text(size_t i);
/* Forget every warning (unit tests). */
void mpp_warnings_reset(void);

#endif
