/* The functions of mpi_functions.txt on handles and topologies, on 2
 * processes: communicators (dup, split, create, idup, intercommunicators,
 * names, info, attributes, error handlers), groups, the cartesian, graph
 * and distributed graph topologies and their queries, datatypes (each
 * constructor, commit, queries, names, attributes, packing), info objects,
 * operations, error classes, generalized requests, status setters and the
 * environment queries; twice each.  The trace analyzer must give each the
 * SRC point and calls of the dynamic mode (test_analyze_functions.sh). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define ITER 2

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "calls_handles: %s failed (%d)\n", what, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void on_error(MPI_Comm *comm, int *err, ...)
{
    (void)comm;
    (void)err;
}

static void max_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

static void max_op_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    int n = (int)*len;
    max_op(in, inout, &n, type);
}

static int query(void *state, MPI_Status *st)
{
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    (void)state;
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int free_fn(void *state) { return (void)state, MPI_SUCCESS; }
static int cancel_fn(void *state, int complete) { return (void)state, (void)complete, MPI_SUCCESS; }

static void communicators(int rank)
{
    MPI_Comm w = MPI_COMM_WORLD, dup, dup2, split, create, group_comm, idup, idup2, inter, merged, parent;
    MPI_Group world, g;
    MPI_Info info;
    MPI_Request rq[2];
    MPI_Errhandler eh, old;
    char name[MPI_MAX_OBJECT_NAME];
    int len, result, flag, key, key2, *val, size;
    check(MPI_Comm_dup(w, &dup), "MPI_Comm_dup");
    MPI_Info_create(&info);
    MPI_Comm_dup_with_info(w, info, &dup2);
    check(MPI_Comm_split(w, rank, 0, &split), "MPI_Comm_split");
    MPI_Comm_group(w, &world);
    check(MPI_Comm_create(w, world, &create), "MPI_Comm_create");
    MPI_Comm_create_group(w, world, 7, &group_comm);
    MPI_Comm_idup(w, &idup, &rq[0]);
    MPI_Comm_idup_with_info(w, info, &idup2, &rq[1]);
    MPI_Status sts[2];
    check(MPI_Waitall(2, rq, sts), "MPI_Waitall");
    MPI_Comm_free(&idup2);
    MPI_Comm_free(&idup);
    MPI_Comm_compare(w, dup, &result);
    MPI_Comm_test_inter(dup, &flag);
    /* an intercommunicator between the two split halves */
    check(MPI_Intercomm_create(split, 0, w, 1 - rank, 5, &inter), "MPI_Intercomm_create");
    MPI_Comm_remote_size(inter, &size);
    MPI_Comm_remote_group(inter, &g);
    MPI_Group_free(&g);
    MPI_Intercomm_merge(inter, rank, &merged);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    MPI_Comm_get_parent(&parent);
    /* names, info, attributes, error handlers */
    MPI_Comm_set_name(dup, "calls_handles");
    MPI_Comm_get_name(dup, name, &len);
    MPI_Comm_set_info(dup, info);
    MPI_Info_free(&info);
    MPI_Comm_get_info(dup, &info);
    MPI_Info_free(&info);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(dup, key, &len);
    MPI_Comm_get_attr(dup, key, &val, &flag);
    if (!flag || val != &len)
        check(1, "MPI_Comm_get_attr of the attribute set");
    MPI_Comm_delete_attr(dup, key);
    MPI_Comm_free_keyval(&key);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key2, NULL);
    MPI_Attr_put(dup, key2, &len);
    MPI_Attr_get(dup, key2, &val, &flag);
    MPI_Attr_delete(dup, key2);
    MPI_Keyval_free(&key2);
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_get_errhandler(dup, &old);
    MPI_Comm_set_errhandler(dup, eh);
    MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
    MPI_Comm_set_errhandler(dup, old);
    MPI_Errhandler_free(&eh);
    MPI_Errhandler_free(&old);
    MPI_Errhandler_create(on_error, &eh);
    MPI_Errhandler_get(dup, &old);
    MPI_Errhandler_set(dup, eh);
    MPI_Errhandler_set(dup, old);
    MPI_Errhandler_free(&eh);
    MPI_Errhandler_free(&old);
    MPI_Group_free(&world);
    MPI_Comm_free(&group_comm);
    MPI_Comm_free(&create);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
}

static void groups(void)
{
    MPI_Group world, a, b, c;
    int size, rank, ranks[2] = {0, 1}, out[2], result, range[1][3] = {{0, 1, 1}};
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(world, &size);
    MPI_Group_rank(world, &rank);
    MPI_Group_incl(world, 1, ranks, &a);
    MPI_Group_excl(world, 1, ranks, &b);
    MPI_Group_translate_ranks(world, 2, ranks, world, out);
    MPI_Group_compare(a, b, &result);
    MPI_Group_union(a, b, &c);
    MPI_Group_free(&c);
    MPI_Group_intersection(a, world, &c);
    MPI_Group_free(&c);
    MPI_Group_difference(world, a, &c);
    MPI_Group_free(&c);
    MPI_Group_range_incl(world, 1, range, &c);
    MPI_Group_free(&c);
    MPI_Group_range_excl(world, 1, range, &c);
    MPI_Group_free(&c);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&world);
}

static void topologies(int rank)
{
    MPI_Comm w = MPI_COMM_WORLD, cart, sub, graph, dist, adj;
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2], remain[2] = {1, 0}, ndims, r, src, dst, status;
    int index[2] = {1, 2}, edges[2] = {1, 0}, nnodes, nedges, nb[2], n, in, out, weighted;
    int peer = 1 - rank, srcs[2], dsts[2];
    MPI_Dims_create(2, 2, dims);
    check(MPI_Cart_create(w, 2, dims, periods, 0, &cart), "MPI_Cart_create");
    MPI_Cartdim_get(cart, &ndims);
    MPI_Cart_get(cart, 2, dims, periods, coords);
    MPI_Cart_rank(cart, coords, &r);
    MPI_Cart_coords(cart, r, 2, coords);
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    MPI_Cart_map(w, 2, dims, periods, &r);
    MPI_Cart_sub(cart, remain, &sub);
    MPI_Topo_test(cart, &status);
    check(MPI_Graph_create(w, 2, index, edges, 0, &graph), "MPI_Graph_create");
    MPI_Graphdims_get(graph, &nnodes, &nedges);
    MPI_Graph_get(graph, 2, 2, index, edges);
    MPI_Graph_neighbors_count(graph, rank, &n);
    MPI_Graph_neighbors(graph, rank, 2, nb);
    MPI_Graph_map(w, 2, index, edges, &r);
    check(MPI_Dist_graph_create(w, 1, &rank, (int[]){1}, &peer, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist),
          "MPI_Dist_graph_create");
    check(
        MPI_Dist_graph_create_adjacent(w, 1, &peer, MPI_UNWEIGHTED, 1, &peer, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adj),
        "MPI_Dist_graph_create_adjacent");
    MPI_Dist_graph_neighbors_count(adj, &in, &out, &weighted);
    MPI_Dist_graph_neighbors(adj, 2, srcs, MPI_UNWEIGHTED, 2, dsts, MPI_UNWEIGHTED);
    MPI_Comm_free(&adj);
    MPI_Comm_free(&dist);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cart);
}

static void datatypes(void)
{
    MPI_Datatype t[24], ints2 = MPI_INT;
    int k = 0, one = 1, two[2] = {1, 1}, disp[2] = {0, 2}, sizes[1] = {4}, sub[1] = {2}, start[1] = {0};
    int gsz[1] = {4}, distr[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, psz[1] = {2};
    int size, ni, na, nd, comb, len, key, flag, *val, pos = 0, buf[8] = {0};
    MPI_Aint hdisp[2] = {0, 8}, lb, extent, addr, a2, psize;
    MPI_Count cone = 1, ctwo[2] = {1, 1}, cdisp[2] = {0, 2}, csize, clb, cext, cni, cna, cnd, ct, cpos = 0;
    MPI_Count csizes[1] = {4}, csub[1] = {2}, cstart[1] = {0}, cgsz[1] = {4}, cpsize;
    char name[MPI_MAX_OBJECT_NAME], packed[256];
    MPI_Type_contiguous(2, MPI_INT, &t[k++]);
    MPI_Type_contiguous_c(2, MPI_INT, &t[k++]);
    MPI_Type_vector(2, 1, 2, MPI_INT, &t[k++]);
    MPI_Type_vector_c(2, 1, 2, MPI_INT, &t[k++]);
    MPI_Type_hvector(2, 1, 8, MPI_INT, &t[k++]);
    MPI_Type_create_hvector(2, 1, 8, MPI_INT, &t[k++]);
    MPI_Type_create_hvector_c(2, 1, 8, MPI_INT, &t[k++]);
    MPI_Type_indexed(2, two, disp, MPI_INT, &t[k++]);
    MPI_Type_indexed_c(2, ctwo, cdisp, MPI_INT, &t[k++]);
    MPI_Type_hindexed(2, two, hdisp, MPI_INT, &t[k++]);
    MPI_Type_create_hindexed(2, two, hdisp, MPI_INT, &t[k++]);
    MPI_Type_create_hindexed_c(2, ctwo, cdisp, MPI_INT, &t[k++]);
    MPI_Type_create_indexed_block(2, 1, disp, MPI_INT, &t[k++]);
    MPI_Type_create_indexed_block_c(2, 1, cdisp, MPI_INT, &t[k++]);
    MPI_Type_create_hindexed_block(2, 1, hdisp, MPI_INT, &t[k++]);
    MPI_Type_create_hindexed_block_c(2, 1, cdisp, MPI_INT, &t[k++]);
    MPI_Type_struct(1, &one, hdisp, &ints2, &t[k++]);
    MPI_Type_create_struct(1, &one, hdisp, &ints2, &t[k++]);
    MPI_Type_create_struct_c(1, &cone, cdisp, &ints2, &t[k++]);
    MPI_Type_create_subarray(1, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t[k++]);
    MPI_Type_create_subarray_c(1, csizes, csub, cstart, MPI_ORDER_C, MPI_INT, &t[k++]);
    MPI_Type_create_darray(2, 0, 1, gsz, distr, darg, psz, MPI_ORDER_C, MPI_INT, &t[k++]);
    MPI_Type_create_darray_c(2, 0, 1, cgsz, distr, darg, psz, MPI_ORDER_C, MPI_INT, &t[k++]);
    MPI_Type_create_resized(MPI_INT, 0, 8, &t[k++]);
    for (int i = 0; i < k; i++)
        check(MPI_Type_commit(&t[i]), "MPI_Type_commit");
    MPI_Type_create_resized_c(MPI_INT, 0, 8, &t[k]);
    MPI_Type_free(&t[k]);
    MPI_Type_dup(t[0], &t[k]);
    MPI_Type_free(&t[k]);
    /* queries */
    MPI_Type_size(t[0], &size);
    MPI_Type_size_c(t[0], &csize);
    MPI_Type_size_x(t[0], &csize);
    MPI_Type_extent(t[0], &extent);
    MPI_Type_lb(t[0], &lb);
    MPI_Type_ub(t[0], &extent);
    MPI_Type_get_extent(t[0], &lb, &extent);
    MPI_Type_get_extent_c(t[0], &clb, &cext);
    MPI_Type_get_extent_x(t[0], &clb, &cext);
    MPI_Type_get_true_extent(t[0], &lb, &extent);
    MPI_Type_get_true_extent_c(t[0], &clb, &cext);
    MPI_Type_get_true_extent_x(t[0], &clb, &cext);
    MPI_Type_get_envelope(t[0], &ni, &na, &nd, &comb);
    MPI_Type_get_envelope_c(t[0], &cni, &cna, &cnd, &ct, &comb);
    int ints[4];
    MPI_Aint aints[4];
    MPI_Count counts[4];
    MPI_Datatype types[4];
    MPI_Type_get_contents(t[0], 4, 4, 4, ints, aints, types);
    MPI_Type_get_contents_c(t[0], 4, 4, 4, 4, ints, aints, counts, types);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, sizeof(int), &t[k]);
    MPI_Type_set_name(t[0], "pair");
    MPI_Type_get_name(t[0], name, &len);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
    MPI_Type_set_attr(t[0], key, &len);
    MPI_Type_get_attr(t[0], key, &val, &flag);
    MPI_Type_delete_attr(t[0], key);
    MPI_Type_free_keyval(&key);
    /* packing */
    MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &size);
    MPI_Pack_size_c(2, MPI_INT, MPI_COMM_WORLD, &csize);
    MPI_Pack(buf, 2, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    MPI_Pack_c(buf, 2, MPI_INT, packed, sizeof packed, &cpos, MPI_COMM_WORLD);
    pos = 0, cpos = 0;
    MPI_Unpack(packed, sizeof packed, &pos, buf, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack_c(packed, sizeof packed, &cpos, buf, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Pack_external_size("external32", 2, MPI_INT, &psize);
    MPI_Pack_external_size_c("external32", 2, MPI_INT, &cpsize);
    MPI_Aint apos = 0;
    MPI_Pack_external("external32", buf, 2, MPI_INT, packed, sizeof packed, &apos);
    cpos = 0;
    MPI_Pack_external_c("external32", buf, 2, MPI_INT, packed, sizeof packed, &cpos);
    apos = 0, cpos = 0;
    MPI_Unpack_external("external32", packed, sizeof packed, &apos, buf, 2, MPI_INT);
    MPI_Unpack_external_c("external32", packed, sizeof packed, &cpos, buf, 2, MPI_INT);
    MPI_Get_address(&buf[0], &addr);
    MPI_Address(&buf[2], &a2);
    if (MPI_Aint_diff(a2, addr) != 2 * (MPI_Aint)sizeof(int) || MPI_Aint_add(addr, 0) != addr)
        check(1, "MPI_Aint_diff of two addresses");
    for (int i = 0; i < k; i++)
        MPI_Type_free(&t[i]);
}

static void infos(void)
{
    MPI_Info info, dup, env;
    char value[64], key[MPI_MAX_INFO_KEY];
    int flag, len, n, buflen = sizeof value;
    MPI_Info_create(&info);
    MPI_Info_set(info, "calls", "handles");
    MPI_Info_get(info, "calls", sizeof value - 1, value, &flag);
    if (!flag || strcmp(value, "handles"))
        check(1, "MPI_Info_get of the key set");
    MPI_Info_get_valuelen(info, "calls", &len, &flag);
    MPI_Info_get_string(info, "calls", &buflen, value, &flag);
    MPI_Info_get_nkeys(info, &n);
    MPI_Info_get_nthkey(info, 0, key);
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(dup, "calls");
    MPI_Info_free(&dup);
    MPI_Info_free(&info);
    MPI_Info_create_env(0, NULL, &env);
    MPI_Info_free(&env);
}

static void environment(void)
{
    char name[MPI_MAX_PROCESSOR_NAME], version[MPI_MAX_LIBRARY_VERSION_STRING], msg[MPI_MAX_ERROR_STRING];
    int len, major, minor, flag, level, class, code, in[2] = {1, 2}, inout[2] = {2, 1}, commute;
    MPI_Op op;
    MPI_Request rq;
    MPI_Status st;
    MPI_Get_processor_name(name, &len);
    MPI_Get_version(&major, &minor);
    MPI_Get_library_version(version, &len);
    MPI_Initialized(&flag);
    MPI_Finalized(&flag);
    MPI_Query_thread(&level);
    MPI_Is_thread_main(&flag);
    MPI_Add_error_class(&class);
    MPI_Add_error_code(class, &code);
    MPI_Add_error_string(code, "calls_handles' error");
    MPI_Error_class(code, &class);
    MPI_Error_string(code, msg, &len);
    MPI_Op_create(max_op, 1, &op);
    MPI_Op_commutative(op, &commute);
    MPI_Reduce_local(in, inout, 2, MPI_INT, op);
    MPI_Op_free(&op);
    MPI_Op_create_c(max_op_c, 1, &op);
    MPI_Op_free(&op);
    MPI_Grequest_start(query, free_fn, cancel_fn, NULL, &rq);
    MPI_Grequest_complete(rq);
    MPI_Wait(&rq, &st);
    /* the status setters a query function calls (a call inside MPI_Wait
     * would be part of the wait's time, no SRC point of its own) */
    MPI_Status_set_elements(&st, MPI_BYTE, 0);
    MPI_Status_set_elements_x(&st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(&st, 0);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "calls_handles: run on 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < ITER; i++) {
        communicators(rank);
        groups();
        topologies(rank);
        datatypes();
        infos();
        environment();
    }
    if (rank == 0)
        printf("calls_handles done\n");
    MPI_Finalize();
    return 0;
}
