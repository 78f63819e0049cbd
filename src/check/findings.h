/* The correctness findings of one process (records/finding.h): one entry
 * per kind and SRC point (the call's function and stack), with how often
 * it happened and the first occurrence's details, bounded (the capacity
 * given at creation; what does not fit is counted).  Any thread may add (a mutex:
 * findings are rare next to calls); the reduction takes them at
 * MPI_Finalize, or a partial protocol when the process ends. */
#ifndef MPP_CHECK_FINDINGS_H
#define MPP_CHECK_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "records/finding.h"
#include "util/common.h"

#define MPP_FINDING_DETAIL 256
#define MPP_FINDING_NO_FUNCTION UINT32_MAX

typedef struct {
    int kind;
    int severity; /* MPP_FINDING_ERROR or _WARNING: the kind's, or the one it was reported with */
    uint32_t fid; /* the call's MPI function; MPP_FINDING_NO_FUNCTION: none */
    int depth;
    uintptr_t frames[MPP_MAX_DEPTH]; /* its call stack (return addresses), resolved at the end */
    uint64_t count;
    /* the first occurrence */
    int32_t peer;        /* the other process's MPI_COMM_WORLD rank, -1: none */
    uint32_t other_fid;  /* the other side's call: its function ... */
    uint64_t other_site; /* ... and site (check/site.h), 0: none */
    char detail[MPP_FINDING_DETAIL];
} mpp_finding_t;

/* Start anew, keeping at most `max` entries. */
void mpp_findings_init(size_t max);
/* One occurrence of `kind` at the call (fid, frames[depth]); the details
 * are kept when it is the first of its entry.  `detail` may be NULL. */
void mpp_findings_add(int kind, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer, uint32_t other_fid,
                      uint64_t other_site, const char *detail);
/* The same with a severity of its own (active-request-free: an error for a
 * persistent request); `severity` -1: the kind's. */
void mpp_findings_add_as(int kind, int severity, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer,
                         uint32_t other_fid, uint64_t other_site, const char *detail);
/* The entries so far (a copy, which the caller frees), their number, and
 * the occurrences that did not fit. */
mpp_finding_t *mpp_findings_take(size_t *n, uint64_t *dropped);
/* Occurrences of errors and warnings so far (the summary line). */
void mpp_findings_counts(uint64_t *errors, uint64_t *warnings);
void mpp_findings_free(void);
/* In a child forked to write a partial protocol (intercept/faults.c), the
 * only thread of its process, before the store is used: a lock some thread
 * of the parent held at the fork is taken over. */
void mpp_findings_forked(void);

#endif
