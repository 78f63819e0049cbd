/* A process that ends without MPI_Finalize writes its partial protocol
 * (partial.h): on a fatal or job-control signal, at MPI_Abort, at exit()
 * or return from main (src/intercept/faults.c).  Installed at MPI_Init,
 * removed at MPI_Finalize. */
#ifndef MPP_FAULTS_H
#define MPP_FAULTS_H

void mpp_faults_start(int rank, int nprocs, int quiet);
void mpp_faults_stop(void);

#endif
