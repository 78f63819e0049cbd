/* The protocol's Threads parameter (the program's threads and OpenMP team
 * per process) in text and JSON (threads_write.c). */
#ifndef MPP_WRITE_THREADS_H
#define MPP_WRITE_THREADS_H

#include <stdio.h>

#include "write/writer.h"

struct json_t;

/* The Threads line, and its per-process line for the selected processes. */
void mpp_write_threads_text(FILE *out, const mpp_report_t *report);
struct json_t *mpp_threads_json(const mpp_report_t *report);
/* An SRC point's per-thread times (MPI_THREAD_MULTIPLE): its lines of
 * text, allocated (NULL: none, a process had at most one thread call it),
 * and its JSON (null when the protocol gives no per-thread times). */
char *mpp_threads_src_text(const mpp_reduced_t *rd, const mpp_reduced_cell_t *c);
struct json_t *mpp_threads_src_json(const mpp_reduced_t *rd, const mpp_reduced_cell_t *c);

#endif
