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

#endif
