/* The communication matrix in the protocols (records/matrix.h;
 * mpiprof-protocol(5), Communication matrix): a section after the
 * intervals in the text, "matrix" in the JSON (null when not collected). */
#ifndef MPP_MATRIX_OUT_H
#define MPP_MATRIX_OUT_H

#include <stdio.h>

#include "write/writer.h"

struct json_t;

void mpp_write_matrix_text(FILE *out, const mpp_report_t *r);
struct json_t *mpp_matrix_json(const mpp_report_t *r);

#endif
