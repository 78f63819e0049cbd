/* Every one-sided function of mpi_functions.txt on 2 processes: the window
 * constructors (create, allocate, allocate_shared, create_dynamic with
 * attach/detach, and their _c forms), the epochs (fence, post-start-
 * complete-wait and test, lock/unlock, lock_all, the flushes, sync), each
 * operation (put, get, accumulate, get_accumulate, fetch_and_op,
 * compare_and_swap, the request-based rput ... rget_accumulate, _c forms)
 * and the window's name, info, group, attributes and error handler; a few
 * times each.  The trace analyzer must give each the SRC point, calls and
 * bytes of the dynamic mode (test_analyze_functions.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4
#define ITER 2

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "calls_rma: %s failed (%d)\n", what, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void on_error(MPI_Win *win, int *err, ...)
{
    (void)win;
    (void)err;
}

/* every operation to `peer` inside an open epoch of win */
static void operations(MPI_Win win, int peer, int *o, int *res)
{
    int one = 1, cmp = 0;
    check(MPI_Put(o, N, MPI_INT, peer, 0, N, MPI_INT, win), "MPI_Put");
    check(MPI_Put_c(o, N, MPI_INT, peer, N, N, MPI_INT, win), "MPI_Put_c");
    check(MPI_Get(res, N, MPI_INT, peer, 2 * N, N, MPI_INT, win), "MPI_Get");
    check(MPI_Get_c(res + N, N, MPI_INT, peer, 2 * N, N, MPI_INT, win), "MPI_Get_c");
    check(MPI_Accumulate(o, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win), "MPI_Accumulate");
    check(MPI_Accumulate_c(o, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win), "MPI_Accumulate_c");
    check(MPI_Get_accumulate(o, N, MPI_INT, res + 2 * N, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win),
          "MPI_Get_accumulate");
    check(MPI_Get_accumulate_c(o, N, MPI_INT, res + 3 * N, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win),
          "MPI_Get_accumulate_c");
    check(MPI_Fetch_and_op(&one, res + 4 * N, MPI_INT, peer, 4 * N, MPI_SUM, win), "MPI_Fetch_and_op");
    check(MPI_Compare_and_swap(&one, &cmp, res + 4 * N + 1, MPI_INT, peer, 4 * N + 1, win), "MPI_Compare_and_swap");
}

/* the request-based operations: only in a passive-target epoch */
static void requests(MPI_Win win, int peer, int *o, int *res)
{
    MPI_Request rq[8];
    MPI_Rput(o, N, MPI_INT, peer, 0, N, MPI_INT, win, &rq[0]);
    MPI_Rput_c(o, N, MPI_INT, peer, N, N, MPI_INT, win, &rq[1]);
    MPI_Rget(res, N, MPI_INT, peer, 2 * N, N, MPI_INT, win, &rq[2]);
    MPI_Rget_c(res + N, N, MPI_INT, peer, 2 * N, N, MPI_INT, win, &rq[3]);
    MPI_Raccumulate(o, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win, &rq[4]);
    MPI_Raccumulate_c(o, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win, &rq[5]);
    MPI_Rget_accumulate(o, N, MPI_INT, res + 2 * N, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win, &rq[6]);
    MPI_Rget_accumulate_c(o, N, MPI_INT, res + 3 * N, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_SUM, win, &rq[7]);
    MPI_Status st[8];
    check(MPI_Waitall(8, rq, st), "MPI_Waitall");
}

/* the window's name, info, group, attribute and error handler */
static void handles(MPI_Win win)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, flag, key, *val, size;
    MPI_Info info;
    MPI_Group group;
    MPI_Errhandler eh, old;
    MPI_Win_set_name(win, "calls_rma");
    MPI_Win_get_name(win, name, &len);
    MPI_Win_get_info(win, &info);
    MPI_Win_set_info(win, info);
    MPI_Info_free(&info);
    MPI_Win_get_group(win, &group);
    MPI_Group_size(group, &size);
    MPI_Group_free(&group);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key, NULL);
    MPI_Win_set_attr(win, key, &len);
    MPI_Win_get_attr(win, key, &val, &flag);
    if (!flag || val != &len)
        check(1, "MPI_Win_get_attr of the attribute set");
    MPI_Win_delete_attr(win, key);
    MPI_Win_free_keyval(&key);
    MPI_Win_create_errhandler(on_error, &eh);
    MPI_Win_get_errhandler(win, &old);
    MPI_Win_set_errhandler(win, eh);
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MPI_Win_set_errhandler(win, old);
    MPI_Errhandler_free(&eh);
    MPI_Errhandler_free(&old);
}

int main(int argc, char **argv)
{
    int rank, size, flag, o[N] = {1, 2, 3, 4}, res[5 * N];
    int *base, *mem;
    MPI_Aint wsize = 5 * N * sizeof(int), qsize;
    MPI_Comm w = MPI_COMM_WORLD, node;
    MPI_Group world, other;
    MPI_Win win, win2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size != 2) {
        fprintf(stderr, "calls_rma: run on 2 processes\n");
        MPI_Abort(w, 2);
    }
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    int peer = 1 - rank, disp;
    check(MPI_Alloc_mem(wsize, MPI_INFO_NULL, &mem), "MPI_Alloc_mem");
    check(MPI_Win_create(mem, wsize, sizeof(int), MPI_INFO_NULL, w, &win), "MPI_Win_create");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Comm_group(w, &world);
    MPI_Group_incl(world, 1, &peer, &other);
    for (int i = 0; i < ITER; i++) {
        /* active target: fence */
        check(MPI_Win_fence(0, win), "MPI_Win_fence");
        operations(win, peer, o, res);
        check(MPI_Win_fence(0, win), "MPI_Win_fence");
        /* active target: general synchronization, with wait and test */
        MPI_Win_post(other, 0, win);
        MPI_Win_start(other, 0, win);
        operations(win, peer, o, res);
        MPI_Win_complete(win);
        if (i == 0) {
            MPI_Win_wait(win);
        } else {
            for (flag = 0; !flag;)
                MPI_Win_test(win, &flag);
        }
        /* passive target: lock, flush, sync */
        check(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win), "MPI_Win_lock");
        operations(win, peer, o, res);
        MPI_Win_flush(peer, win);
        requests(win, peer, o, res);
        MPI_Win_flush_local(peer, win);
        MPI_Win_sync(win);
        check(MPI_Win_unlock(peer, win), "MPI_Win_unlock");
        check(MPI_Win_lock_all(0, win), "MPI_Win_lock_all");
        operations(win, peer, o, res);
        MPI_Win_flush_all(win);
        requests(win, peer, o, res);
        MPI_Win_flush_local_all(win);
        check(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
        MPI_Barrier(w);
    }
    handles(win);
    MPI_Win_free(&win);
    MPI_Group_free(&other);
    MPI_Group_free(&world);
    check(MPI_Free_mem(mem), "MPI_Free_mem");

    /* the other constructors, each used by a fence epoch */
    check(MPI_Win_allocate(wsize, sizeof(int), MPI_INFO_NULL, w, &base, &win), "MPI_Win_allocate");
    MPI_Win_create_c(res, wsize, sizeof(int), MPI_INFO_NULL, w, &win2);
    MPI_Win_fence(0, win);
    operations(win, peer, o, res);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win2);
    MPI_Win_free(&win);
    MPI_Win_allocate_c(wsize, sizeof(int), MPI_INFO_NULL, w, &base, &win);
    MPI_Win_free(&win);
    MPI_Comm_split_type(w, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    check(MPI_Win_allocate_shared(wsize, sizeof(int), MPI_INFO_NULL, node, &base, &win), "MPI_Win_allocate_shared");
    MPI_Win_shared_query(win, MPI_PROC_NULL, &qsize, &disp, &base);
    MPI_Win_free(&win);
    MPI_Win_allocate_shared_c(wsize, sizeof(int), MPI_INFO_NULL, node, &base, &win);
    MPI_Aint cdisp;
    MPI_Win_shared_query_c(win, MPI_PROC_NULL, &qsize, &cdisp, &base);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    /* a dynamic window: rank 1 attaches a buffer, rank 0 puts to its address */
    int attached[4 * N] = {0};
    MPI_Aint addr = 0;
    check(MPI_Win_create_dynamic(MPI_INFO_NULL, w, &win), "MPI_Win_create_dynamic");
    check(MPI_Win_attach(win, attached, sizeof attached), "MPI_Win_attach");
    MPI_Get_address(attached, &addr);
    MPI_Bcast(&addr, 1, MPI_AINT, 1, w);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(o, N, MPI_INT, 1, addr, N, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1 && attached[N - 1] != o[N - 1])
        check(1, "the MPI_Put to a dynamic window");
    check(MPI_Win_detach(win, attached), "MPI_Win_detach");
    MPI_Win_free(&win);
    if (rank == 0)
        printf("calls_rma done\n");
    MPI_Finalize();
    return 0;
}
