/* Lists of reported findings (records/finding.h): made from one process's
 * findings at the end of the run, serialized to travel up the reduction's
 * tree (and into partial protocols' process data), merged by identity
 * (kind, SRC point, other side) with their counts, ranks and first
 * details, and put in the order the protocol lists them.  No MPI. */
#ifndef MPP_CHECK_FINDING_LIST_H
#define MPP_CHECK_FINDING_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "records/finding.h"

/* Append one finding (copies of the strings; other and detail may be
 * NULL).  0, or -1 when memory ran out. */
int mpp_finding_list_add(mpp_finding_list_t *l, const mpp_finding_record_t *f);
void mpp_finding_list_free(mpp_finding_list_t *l);

/* The list as bytes (malloc'd), and back: load appends to l. */
int mpp_finding_list_serialize(const mpp_finding_list_t *l, char **buf, size_t *len);
int mpp_finding_list_load(mpp_finding_list_t *l, const char *buf, size_t len);

/* The list as one line of text per finding (malloc'd, no NUL inside,
 * every byte below 0x21, '%' and 0x7f %-escaped in its strings), after a
 * header line of its level, dropped occurrences and `max` (the run's
 * MPIPROF_MAX_FINDINGS); what trace mode carries (mpiprof-trace(5)).
 * from_text appends to l, its max to *max (may be NULL); -1 on malformed
 * text (what was read before stays in l) or when memory ran out.  A kind
 * whose name this mpiprof does not know counts as dropped. */
#define MPP_FINDINGS_TEXT_MAGIC "mpiprof-findings 1"
int mpp_finding_list_text(const mpp_finding_list_t *l, size_t max, char **text);
int mpp_finding_list_from_text(mpp_finding_list_t *l, size_t *max, const char *text);

/* Merge `from` into `into`: the same finding's counts and processes add up,
 * its ranks widen, and its first details are those of the lower rank; a
 * finding new to `into` past `max` entries is dropped (its occurrences
 * counted in `dropped`).  0, or -1 when memory ran out. */
int mpp_finding_list_merge(mpp_finding_list_t *into, const mpp_finding_list_t *from, size_t max);

/* The protocol's order: errors first, then by kind (correctness.md's
 * order), lowest rank, SRC key. */
void mpp_finding_list_sort(mpp_finding_list_t *l);

/* Occurrences of errors and of warnings. */
void mpp_finding_list_counts(const mpp_finding_list_t *l, uint64_t *errors, uint64_t *warnings);

/* What the checks of a level look at (MPIPROF_CHECK, config.h), one line
 * for the protocol: "off", "basic (requests, ...)", ... */
const char *mpp_check_level_text(int level);

#endif
