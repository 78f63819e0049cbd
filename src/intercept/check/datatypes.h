/* Datatypes for the argument and buffer checks (MPIPROF_CHECK=full):
 * whether a datatype argument is one MPI can use, asked of MPI without
 * risking an abort (MPI_Pack_size on a communicator of the profiler's
 * that returns errors: a null or uncommitted type), and the handles the
 * program freed (seen at MPI_Type_free, forgotten when MPI gives the
 * handle out again, or when a type call went by unseen); and the bytes a
 * datatype touches (check/layout.h), read from MPI_Type_get_envelope and
 * MPI_Type_get_contents once per datatype and kept while it lives. */
#ifndef MPP_CHECK_DATATYPES_H
#define MPP_CHECK_DATATYPES_H

#include <mpi.h>
#include <stdint.h>

#include "check/layout.h"

/* MPI_Init (collective over comm: its duplicate answers the questions),
 * and MPI_Finalize. */
void mpp_chk_types_start(MPI_Comm comm, int locking);
void mpp_chk_types_end(void);

/* What is wrong with a datatype a buffer is described by: NULL when
 * nothing, else the words for a finding ("is MPI_DATATYPE_NULL", "was
 * freed", "is not committed"). */
const char *mpp_chk_type_problem(MPI_Datatype type);
/* A handle the program freed (and MPI has not given out since). */
int mpp_chk_type_freed(MPI_Datatype type);
/* A call left a handle in an MPI_Datatype it points to: `before` the
 * call, `after` it (MPI_Type_free: the handle before is freed; any other:
 * the handle after is a live one, perhaps a freed one MPI gave out again). */
void mpp_chk_type_out(MPI_Datatype before, MPI_Datatype after);
/* A datatype call that went by unseen (MPI_Pcontrol(0), a Fortran
 * binding): forget what is known of handles. */
void mpp_chk_types_forget(void);

/* The layout of a valid datatype, with a reference for the caller; NULL
 * when it is not known (MPI_Type_create_darray, large counts, too many
 * blocks). */
mpp_layout_t *mpp_chk_layout(MPI_Datatype type);
/* Where a valid datatype's first byte lies from the buffer's start (its
 * true lower bound); 0 when it touches no byte. */
int mpp_chk_type_first_byte(MPI_Datatype type, int64_t *offset);

#endif
