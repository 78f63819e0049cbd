#include "reduce/share.h"
#include "reduce/ptp_collectives.h"

int mpp_share_int(MPI_Comm comm, int value)
{
    mpp_ptp_bcast(&value, 1, MPI_INT, 0, comm);
    return value;
}

void mpp_share_text(MPI_Comm comm, char *text, size_t size)
{
    if (!size)
        return;
    text[size - 1] = '\0';
    mpp_ptp_bcast(text, (int)size, MPI_CHAR, 0, comm);
}
