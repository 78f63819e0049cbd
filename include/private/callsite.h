/* Call-site capture: the return addresses that identify an SRC point. */
#ifndef MPP_CALLSITE_H
#define MPP_CALLSITE_H

#include <stdint.h>

#include "mpp_common.h"

/* Find the code of the MPI library, its Fortran bindings and mpiprof itself:
 * frames there are skipped.  `unwind` is MPP_UNWIND_*. */
void mpp_callsite_init(int depth, int unwind);

/* Fill frames[0..depth-1] (zero-padded) for a call whose wrapper has the
 * given return and frame addresses.  Frame pointers are walked within the
 * thread's stack bounds, so a binary without frame pointers gives short or
 * wrong deeper frames but never a crash; calls through the MPI Fortran
 * bindings (return address inside MPI) use the DWARF unwinder. */
void mpp_callsite_capture(uintptr_t *frames, void *return_address, void *frame_address,
                          uintptr_t stack_lo, uintptr_t stack_hi);

int mpp_callsite_depth(void);

#endif
