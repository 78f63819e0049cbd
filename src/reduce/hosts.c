#include "reduce/hosts.h"

#include <stdint.h>

#include "reduce/ptp_collectives.h"

int mpp_host_colour(const char *host)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)host; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int)(h & 0x7fffffffu);
}

int mpp_one_host(MPI_Comm comm, int colour)
{
    int colours[2] = {colour, -colour}, least[2];
    mpp_ptp_allreduce(colours, least, 2, MPI_INT, MPI_MIN, comm);
    return least[0] == -least[1];
}
