"""What every step of the benchmark shares: the iteration counts, the
variants measured, and the two helpers of its output."""

FULL = {
    "reps": 15,
    "local": 1_000_000,       # MPI_Iprobe calls
    "floor": 1_000_000,       # calls of each floor loop
    "paired": 2_000_000,      # calls of each of the three same-process loops
    "paired_query": 1_000_000,  # calls of each of the six loops of local queries
    "paired_threads": 4_000,  # threads of each of the two versions
    "pingpong": 200_000,      # round trips
    "allreduce": 100_000,     # calls
    "nonblocking": 200_000,   # Irecv/Isend/Waitall iterations
    "rma": 20_000,            # fence epochs of 16 MPI_Put each
    "memory": (100_000, 10_000_000),
    "finalize_sites": (1, 1000),
}
SMOKE = {
    "reps": 2,
    "local": 2_000,
    "floor": 2_000,
    "paired": 2_000,
    "paired_query": 1_200,
    "paired_threads": 400,
    "pingpong": 200,
    "allreduce": 200,
    "nonblocking": 200,
    "rma": 20,
    "memory": (1_000, 10_000),
    "finalize_sites": (1, 1000),
}
LAUNCH_TIMEOUT = 120  # seconds per mpiexec



class Variant:
    def __init__(self, key, label, binary, preload, depth=None, disable=False, waitstates=True, baseline=False,
                 trace=False, check=None, matrix=True):
        self.key, self.label, self.binary = key, label, binary
        self.matrix = matrix  # False: MPIPROF_MATRIX=off
        self.check = check  # MPIPROF_CHECK's value (None: the default)
        self.preload, self.depth, self.disable = preload, depth, disable
        self.waitstates = waitstates
        self.trace = trace  # MPIPROF_TRACE=on: the OTF2 archive of trace mode
        self.baseline = baseline  # preloads the --baseline library instead of this tree's

    @property
    def profiled(self):
        return self.binary == "prof" or self.preload

    @property
    def collects(self):
        return self.profiled and not self.disable


def say(*args):
    print(*args, flush=True)


def fmt_count(n):
    for e in range(9, 1, -1):
        if n == 10 ** e:
            return "10^%d" % e
    return str(n)

