/* Type signatures of MPI datatypes (check/signature.h) for the checks
 * between processes: a predefined type's from a table made at MPI_Init, a
 * derived type's decoded once from MPI_Type_get_envelope and
 * MPI_Type_get_contents and kept as an attribute of the type (so that it
 * goes when the type is freed, and a handle MPI gives out again is decoded
 * anew), and the operations' stable ids. */
#ifndef MPP_CHECK_SIGNATURES_H
#define MPP_CHECK_SIGNATURES_H

#include <mpi.h>
#include <stdint.h>

#include "check/signature.h"

typedef struct {
    mpp_signature_t sig; /* basic -2: not known */
    int padded;          /* holds a long double, whose padding bytes are not data (no checksum) */
} mpp_chk_sig_t;

/* MPI_Init (after the level is agreed), and MPI_Finalize. */
void mpp_chk_signatures_start(void);
void mpp_chk_signatures_end(void);

/* One element of `type`. */
mpp_chk_sig_t mpp_chk_type_sig(MPI_Datatype type);
/* `count` elements of `type`. */
mpp_chk_sig_t mpp_chk_signature(MPI_Datatype type, int64_t count);

/* A predefined reduction operation's id (1...), 0 for a user's (or none). */
int mpp_chk_op_id(MPI_Op op);
/* Its name ("MPI_SUM"), "a user-defined operation" for 0. */
const char *mpp_chk_op_name(int id);

#endif
