// callsites_cxx: C++ call sites, for tests/mpi/callsites/test_callsites_cxx.sh:
// frames read as demangled C++ names, and one line reached from several
// callers gives SRC points that the summary tells apart.
//
// One MPI_Waitall line (in halo::exchange) reached from three callers,
// halo::update_density, halo::update_energy and halo::update_velocity, each
// N_ROUNDS times: three SRC points whose first frame is the same line.
// Rank 1 computes T_LATE before each exchange, so rank 0 waits in the
// MPI_Waitall and the three are the SRC points of most time (the summary's
// top three).  A function template, halo::sum_all<double>, calls
// MPI_Allreduce once.  Mangled, the frames would read _ZN4halo8exchange...;
// demangled, halo::exchange(halo::Grid&, int).
//
// Prints "callsites_cxx: ok" on rank 0 when every message and the sum were
// right.  The test finds the lines by their MARK: comments.  Run with 2
// processes.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <vector>

namespace halo {

const int N_ROUNDS = 10;
const double T_LATE = 0.004;

struct Grid {
    std::vector<int> cells;
    int rank;
    int errors;
};

void busy(double seconds)
{
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end)
        ;
}

__attribute__((noinline)) void exchange(Grid &g, int tag)
{
    int peer = 1 - g.rank, in = -1, out = g.rank * 1000 + tag;
    MPI_Request requests[2];
    if (g.rank == 1)
        busy(T_LATE);
    MPI_Irecv(&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&out, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE); /* MARK:waitall */
    if (in != peer * 1000 + tag)
        g.errors++;
}

__attribute__((noinline)) void update_density(Grid &g)
{
    exchange(g, 1); /* MARK:density */
}

__attribute__((noinline)) void update_energy(Grid &g)
{
    exchange(g, 2); /* MARK:energy */
}

__attribute__((noinline)) void update_velocity(Grid &g)
{
    exchange(g, 3); /* MARK:velocity */
}

template <typename T> __attribute__((noinline)) T sum_all(std::vector<T> &values)
{
    T local = 0, total = 0;
    for (T v : values)
        local += v;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    return total;
}

} // namespace halo

int main(int argc, char **argv)
{
    int size;
    halo::Grid g;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (g.rank == 0)
            std::fprintf(stderr, "callsites_cxx: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    g.errors = 0;
    for (int i = 0; i < halo::N_ROUNDS; i++) {
        halo::update_density(g);
        halo::update_energy(g);
        halo::update_velocity(g);
    }
    std::vector<double> values(4, 0.5);
    if (halo::sum_all(values) != 4.0)
        g.errors++;
    if (g.errors)
        std::fprintf(stderr, "callsites_cxx: rank %d: %d wrong results\n", g.rank, g.errors);
    else if (g.rank == 0)
        std::printf("callsites_cxx: ok\n");
    MPI_Finalize();
    return g.errors != 0;
}
