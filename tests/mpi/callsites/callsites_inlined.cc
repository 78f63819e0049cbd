// callsites_inlined: call sites in an inlined function template, for
// tests/mpi/callsites/test_callsites_inlined.sh.
//
// Field<T>::exchange is inlined (always_inline) into main for T = double
// and T = float, each called N_ROUNDS times from a line of its own.  Built
// -O2 -g, each instance's MPI_Sendrecv is an SRC point whose stack starts
// at the marked line of exchange, named Field<double>::exchange(int) or
// Field<float>::exchange(int), then main at the line marked double or
// float: two SRC points, not one named after main.  Built without -g, the
// frames are named by the symbol table (main+0x...).
//
// Prints "callsites_inlined: ok" on rank 0 when every message was right.
// The test finds the lines by their MARK: comments.
// Run with 2 processes.
#include <mpi.h>

#include <cstdio>
#include <vector>

const int N_ROUNDS = 5;

template <typename T> struct Field {
    std::vector<T> cells;
    MPI_Datatype type;
    int errors = 0;

    __attribute__((always_inline)) inline void exchange(int rank)
    {
        int peer = 1 - rank;
        T out = static_cast<T>(rank + 1), in = 0;
        MPI_Sendrecv(&out, 1, type, peer, 0, &in, 1, type, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:exchange */
        errors += in != static_cast<T>(peer + 1);
        cells.push_back(in);
    }
};

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    Field<double> d{{}, MPI_DOUBLE};
    Field<float> f{{}, MPI_FLOAT};
    for (int i = 0; i < N_ROUNDS; i++) {
        d.exchange(rank); /* MARK:double */
        f.exchange(rank); /* MARK:float */
    }
    int errors = d.errors + f.errors, all = 0;
    MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all == 0 && d.cells.size() == N_ROUNDS && f.cells.size() == N_ROUNDS)
        std::printf("callsites_inlined: ok\n");
    MPI_Finalize();
    return 0;
}
