/* The buffer checks' state (MPIPROF_CHECK=full, or a checksum asked
 * for): the buffers of the pending nonblocking operations of the process
 * (check/buffers.h), what arguments.c's mpp_chk_start and _stop set up
 * and take down.  The hooks the wrappers call are in arguments.h. */
#ifndef MPP_INTERCEPT_CHECK_BUFFERS_H
#define MPP_INTERCEPT_CHECK_BUFFERS_H

void mpp_chk_buffers_start(int locking);
void mpp_chk_buffers_stop(void);

#endif
