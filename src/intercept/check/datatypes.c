#include <stdlib.h>
#include <string.h>

#include "gen/mpi_declared.h"
#include "intercept/check/datatypes.h"
#include "intercept/handle_keys.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"

/* Handles kept at most (freed ones, layouts): past it they are forgotten,
 * which only loses findings. */
#define MAX_KEPT 4096
/* Nesting of derived datatypes followed when reading a layout. */
#define MAX_DEPTH 16

typedef struct {
    mpp_layout_t *layout; /* NULL: looked at, not known */
} cached_t;

static MPI_Comm query_comm = MPI_COMM_NULL; /* errors return: MPI_Pack_size asks about a datatype */
static mpp_handlemap_t freed, layouts;
static mpp_layout_t *basic[256]; /* MPICH's basic types by size */
static int started;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

/* The size of a basic datatype whose handle says it (MPICH), else -1. */
static int64_t basic_size(MPI_Datatype type)
{
#if defined(MPICH_VERSION)
    /* kind builtin (0x4), object datatype (0xc), size in bits 8-15 */
    if (((unsigned)type & 0xfc000000u) == 0x4c000000u)
        return ((unsigned)type >> 8) & 0xff;
#else
    (void)type;
#endif
    return -1;
}

static void drop_layout(void *value)
{
    cached_t *c = value;
    mpp_layout_unref(c->layout);
}

static void drop_each(uint64_t key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    drop_layout(value);
}

static void forget_layouts(void)
{
    mpp_handlemap_each(&layouts, drop_each, NULL);
    mpp_handlemap_free(&layouts);
    mpp_handlemap_init(&layouts, sizeof(cached_t));
}

static void forget_locked(void)
{
    forget_layouts();
    mpp_handlemap_free(&freed);
    mpp_handlemap_init(&freed, 1);
}

void mpp_chk_types_start(MPI_Comm comm, int locking)
{
    lock.on = locking;
    mpp_handlemap_init(&layouts, sizeof(cached_t));
    mpp_handlemap_init(&freed, 1);
    if (PMPI_Comm_dup(comm, &query_comm) != MPI_SUCCESS ||
        PMPI_Comm_set_errhandler(query_comm, MPI_ERRORS_RETURN) != MPI_SUCCESS)
        query_comm = MPI_COMM_NULL;
    started = 1;
}

void mpp_chk_types_end(void)
{
    if (!started)
        return;
    mpp_mt_take(&lock);
    started = 0;
    forget_locked();
    mpp_handlemap_free(&layouts);
    mpp_handlemap_free(&freed);
    for (size_t i = 0; i < sizeof basic / sizeof basic[0]; i++) {
        mpp_layout_unref(basic[i]);
        basic[i] = NULL;
    }
    if (query_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&query_comm);
    mpp_mt_give(&lock);
}

void mpp_chk_types_forget(void)
{
    mpp_mt_take(&lock);
    if (started)
        forget_locked();
    mpp_mt_give(&lock);
}

int mpp_chk_type_freed(MPI_Datatype type)
{
    mpp_mt_take(&lock);
    int was = started && mpp_handlemap_get(&freed, MPP_HANDLE_KEY(type)) != NULL;
    mpp_mt_give(&lock);
    return was;
}

static void drop_cached(uint64_t key)
{
    cached_t c;
    if (mpp_handlemap_remove(&layouts, key, &c))
        drop_layout(&c);
}

void mpp_chk_type_out(MPI_Datatype before, MPI_Datatype after)
{
    mpp_mt_take(&lock);
    if (!started) {
        mpp_mt_give(&lock);
        return;
    }
    if (after == MPI_DATATYPE_NULL && before != MPI_DATATYPE_NULL) {
        drop_cached(MPP_HANDLE_KEY(before));
        if (freed.count >= MAX_KEPT) {
            mpp_handlemap_free(&freed);
            mpp_handlemap_init(&freed, 1);
        }
        int inserted;
        (void)mpp_handlemap_put(&freed, MPP_HANDLE_KEY(before), &inserted);
    } else if (after != MPI_DATATYPE_NULL) {
        mpp_handlemap_remove(&freed, MPP_HANDLE_KEY(after), NULL);
        drop_cached(MPP_HANDLE_KEY(after));
    }
    mpp_mt_give(&lock);
}

const char *mpp_chk_type_problem(MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL)
        return "is MPI_DATATYPE_NULL";
    if (basic_size(type) >= 0)
        return NULL;
    if (mpp_chk_type_freed(type))
        return "was freed";
#if defined(MPICH_VERSION)
    int size;
    if (query_comm == MPI_COMM_NULL || PMPI_Pack_size(1, type, query_comm, &size) == MPI_SUCCESS)
        return NULL;
    return "is not committed (or not a valid datatype)";
#else
    /* Open MPI 4.1's MPI_Pack_size of a datatype not committed ends in a
     * segmentation fault (opal_convertor_prepare_for_send), where its
     * MPI_Send returns MPI_ERR_TYPE: not asked (an mpi-error then) */
    return NULL;
#endif
}

int mpp_chk_type_first_byte(MPI_Datatype type, int64_t *offset)
{
    int64_t size = basic_size(type);
    if (size >= 0) {
        *offset = 0;
        return size > 0;
    }
    MPI_Aint lb, extent;
    if (PMPI_Type_get_true_extent(type, &lb, &extent) != MPI_SUCCESS || extent <= 0)
        return 0;
    *offset = lb;
    return 1;
}

/* --- layouts --- */

typedef struct {
    int64_t ni, na, nl, nd;
    int combiner;
} envelope_t;

static int envelope(MPI_Datatype type, envelope_t *e)
{
#if defined(MPP_HAVE_MPI_Type_get_envelope_c)
    MPI_Count ni, na, nl, nd;
    if (PMPI_Type_get_envelope_c(type, &ni, &na, &nl, &nd, &e->combiner) != MPI_SUCCESS)
        return -1;
    *e = (envelope_t){ni, na, nl, nd, e->combiner};
#else
    int ni, na, nd;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &e->combiner) != MPI_SUCCESS)
        return -1;
    *e = (envelope_t){ni, na, 0, nd, e->combiner};
#endif
    return 0;
}

static int predefined(int combiner)
{
    return combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
           combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
}

static int64_t type_size(MPI_Datatype type)
{
    MPI_Count size = -1;
#if defined(MPP_HAVE_MPI_Type_size_c)
    if (PMPI_Type_size_c(type, &size) != MPI_SUCCESS)
#else
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS)
#endif
        return -1;
    return (int64_t)size;
}

/* A predefined datatype's bytes: one block, unless it has a gap (MPI_SHORT_INT). */
static mpp_layout_t *predefined_layout(MPI_Datatype type, MPI_Aint extent, int64_t size)
{
    MPI_Aint tlb, textent;
    if (PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS || (size && textent != size))
        return NULL;
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    mpp_layout_add(&b, tlb, size);
    return mpp_layout_finish(&b, extent, size);
}

static mpp_layout_t *flatten(MPI_Datatype type, int depth);

/* The constructor's arguments: `count` blocks of `len[i]` child elements
 * (`len` NULL: `blocklen` each) at displacements disp[i] of `unit` bytes. */
static void add_blocks(mpp_layout_builder_t *b, const mpp_layout_t *child, int64_t count, const int *len,
                       int64_t blocklen, const int *idisp, const MPI_Aint *adisp, int64_t unit)
{
    for (int64_t i = 0; i < count && !b->failed; i++) {
        int64_t d = idisp ? idisp[i] : adisp[i];
        mpp_layout_add_child(b, child, d * unit, len ? len[i] : blocklen);
    }
}

/* One constructor's blocks, from its arguments (MPI_Type_get_contents). */
static void build(mpp_layout_builder_t *b, int combiner, const int *in, const MPI_Aint *ad,
                  mpp_layout_t *const *child, int64_t nchild)
{
    const mpp_layout_t *c = nchild ? child[0] : NULL;
    int64_t ext = c ? c->extent : 0;
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: /* the bytes of the child; the extent is MPI's */
        mpp_layout_add_child(b, c, 0, 1);
        return;
    case MPI_COMBINER_CONTIGUOUS:
        mpp_layout_add_child(b, c, 0, in[0]);
        return;
    case MPI_COMBINER_VECTOR:
        for (int64_t i = 0; i < in[0] && !b->failed; i++)
            mpp_layout_add_child(b, c, i * in[2] * ext, in[1]);
        return;
    case MPI_COMBINER_HVECTOR:
#if defined(MPICH_VERSION) /* MPI-1's Fortran forms: Open MPI names them only with MPI-1 compatibility */
    case MPI_COMBINER_HVECTOR_INTEGER:
#endif
        for (int64_t i = 0; i < in[0] && !b->failed; i++)
            mpp_layout_add_child(b, c, i * ad[0], in[1]);
        return;
    case MPI_COMBINER_INDEXED:
        add_blocks(b, c, in[0], in + 1, 0, in + 1 + in[0], NULL, ext);
        return;
    case MPI_COMBINER_HINDEXED:
#if defined(MPICH_VERSION)
    case MPI_COMBINER_HINDEXED_INTEGER:
#endif
        add_blocks(b, c, in[0], in + 1, 0, NULL, ad, 1);
        return;
    case MPI_COMBINER_INDEXED_BLOCK:
        add_blocks(b, c, in[0], NULL, in[1], in + 2, NULL, ext);
        return;
    case MPI_COMBINER_HINDEXED_BLOCK:
        add_blocks(b, c, in[0], NULL, in[1], NULL, ad, 1);
        return;
    case MPI_COMBINER_STRUCT:
#if defined(MPICH_VERSION)
    case MPI_COMBINER_STRUCT_INTEGER:
#endif
        for (int64_t i = 0; i < in[0] && i < nchild && !b->failed; i++)
            mpp_layout_add_child(b, child[i], ad[i], in[1 + i]);
        return;
    case MPI_COMBINER_SUBARRAY: {
        int n = in[0];
        int64_t dims[3 * 32];
        for (int i = 0; i < 3 * n && n <= 32; i++)
            dims[i] = in[1 + i];
        if (n > 32)
            b->failed = 1;
        else
            mpp_layout_add_subarray(b, c, n, dims, dims + n, dims + 2 * n, in[1 + 3 * n] == MPI_ORDER_C);
        return;
    }
    default: /* MPI_COMBINER_DARRAY and anything newer: not known */
        b->failed = 1;
    }
}

/* The arguments of a derived datatype's constructor, its children's
 * layouts, its own (children given back to MPI: get_contents made them). */
static mpp_layout_t *derived_layout(MPI_Datatype type, const envelope_t *e, MPI_Aint extent, int64_t size, int depth)
{
    if (e->nl > 0 || e->ni > 3 * MPP_LAYOUT_MAX_BLOCKS + 8 || e->na > MPP_LAYOUT_MAX_BLOCKS + 2 ||
        e->nd > MPP_LAYOUT_MAX_BLOCKS || e->nd < 1)
        return NULL; /* large counts, too many blocks */
    int *in = malloc((size_t)(e->ni + 1) * sizeof *in);
    MPI_Aint *ad = malloc((size_t)(e->na + 1) * sizeof *ad);
    MPI_Datatype *types = malloc((size_t)e->nd * sizeof *types);
    mpp_layout_t **child = calloc((size_t)e->nd, sizeof *child);
    mpp_layout_t *l = NULL;
    int got = 0;
    if (in && ad && types && child) {
#if defined(MPP_HAVE_MPI_Type_get_contents_c)
        MPI_Count none;
        got = PMPI_Type_get_contents_c(type, e->ni, e->na, 0, e->nd, in, ad, &none, types) == MPI_SUCCESS;
#else
        got = PMPI_Type_get_contents(type, (int)e->ni, (int)e->na, (int)e->nd, in, ad, types) == MPI_SUCCESS;
#endif
    }
    int ok = got;
    for (int64_t i = 0; got && i < e->nd; i++) {
        envelope_t ce;
        if (ok)
            ok = (child[i] = flatten(types[i], depth + 1)) != NULL;
        if (basic_size(types[i]) < 0 && envelope(types[i], &ce) == 0 && !predefined(ce.combiner))
            PMPI_Type_free(&types[i]);
    }
    if (ok) {
        mpp_layout_builder_t b;
        mpp_layout_builder_init(&b);
        build(&b, e->combiner, in, ad, child, e->nd);
        l = mpp_layout_finish(&b, extent, size);
    }
    for (int64_t i = 0; child && i < e->nd; i++)
        mpp_layout_unref(child[i]);
    free(child);
    free(types);
    free(ad);
    free(in);
    return l;
}

static mpp_layout_t *flatten(MPI_Datatype type, int depth)
{
    int64_t size = basic_size(type);
    if (size >= 0)
        return mpp_layout_contiguous(size, size);
    envelope_t e;
    MPI_Aint lb, extent, tlb, textent;
    size = type_size(type);
    if (depth > MAX_DEPTH || size < 0 || envelope(type, &e) != 0 ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
        return NULL;
    if (predefined(e.combiner))
        return predefined_layout(type, extent, size);
    mpp_layout_t *l = derived_layout(type, &e, extent, size, depth);
    /* the blocks must begin and end where MPI says the bytes do */
    if (l && l->n &&
        (PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS || l->lb != tlb || l->ub != tlb + textent)) {
        mpp_layout_unref(l);
        l = NULL;
    }
    return l;
}

mpp_layout_t *mpp_chk_layout(MPI_Datatype type)
{
    int64_t size = basic_size(type);
    mpp_mt_take(&lock);
    mpp_layout_t *l = NULL;
    if (!started) {
        /* nothing */
    } else if (size >= 0 && size < 256) {
        if (!basic[size])
            basic[size] = mpp_layout_contiguous(size, size);
        l = basic[size];
    } else {
        int inserted;
        if (layouts.count >= MAX_KEPT)
            forget_layouts();
        cached_t *c = mpp_handlemap_put(&layouts, MPP_HANDLE_KEY(type), &inserted);
        if (c && inserted)
            c->layout = flatten(type, 0);
        l = c ? c->layout : NULL;
    }
    mpp_layout_ref(l);
    mpp_mt_give(&lock);
    return l;
}
