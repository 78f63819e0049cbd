/* Misuses of one-sided communication the RMA checks find (rma-epoch,
 * rma-conflict), one scenario each: argv[1] names it, the marks give its
 * exact findings (check_findings.py); legal-rma uses every kind of epoch
 * correctly and must give none.  Windows return their errors
 * (MPI_ERRORS_RETURN), so that every scenario reaches MPI_Finalize as it
 * does without the profiler.  Run on 2 processes by test_check_rma.sh. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, peer;
static int base[64];
static MPI_Win win;

static void make_window(void)
{
    MPI_Win_create(base, sizeof base, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
}

static void free_window(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

/* --- rma-epoch --- */

static void epochs(const char *s)
{
    int v[4] = {rank, rank, rank, rank};
    make_window();
    if (!strcmp(s, "put-no-epoch"))
        MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win); /* expect put-no-epoch: rma-epoch ranks=0-1 */
    if (!strcmp(s, "get-after-nosucceed")) {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
        MPI_Get(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        MPI_Get(v, 1, MPI_INT, peer, 1, 1, MPI_INT, win); /* expect get-after-nosucceed: rma-epoch ranks=0-1 */
    }
    if (!strcmp(s, "acc-after-complete")) {
        MPI_Group world, other;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &peer, &other);
        MPI_Win_post(other, 0, win);
        MPI_Win_start(other, 0, win);
        MPI_Accumulate(v, 1, MPI_INT, peer, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        MPI_Accumulate(v, 1, MPI_INT, peer, 2, 1, MPI_INT, MPI_SUM, win); /* expect acc-after-complete: rma-epoch ranks=0-1 */
        MPI_Group_free(&other);
        MPI_Group_free(&world);
    }
    if (!strcmp(s, "put-other-lock") && rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win); /* expect put-other-lock: rma-epoch ranks=0 */
        MPI_Win_unlock(rank, win);
    }
    if (!strcmp(s, "unlock-no-lock"))
        MPI_Win_unlock(peer, win); /* expect unlock-no-lock: rma-epoch ranks=0-1 */
    if (!strcmp(s, "unlock-all-no-lock-all"))
        MPI_Win_unlock_all(win); /* expect unlock-all-no-lock-all: rma-epoch ranks=0-1 */
    if (!strcmp(s, "complete-no-start"))
        MPI_Win_complete(win); /* expect complete-no-start: rma-epoch ranks=0-1 */
    if (!strcmp(s, "wait-no-post"))
        MPI_Win_wait(win); /* expect wait-no-post: rma-epoch ranks=0-1 */
    if (!strcmp(s, "flush-no-lock"))
        MPI_Win_flush(peer, win); /* expect flush-no-lock: rma-epoch ranks=0-1 */
    if (!strcmp(s, "free-locked")) {
        MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win); /* label lock-held */
        MPI_Put(v, 1, MPI_INT, peer, rank + 4, 1, MPI_INT, win);
        if (MPI_Win_free(&win) != MPI_SUCCESS) /* expect free-locked: rma-epoch ranks=0-1 other=lock-held */
            printf("rank %d: MPI_Win_free refused\n", rank);
        MPI_Win_unlock(peer, win);
    }
    free_window();
}

/* --- rma-conflict: an origin buffer handed to another call while its
 * operation is pending --- */

static void conflicts(const char *s)
{
    int v[4] = {rank, rank, rank, rank}, x = rank;
    MPI_Request rq;
    make_window();
    if (!strcmp(s, "recv-into-put-origin")) {
        MPI_Win_lock_all(0, win);
        MPI_Put(v, 2, MPI_INT, peer, 0, 2, MPI_INT, win); /* label put-pending */
        MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, v + 1, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect recv-into-put-origin: rma-conflict ranks=0-1 other=put-pending */
        MPI_Win_unlock_all(win);
    }
    if (!strcmp(s, "get-into-put-origin")) {
        MPI_Win_fence(0, win);
        MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win); /* label put-fence */
        MPI_Get(v, 1, MPI_INT, peer, 1, 1, MPI_INT, win); /* expect get-into-put-origin: rma-conflict ranks=0-1 other=put-fence */
        MPI_Win_fence(0, win);
    }
    if (!strcmp(s, "rput-origin-reused")) {
        MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
        MPI_Rput(v, 4, MPI_INT, peer, 0, 4, MPI_INT, win, &rq); /* label rput-pending */
        MPI_Fetch_and_op(&x, v + 3, MPI_INT, peer, 8, MPI_SUM, win); /* expect rput-origin-reused: rma-conflict ranks=0-1 other=rput-pending */
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Win_unlock(peer, win);
    }
    free_window();
}

/* --- rma-conflict between origins: two processes access the same bytes
 * of rank 0's window in one fence epoch; the finding is rank 0's (the
 * target's), at the write, the other access its other side --- */

static void between_origins(const char *s)
{
    int v[2] = {rank, rank}, got[2];
    make_window();
    MPI_Win_fence(0, win);
    if (!strcmp(s, "put-put-origins")) {
        if (rank == 0)
            MPI_Put(v, 2, MPI_INT, 0, 4, 2, MPI_INT, win); /* label put-by-0 */
        else
            MPI_Put(v, 2, MPI_INT, 0, 5, 2, MPI_INT, win); /* expect put-put-origins: rma-conflict ranks=0 other=put-by-0 */
    }
    if (!strcmp(s, "get-put-origins")) {
        if (rank == 0)
            MPI_Put(v, 1, MPI_INT, 0, 8, 1, MPI_INT, win); /* expect get-put-origins: rma-conflict ranks=0 other=get-by-1 */
        else
            MPI_Get(got, 2, MPI_INT, 0, 7, 2, MPI_INT, win); /* label get-by-1 */
    }
    if (!strcmp(s, "strided-origins")) { /* ints 40, 42, 44, 46 and 41, 44, 47, 50: 44 */
        MPI_Datatype every_other, every_third;
        MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
        MPI_Type_vector(4, 1, 3, MPI_INT, &every_third);
        MPI_Type_commit(&every_other);
        MPI_Type_commit(&every_third);
        int w[4] = {rank, rank, rank, rank};
        if (rank == 0)
            MPI_Put(w, 4, MPI_INT, 0, 40, 1, every_other, win); /* label strided-by-0 */
        else
            MPI_Put(w, 4, MPI_INT, 0, 41, 1, every_third, win); /* expect strided-origins: rma-conflict ranks=0 other=strided-by-0 */
        MPI_Type_free(&every_other);
        MPI_Type_free(&every_third);
    }
    MPI_Win_fence(0, win);
    free_window();
}

/* The same in an exposure epoch of rank 0 (MPI_Win_post to both, each
 * starting an access epoch to rank 0); `twice`: the two puts in two
 * exposure epochs, legal. */
static void pscw_origins(int twice)
{
    int v[2] = {rank, rank};
    MPI_Group world, zero;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int first = 0;
    MPI_Group_incl(world, 1, &first, &zero);
    make_window();
    for (int epoch = 0; epoch < 1 + twice; epoch++) {
        if (rank == 0)
            MPI_Win_post(world, 0, win);
        MPI_Barrier(MPI_COMM_WORLD); /* (the post seen at rank 0 before any access to it) */
        MPI_Win_start(zero, 0, win);
        if (!twice || epoch == rank)
            MPI_Put(v, 2, MPI_INT, 0, 12 + rank, 2, MPI_INT, win); /* label pscw-put */ /* expect pscw-origins: rma-conflict ranks=0 other=pscw-put */
        MPI_Win_complete(win);
        if (rank == 0)
            MPI_Win_wait(win);
    }
    MPI_Group_free(&zero);
    MPI_Group_free(&world);
    free_window();
}

/* The same bytes of rank 0's window from both processes, legally: gets
 * together, accumulates together, puts into the bytes between the other's
 * (a strided datatype: its gaps are not its bytes), puts in different
 * fence epochs, and in a passive-target epoch (not compared). */
static void origins_legal(void)
{
    int v[8] = {rank, rank, rank, rank, rank, rank, rank, rank}, got[2];
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    make_window();
    MPI_Win_fence(0, win);
    MPI_Get(got, 2, MPI_INT, 0, 50, 2, MPI_INT, win);
    MPI_Accumulate(v, 2, MPI_INT, 0, 52, 2, MPI_INT, MPI_SUM, win);
    MPI_Put(v, 4, MPI_INT, 0, 54 + rank, 1, every_other, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(v, 2, MPI_INT, 0, 50, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(v, 2, MPI_INT, 0, 50, 2, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(v, 2, MPI_INT, 0, 50, 2, MPI_INT, win);
    MPI_Win_unlock(0, win);
    MPI_Type_free(&every_other);
    free_window();
}

/* MPI_Finalize with lock_all's epoch open, on a window MPI_Win_free would
 * refuse to free (a dynamic one, with no memory attached: MPICH's UCX
 * device ends in an assertion at MPI_Finalize over a window left with
 * memory registered). */
static void finalize_locked(void)
{
    MPI_Win dyn;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn); /* expect finalize-locked: resource-leak ranks=0-1 */
    MPI_Win_lock_all(0, dyn); /* expect finalize-locked: rma-epoch ranks=0-1 */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* --- correct uses: no finding --- */

static void fence_epochs(void)
{
    int v[4] = {rank, rank + 1, rank + 2, rank + 3}, got[4];
    make_window();
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(v, 2, MPI_INT, peer, 0, 2, MPI_INT, win);
    MPI_Get(got, 2, MPI_INT, peer, 10, 2, MPI_INT, win);
    MPI_Accumulate(v, 4, MPI_INT, peer, 20, 4, MPI_INT, MPI_SUM, win);
    MPI_Accumulate(v, 4, MPI_INT, peer, 20, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Put(got, 2, MPI_INT, peer, 2, 2, MPI_INT, win); /* (got: free again after the fence) */
    MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, win);
    MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win); /* (no target: no epoch needed) */
    MPI_Win_fence(0, win); /* a last fence without NOSUCCEED: no epoch left open */
    free_window();
}

static void pscw_epochs(void)
{
    int v[2] = {rank, rank}, got = 0, flag = 0;
    MPI_Group world, other;
    make_window();
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &other);
    for (int i = 0; i < 2; i++) {
        MPI_Win_post(other, 0, win);
        MPI_Win_start(other, 0, win);
        MPI_Put(v, 2, MPI_INT, peer, 30, 2, MPI_INT, win);
        MPI_Get_accumulate(v, 1, MPI_INT, &got, 1, MPI_INT, peer, 32, 1, MPI_INT, MPI_SUM, win); /* (v read twice) */
        MPI_Win_complete(win);
        if (i == 0)
            MPI_Win_wait(win);
        else
            while (!flag)
                MPI_Win_test(win, &flag);
    }
    MPI_Group_free(&other);
    MPI_Group_free(&world);
    free_window();
}

static void passive_epochs(void)
{
    int v[4] = {rank, rank, rank, rank}, old[2] = {0}, cmp = 0, one = 1;
    MPI_Request rq[2];
    make_window();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win);
    MPI_Put(v, 1, MPI_INT, peer, 40 + rank, 1, MPI_INT, win);
    MPI_Win_flush(peer, win);
    MPI_Get(v, 1, MPI_INT, peer, 41, 1, MPI_INT, win); /* (the Put's buffer: free after the flush) */
    MPI_Win_flush_local(peer, win);
    MPI_Rput(v, 1, MPI_INT, peer, 42 + rank, 1, MPI_INT, win, &rq[0]);
    MPI_Rget(v + 2, 1, MPI_INT, peer, 44, 1, MPI_INT, win, &rq[1]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Rget(v, 1, MPI_INT, peer, 45, 1, MPI_INT, win, &rq[0]); /* (the Rput's: free after its wait) */
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Win_unlock(peer, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Fetch_and_op(&one, &old[0], MPI_INT, peer, 46, MPI_SUM, win);
    MPI_Compare_and_swap(&one, &cmp, &old[1], MPI_INT, peer, 47, win);
    MPI_Raccumulate(&one, 1, MPI_INT, peer, 48, 1, MPI_INT, MPI_SUM, win, &rq[0]);
    MPI_Rget_accumulate(&one, 1, MPI_INT, v, 1, MPI_INT, peer, 49, 1, MPI_INT, MPI_SUM, win, &rq[1]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Fetch_and_op(&one, &old[0], MPI_INT, peer, 46, MPI_SUM, win);
    MPI_Win_flush(peer, win);
    MPI_Fetch_and_op(NULL, &old[0], MPI_INT, peer, 46, MPI_NO_OP, win); /* (an atomic read: no origin buffer) */
    MPI_Get_accumulate(NULL, 0, MPI_INT, &old[1], 1, MPI_INT, peer, 47, 1, MPI_INT, MPI_NO_OP, win);
    MPI_Win_flush_local_all(win);
    MPI_Win_sync(win);
    MPI_Win_unlock_all(win);
    MPI_Allreduce(MPI_IN_PLACE, old, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* (after the epoch: free) */
    free_window();
}

static void dynamic_and_shared(void)
{
    int local[4] = {0}, v = rank;
    MPI_Aint mine, theirs;
    MPI_Win dyn, shm;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
    MPI_Win_attach(dyn, local, sizeof local);
    MPI_Get_address(local, &mine);
    MPI_Sendrecv(&mine, 1, MPI_AINT, peer, 0, &theirs, 1, MPI_AINT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_lock_all(0, dyn);
    MPI_Put(&v, 1, MPI_INT, peer, theirs, 1, MPI_INT, dyn);
    MPI_Win_unlock_all(dyn);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_detach(dyn, local);
    MPI_Win_free(&dyn);

    int *mem;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mem, &shm);
    MPI_Win_lock_all(0, shm);
    *mem = rank; /* load and store: not seen, nothing to check */
    MPI_Win_sync(shm);
    MPI_Win_unlock_all(shm);
    MPI_Barrier(node);
    MPI_Win_free(&shm);
    MPI_Comm_free(&node);

    int *amem;
    MPI_Win alloc;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &alloc);
    MPI_Win_fence(0, alloc);
    MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, alloc);
    MPI_Win_fence(0, alloc);
    MPI_Win_free(&alloc);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    const char *s = argc > 1 ? argv[1] : "legal-rma";
    if (!strcmp(s, "finalize-locked")) {
        finalize_locked();
    } else if (!strcmp(s, "pscw-origins")) {
        pscw_origins(0);
    } else if (strstr(s, "-origins")) {
        between_origins(s);
    } else if (strstr(s, "-origin")) {
        conflicts(s);
    } else if (!strcmp(s, "legal-rma")) {
        fence_epochs();
        pscw_epochs();
        passive_epochs();
        dynamic_and_shared();
        origins_legal();
        pscw_origins(1);
    } else {
        epochs(s);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
