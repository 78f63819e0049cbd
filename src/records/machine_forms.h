/* What machine.c's compact forms and machine_summary.c share. */
#ifndef MPP_MACHINE_FORMS_H
#define MPP_MACHINE_FORMS_H

#include "util/textbuf.h"

/* qsort's comparison of ints. */
int mpp_cmp_int(const void *a, const void *b);
/* first, first+step, ... (count): "5", "0-3", "0,2,4", "0,2,...,126". */
void mpp_progression_text(mpp_textbuf_t *b, int first, int step, int count);

#endif
