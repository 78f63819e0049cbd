#include "share.h"

int mpp_share_int(MPI_Comm comm, int value)
{
    PMPI_Bcast(&value, 1, MPI_INT, 0, comm);
    return value;
}

void mpp_share_text(MPI_Comm comm, char *text, size_t size)
{
    if (!size)
        return;
    text[size - 1] = '\0';
    PMPI_Bcast(text, (int)size, MPI_CHAR, 0, comm);
}
