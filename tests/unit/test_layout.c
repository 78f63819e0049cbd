/* The bytes a datatype touches (src/check/layout.c): layouts built as
 * MPI's constructors build them, and whether two buffers share a byte by
 * their blocks, not their ranges. */
#include <stdlib.h>
#include <string.h>

#include "check/layout.h"
#include "suites.h"

/* MPI_Type_vector(count, blocklen, stride) of a child, as datatypes.c builds it. */
static mpp_layout_t *vector(const mpp_layout_t *child, int64_t count, int64_t blocklen, int64_t stride)
{
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    for (int64_t i = 0; i < count; i++)
        mpp_layout_add_child(&b, child, i * stride * child->extent, blocklen);
    int64_t extent = ((count - 1) * stride + blocklen) * child->extent;
    return mpp_layout_finish(&b, extent, count * blocklen * child->size);
}

static mpp_span_t span(const void *addr, int64_t count, const mpp_layout_t *l)
{
    return (mpp_span_t){(uintptr_t)addr, count, l};
}

START_TEST(test_layout_vector_blocks)
{
    mpp_layout_t *dbl = mpp_layout_contiguous(8, 8);
    mpp_layout_t *v = vector(dbl, 3, 2, 4); /* doubles 0-1, 4-5, 8-9 */
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(v->n, 3);
    ck_assert_int_eq(v->blocks[1].off, 32);
    ck_assert_int_eq(v->blocks[1].len, 16);
    ck_assert_int_eq(v->lb, 0);
    ck_assert_int_eq(v->ub, 80);
    ck_assert_int_eq(v->extent, 80);
    ck_assert_int_eq(v->size, 48);
    /* a vector of contiguous blocks side by side is one block */
    mpp_layout_t *c = vector(dbl, 4, 2, 2);
    ck_assert_uint_eq(c->n, 1);
    ck_assert_int_eq(c->blocks[0].len, 64);
    mpp_layout_unref(c);
    mpp_layout_unref(v);
    mpp_layout_unref(dbl);
}
END_TEST

START_TEST(test_layout_struct_sorted)
{
    /* a struct whose blocks come out of order, one with a negative offset */
    mpp_layout_t *i4 = mpp_layout_contiguous(4, 4);
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    mpp_layout_add_child(&b, i4, 16, 1);
    mpp_layout_add_child(&b, i4, -8, 2);
    mpp_layout_add_child(&b, i4, 20, 1); /* adjacent to the first: merged */
    mpp_layout_t *s = mpp_layout_finish(&b, 32, 16);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->n, 2);
    ck_assert_int_eq(s->lb, -8);
    ck_assert_int_eq(s->blocks[1].off, 16);
    ck_assert_int_eq(s->blocks[1].len, 8);
    mpp_layout_unref(s);
    /* a byte named twice: the size is not MPI's once merged, no layout */
    mpp_layout_builder_init(&b);
    mpp_layout_add_child(&b, i4, 0, 1);
    mpp_layout_add_child(&b, i4, 2, 1);
    ck_assert_ptr_null(mpp_layout_finish(&b, 8, 8));
    /* too many blocks: no layout */
    mpp_layout_builder_init(&b);
    for (int i = 0; i <= MPP_LAYOUT_MAX_BLOCKS; i++)
        mpp_layout_add_child(&b, i4, 8 * i, 1);
    ck_assert_ptr_null(mpp_layout_finish(&b, 8 * (MPP_LAYOUT_MAX_BLOCKS + 1), 4 * (MPP_LAYOUT_MAX_BLOCKS + 1)));
    mpp_layout_unref(i4);
}
END_TEST

START_TEST(test_layout_subarray)
{
    /* rows 1-2, columns 2-4 of a 4x6 array of ints, C order; then Fortran order */
    mpp_layout_t *i4 = mpp_layout_contiguous(4, 4);
    int64_t sizes[2] = {4, 6}, sub[2] = {2, 3}, starts[2] = {1, 2};
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    mpp_layout_add_subarray(&b, i4, 2, sizes, sub, starts, 1);
    mpp_layout_t *c = mpp_layout_finish(&b, 96, 24);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->n, 2);
    ck_assert_int_eq(c->blocks[0].off, (1 * 6 + 2) * 4);
    ck_assert_int_eq(c->blocks[0].len, 12);
    ck_assert_int_eq(c->blocks[1].off, (2 * 6 + 2) * 4);
    mpp_layout_builder_init(&b);
    mpp_layout_add_subarray(&b, i4, 2, sizes, sub, starts, 0); /* dimension 0 varies fastest */
    mpp_layout_t *f = mpp_layout_finish(&b, 96, 24);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n, 3);
    ck_assert_int_eq(f->blocks[0].off, (2 * 4 + 1) * 4);
    ck_assert_int_eq(f->blocks[0].len, 8);
    mpp_layout_unref(c);
    mpp_layout_unref(f);
    mpp_layout_unref(i4);
}
END_TEST

START_TEST(test_layout_overlap_by_bytes)
{
    double m[64];
    mpp_layout_t *dbl = mpp_layout_contiguous(8, 8);
    mpp_layout_t *col = vector(dbl, 8, 1, 8); /* a column of an 8x8 matrix */
    /* two columns side by side: their ranges meet, their bytes do not */
    mpp_span_t c0 = span(&m[0], 1, col), c1 = span(&m[1], 1, col);
    ck_assert_int_eq(mpp_span_overlap(&c0, &c1, 1 << 16), 0);
    ck_assert_int_eq(mpp_span_overlap(&c0, &c0, 1 << 16), 1);
    /* a row meets every column in one element */
    mpp_span_t row = span(&m[16], 8, dbl);
    ck_assert_int_eq(mpp_span_overlap(&row, &c1, 1 << 16), 1);
    /* contiguous neighbours share no byte; one more element and they do */
    mpp_span_t a = span(&m[0], 4, dbl), b = span(&m[4], 4, dbl), a5 = span(&m[0], 5, dbl);
    ck_assert_int_eq(mpp_span_overlap(&a, &b, 1 << 16), 0);
    ck_assert_int_eq(mpp_span_overlap(&a5, &b, 1 << 16), 1);
    /* several columns at a column's stride: elements one after the other */
    mpp_span_t cols = span(&m[0], 2, col);
    mpp_span_t c2 = span(&m[2], 1, col);
    ck_assert_int_eq(mpp_span_overlap(&cols, &c2, 1 << 16), 0);
    ck_assert_int_eq(mpp_span_overlap(&cols, &c1, 1 << 16), 1); /* the second column starts at m[57], c1's last */
    mpp_span_t c8 = span(&m[0], 1, col);
    ck_assert_int_eq(mpp_span_overlap(&cols, &c8, 1 << 16), 1);
    /* no bytes: no overlap */
    mpp_span_t none = span(&m[0], 0, dbl);
    ck_assert_int_eq(mpp_span_overlap(&none, &a, 1 << 16), 0);
    /* a small budget: not known */
    ck_assert_int_eq(mpp_span_overlap(&c0, &c1, 2), -1);
    mpp_layout_unref(col);
    mpp_layout_unref(dbl);
}
END_TEST

START_TEST(test_layout_overlap_interleaved)
{
    /* a column resized to one double: element i is column i; elements interleave */
    double m[64];
    mpp_layout_t *dbl = mpp_layout_contiguous(8, 8);
    mpp_layout_t *col = vector(dbl, 8, 1, 8);
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    mpp_layout_add_child(&b, col, 0, 1);
    mpp_layout_t *resized = mpp_layout_finish(&b, 8, 64);
    mpp_layout_unref(col);
    mpp_span_t even = span(&m[0], 1, resized), odd_cols = span(&m[1], 3, resized), two = span(&m[0], 2, resized);
    ck_assert_int_eq(mpp_span_overlap(&even, &odd_cols, 1 << 16), 0);
    ck_assert_int_eq(mpp_span_overlap(&two, &odd_cols, 1 << 16), 1);
    mpp_span_t last = span(&m[63], 1, dbl);
    ck_assert_int_eq(mpp_span_overlap(&last, &odd_cols, 1 << 16), 0); /* column 7, not in 1-3 */
    mpp_span_t m57 = span(&m[57], 1, dbl);
    ck_assert_int_eq(mpp_span_overlap(&m57, &odd_cols, 1 << 16), 1);
    ck_assert_int_eq(mpp_span_overlap(&m57, &odd_cols, 4), -1); /* 3 elements of 8 blocks: too many */
    mpp_layout_unref(resized);
    mpp_layout_unref(dbl);
}
END_TEST

START_TEST(test_layout_checksum)
{
    double m[64];
    for (int i = 0; i < 64; i++)
        m[i] = i;
    mpp_layout_t *dbl = mpp_layout_contiguous(8, 8);
    mpp_layout_t *col = vector(dbl, 8, 1, 8);
    mpp_span_t c = span(&m[0], 1, col);
    uint64_t before = mpp_span_checksum(&c);
    m[1] = -1; /* a gap of the column: not its bytes */
    ck_assert_uint_eq(mpp_span_checksum(&c), before);
    m[8] = -1;
    ck_assert_uint_ne(mpp_span_checksum(&c), before);
    unsigned char bytes[11] = {0};
    mpp_layout_t *b11 = mpp_layout_contiguous(11, 11);
    mpp_span_t s = span(bytes, 1, b11);
    uint64_t zero = mpp_span_checksum(&s);
    bytes[10] = 1; /* the tail after whole words */
    ck_assert_uint_ne(mpp_span_checksum(&s), zero);
    mpp_layout_unref(b11);
    mpp_layout_unref(col);
    mpp_layout_unref(dbl);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_layout_vector_blocks);
    tcase_add_test(tc, test_layout_struct_sorted);
    tcase_add_test(tc, test_layout_subarray);
    tcase_add_test(tc, test_layout_overlap_by_bytes);
    tcase_add_test(tc, test_layout_overlap_interleaved);
    tcase_add_test(tc, test_layout_checksum);
    suite_add_tcase(s, tc);
    return s;
}
