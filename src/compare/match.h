/* Which interval and which SRC point of one protocol is which of another
 * (match.c), the one rule of mpiprof-compare and of the page of several
 * protocols (mpiprof-view carries it in the page's data): intervals by
 * their name and place in the tree (the chain of their parents' names,
 * and among siblings of one name their order), the whole program always
 * with the whole program; SRC points of a matched pair of intervals by
 * MPI function and the function names of their frames, the source lines
 * only breaking ties (the same lines first, then in the order of their
 * lines).  Lines are not part of either key: an edit that moves code
 * leaves every match in place, and what moved is found by comparing the
 * positions of the matched pair (mpp_match_moved).  Pure: no I/O. */
#ifndef MPP_COMPARE_MATCH_H
#define MPP_COMPARE_MATCH_H

#include <jansson.h>
#include <stddef.h>

typedef struct {
    size_t na;        /* A's intervals */
    size_t *interval; /* [na]: the index in B's intervals, or SIZE_MAX */
    size_t *nsrc;     /* [na]: the SRC points of A's interval */
    size_t **src;     /* [na][nsrc]: the index in B's interval's SRC points, or SIZE_MAX */
} mpp_match_t;

/* Match the protocols a and b (their JSON documents); 0, or -1 when
 * memory ran out (nothing kept). */
int mpp_match(json_t *a, json_t *b, mpp_match_t *m);
void mpp_match_free(mpp_match_t *m);

/* {"intervals": [index in B or null, ...], "src": [[index or null, ...],
 * ...]}: the matching as the page reads it, indices into B's lists. */
json_t *mpp_match_json(const mpp_match_t *m);

/* How an interval or SRC point moved between A and B: "jacobi.c:57 ->
 * jacobi.c:58" for an interval (file and line), "#0 jacobi.c:98 ->
 * jacobi.c:101; #1 main.c:40 -> main.c:43" for the frames of an SRC point
 * whose position changed.  Allocated; "" when nothing moved; NULL out of
 * memory. */
char *mpp_match_interval_moved(json_t *ia, json_t *ib);
char *mpp_match_src_moved(json_t *sa, json_t *sb);

#endif
