#include <stdlib.h>

#include "check/collcheck.h"
#include "gen/mpi_declared.h"
#include "intercept/check/signatures.h"
#include "intercept/handle_keys.h"
#include "intercept/wrapper_support.h"
#include "util/handlemap.h"

/* The predefined datatypes: their class, sized by MPI_Type_size where the
 * class has sizes (MPI_LONG is SIGNED + 8 here, as MPI_INT64_T: the same
 * data, which signature.h lets match). */
/* (MPI_LB and MPI_UB, removed in MPI-3.0, are not known: a type holding them is not decoded) */
enum { K_ANY = 1, K_CHAR, K_SIGNED, K_UNSIGNED, K_FLOAT, K_COMPLEX, K_LOGICAL, K_BOOL, K_PAIR, K_OTHER };

typedef struct {
    MPI_Datatype type;
    int kind, index;
} named_t;

static const named_t named[] = {
    {MPI_BYTE, K_ANY, 0},
    {MPI_PACKED, K_ANY, 0},
    {MPI_CHAR, K_CHAR, 0},
    {MPI_CHARACTER, K_CHAR, 0},
    {MPI_SIGNED_CHAR, K_SIGNED, 0},
    {MPI_SHORT, K_SIGNED, 0},
    {MPI_INT, K_SIGNED, 0},
    {MPI_LONG, K_SIGNED, 0},
    {MPI_LONG_LONG_INT, K_SIGNED, 0},
    {MPI_INT8_T, K_SIGNED, 0},
    {MPI_INT16_T, K_SIGNED, 0},
    {MPI_INT32_T, K_SIGNED, 0},
    {MPI_INT64_T, K_SIGNED, 0},
    {MPI_AINT, K_SIGNED, 0},
    {MPI_OFFSET, K_SIGNED, 0},
    {MPI_COUNT, K_SIGNED, 0},
    {MPI_INTEGER, K_SIGNED, 0},
    {MPI_UNSIGNED_CHAR, K_UNSIGNED, 0},
    {MPI_UNSIGNED_SHORT, K_UNSIGNED, 0},
    {MPI_UNSIGNED, K_UNSIGNED, 0},
    {MPI_UNSIGNED_LONG, K_UNSIGNED, 0},
    {MPI_UNSIGNED_LONG_LONG, K_UNSIGNED, 0},
    {MPI_UINT8_T, K_UNSIGNED, 0},
    {MPI_UINT16_T, K_UNSIGNED, 0},
    {MPI_UINT32_T, K_UNSIGNED, 0},
    {MPI_UINT64_T, K_UNSIGNED, 0},
    {MPI_FLOAT, K_FLOAT, 0},
    {MPI_DOUBLE, K_FLOAT, 0},
    {MPI_LONG_DOUBLE, K_FLOAT, 0},
    {MPI_REAL, K_FLOAT, 0},
    {MPI_DOUBLE_PRECISION, K_FLOAT, 0},
    {MPI_C_FLOAT_COMPLEX, K_COMPLEX, 0},
    {MPI_C_DOUBLE_COMPLEX, K_COMPLEX, 0},
    {MPI_C_LONG_DOUBLE_COMPLEX, K_COMPLEX, 0},
    {MPI_COMPLEX, K_COMPLEX, 0},
    {MPI_DOUBLE_COMPLEX, K_COMPLEX, 0},
    {MPI_LOGICAL, K_LOGICAL, 0},
    {MPI_C_BOOL, K_BOOL, 0},
    {MPI_FLOAT_INT, K_PAIR, 0},
    {MPI_DOUBLE_INT, K_PAIR, 1},
    {MPI_LONG_INT, K_PAIR, 2},
    {MPI_SHORT_INT, K_PAIR, 3},
    {MPI_2INT, K_PAIR, 4},
    {MPI_LONG_DOUBLE_INT, K_PAIR, 5},
    {MPI_WCHAR, K_OTHER, 0},
#ifdef MPI_INTEGER1
    {MPI_INTEGER1, K_SIGNED, 0},
    {MPI_INTEGER2, K_SIGNED, 0},
    {MPI_INTEGER4, K_SIGNED, 0},
    {MPI_INTEGER8, K_SIGNED, 0},
#endif
#ifdef MPI_INTEGER16
    {MPI_INTEGER16, K_SIGNED, 0},
#endif
#ifdef MPI_REAL4
    {MPI_REAL4, K_FLOAT, 0},
    {MPI_REAL8, K_FLOAT, 0},
#endif
#ifdef MPI_REAL16
    {MPI_REAL16, K_FLOAT, 0},
#endif
#ifdef MPI_COMPLEX8
    {MPI_COMPLEX8, K_COMPLEX, 0},
    {MPI_COMPLEX16, K_COMPLEX, 0},
#endif
#ifdef MPI_COMPLEX32
    {MPI_COMPLEX32, K_COMPLEX, 0},
#endif
#ifdef MPI_2INTEGER
    {MPI_2INTEGER, K_PAIR, 6},
    {MPI_2REAL, K_PAIR, 7},
    {MPI_2DOUBLE_PRECISION, K_PAIR, 8},
#endif
#ifdef MPI_CXX_BOOL
    {MPI_CXX_BOOL, K_OTHER, 1},
    {MPI_CXX_FLOAT_COMPLEX, K_COMPLEX, 0},
    {MPI_CXX_DOUBLE_COMPLEX, K_COMPLEX, 0},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, K_COMPLEX, 0},
#endif
};

static mpp_handlemap_t named_map; /* handle -> mpp_chk_sig_t, read only once made */
static int keyval = MPI_KEYVAL_INVALID;

static mpp_chk_sig_t of_named(const named_t *n)
{
    mpp_chk_sig_t s = {mpp_sig_empty(), 0};
    int64_t size = mpp_type_size_known(n->type);
    int cls = -1;
    switch (n->kind) {
    case K_ANY:
        cls = MPP_SIG_ANY;
        break;
    case K_CHAR:
        cls = MPP_SIG_CHAR;
        break;
    case K_SIGNED:
        cls = size >= 1 && size <= 16 ? MPP_SIG_SIGNED + (int)size : -1;
        break;
    case K_UNSIGNED:
        cls = size >= 1 && size <= 16 ? MPP_SIG_UNSIGNED + (int)size : -1;
        break;
    case K_FLOAT:
        cls = size >= 1 && size <= 16 ? MPP_SIG_FLOAT + (int)size : -1;
        break;
    case K_COMPLEX:
        cls = size >= 1 && size <= 32 ? MPP_SIG_COMPLEX + (int)size : -1;
        break;
    case K_LOGICAL:
        cls = size >= 1 && size <= 16 ? MPP_SIG_LOGICAL + (int)size : -1;
        break;
    case K_BOOL:
        cls = MPP_SIG_BOOL;
        break;
    case K_PAIR:
        cls = MPP_SIG_PAIR + n->index;
        break;
    case K_OTHER:
        cls = MPP_SIG_OTHER + n->index;
        break;
    }
    if (cls < 0)
        return (mpp_chk_sig_t){{0, 0, -2}, 0};
    s.sig = mpp_sig_basic(cls);
    /* a long double's padding bytes are not data (no checksum of them) */
    s.padded = (n->kind == K_FLOAT && size > 8) || (n->kind == K_COMPLEX && size > 16) ||
               (n->kind == K_PAIR && n->index == 5);
    return s;
}

static int delete_sig(MPI_Datatype type, int key, void *value, void *extra)
{
    (void)type, (void)key, (void)extra;
    free(value);
    return MPI_SUCCESS;
}

void mpp_chk_signatures_start(void)
{
    mpp_handlemap_init(&named_map, sizeof(mpp_chk_sig_t));
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        if (named[i].type == MPI_DATATYPE_NULL)
            continue; /* not in this MPI (a Fortran type without Fortran) */
        int inserted;
        mpp_chk_sig_t *s = mpp_handlemap_put(&named_map, MPP_HANDLE_KEY(named[i].type), &inserted);
        if (s && inserted)
            *s = of_named(&named[i]);
    }
    if (PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_sig, &keyval, NULL) != MPI_SUCCESS)
        keyval = MPI_KEYVAL_INVALID;
}

void mpp_chk_signatures_end(void)
{
    mpp_handlemap_free(&named_map);
    if (keyval != MPI_KEYVAL_INVALID)
        PMPI_Type_free_keyval(&keyval);
    keyval = MPI_KEYVAL_INVALID;
}

static const mpp_chk_sig_t unknown = {{0, 0, -2}, 0};

static mpp_chk_sig_t decode(MPI_Datatype type, int depth);

/* A part of a derived type: decoded, then freed when MPI gave a handle of
 * its own for it (a derived one). */
static mpp_chk_sig_t part(MPI_Datatype type, int depth)
{
    mpp_chk_sig_t s = decode(type, depth + 1);
    int ni, na, nd, combiner;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner != MPI_COMBINER_NAMED)
        PMPI_Type_free(&type);
    return s;
}

/* A structure: the concatenation of its blocks. */
static mpp_chk_sig_t of_struct(const int *ints, MPI_Datatype *types, int count, int depth)
{
    mpp_chk_sig_t s = {mpp_sig_empty(), 0};
    for (int i = 0; i < count; i++) {
        mpp_chk_sig_t b = part(types[i], depth);
        if (s.sig.basic == -2)
            continue; /* the remaining parts are freed all the same */
        if (b.sig.basic == -2)
            s = unknown;
        else
            s = (mpp_chk_sig_t){mpp_sig_concat(s.sig, mpp_sig_repeat(b.sig, (uint64_t)ints[1 + i])),
                                s.padded | b.padded};
    }
    return s;
}

/* A derived type of one old type holds its elements only, in some layout:
 * its signature is that type's, size / old size times. */
static mpp_chk_sig_t of_derived(MPI_Datatype type, int depth)
{
    int ni, na, nd, combiner;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS || ni < 0 || na < 0 || nd < 0)
        return unknown;
    int *ints = malloc(((size_t)ni + 1) * sizeof *ints);
    MPI_Aint *aints = malloc(((size_t)na + 1) * sizeof *aints);
    MPI_Datatype *types = malloc(((size_t)nd + 1) * sizeof *types);
    mpp_chk_sig_t s = unknown;
    if (ints && aints && types && PMPI_Type_get_contents(type, ni, na, nd, ints, aints, types) == MPI_SUCCESS) {
        if (combiner == MPI_COMBINER_STRUCT && ni >= 1 && ints[0] == nd) {
            s = of_struct(ints, types, nd, depth);
        } else if (nd == 1) {
            mpp_chk_sig_t old = part(types[0], depth);
            int64_t size = mpp_type_size_known(type),
                    old_size = old.sig.basic == -2 ? -1 : mpp_type_size_known(types[0]);
            if (old.sig.length == 0)
                s = old;
            else if (size >= 0 && old_size > 0 && size % old_size == 0)
                s = (mpp_chk_sig_t){mpp_sig_repeat(old.sig, (uint64_t)(size / old_size)), old.padded};
        } else {
            for (int i = 0; i < nd; i++) /* a combiner not known here: its parts go back */
                part(types[i], depth);
        }
    }
    free(ints);
    free(aints);
    free(types);
    return s;
}

/* MPI_Type_create_f90_*: a basic type of its size. */
static mpp_chk_sig_t of_f90(MPI_Datatype type, int combiner)
{
    int64_t size = mpp_type_size_known(type);
    int kind = combiner == MPI_COMBINER_F90_REAL      ? K_FLOAT
               : combiner == MPI_COMBINER_F90_COMPLEX ? K_COMPLEX
                                                      : K_SIGNED;
    named_t n = {type, kind, 0};
    return size > 0 ? of_named(&n) : unknown;
}

static mpp_chk_sig_t decode(MPI_Datatype type, int depth)
{
    mpp_chk_sig_t *known = mpp_handlemap_get(&named_map, MPP_HANDLE_KEY(type));
    if (known)
        return *known;
    int ni, na, nd, combiner;
    if (depth > 32 || PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return unknown;
    if (combiner == MPI_COMBINER_NAMED)
        return unknown; /* a predefined type not in the table */
    if (combiner == MPI_COMBINER_F90_REAL || combiner == MPI_COMBINER_F90_COMPLEX ||
        combiner == MPI_COMBINER_F90_INTEGER)
        return of_f90(type, combiner);
    return of_derived(type, depth);
}

mpp_chk_sig_t mpp_chk_type_sig(MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL)
        return unknown;
    mpp_chk_sig_t *known = mpp_handlemap_get(&named_map, MPP_HANDLE_KEY(type));
    if (known)
        return *known;
    void *value = NULL;
    int flag = 0, ni, na, nd, combiner;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS || combiner == MPI_COMBINER_NAMED)
        return unknown; /* a predefined type not in the table: no attribute on it */
    if (keyval != MPI_KEYVAL_INVALID && PMPI_Type_get_attr(type, keyval, &value, &flag) == MPI_SUCCESS && flag &&
        value)
        return *(const mpp_chk_sig_t *)value;
    mpp_chk_sig_t s = decode(type, 0);
    mpp_chk_sig_t *copy = keyval != MPI_KEYVAL_INVALID ? malloc(sizeof *copy) : NULL;
    if (copy) {
        *copy = s;
        if (PMPI_Type_set_attr(type, keyval, copy) != MPI_SUCCESS)
            free(copy);
    }
    return s;
}

mpp_chk_sig_t mpp_chk_signature(MPI_Datatype type, int64_t count)
{
    if (count <= 0)
        return (mpp_chk_sig_t){mpp_sig_empty(), 0};
    mpp_chk_sig_t s = mpp_chk_type_sig(type);
    if (s.sig.basic != -2)
        s.sig = mpp_sig_repeat(s.sig, (uint64_t)count);
    return s;
}

/* in the order of their names' (check/collcheck.h, mpp_cc_op_name) */
static const struct {
    MPI_Op op;
} ops[] = {{MPI_MAX}, {MPI_MIN},  {MPI_SUM},  {MPI_PROD},   {MPI_LAND},   {MPI_BAND},    {MPI_LOR},
           {MPI_BOR}, {MPI_LXOR}, {MPI_BXOR}, {MPI_MINLOC}, {MPI_MAXLOC}, {MPI_REPLACE}, {MPI_NO_OP}};

int mpp_chk_op_id(MPI_Op op)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].op == op)
            return (int)i + 1;
    return 0;
}

const char *mpp_chk_op_name(int id) { return mpp_cc_op_name(id); }
