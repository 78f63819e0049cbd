/* The bytes an MPI datatype touches (correctness.md: overlapping-buffers,
 * sendrecv-overlap, send-buffer-modified), as a list of blocks of one
 * element, built from the datatype's constructors (intercept/check/
 * datatypes.c reads them from MPI), and a buffer as `count` such elements
 * from an address: whether two buffers share a byte, by their blocks and
 * not by their address ranges (a strided vector's gaps are not its
 * bytes), and a checksum of the bytes one touches.  No MPI here. */
#ifndef MPP_CHECK_LAYOUT_H
#define MPP_CHECK_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* Past this many blocks a datatype's layout is not kept: its buffers are
 * not compared (no finding is better than a guess). */
#define MPP_LAYOUT_MAX_BLOCKS 4096

typedef struct {
    int64_t off, len; /* bytes [off, off + len) from the element's start */
} mpp_block_t;

typedef struct mpp_layout {
    int64_t extent; /* MPI's extent: element i starts i * extent bytes after the buffer */
    int64_t lb, ub; /* the bytes of one element lie in [lb, ub) (MPI's true bounds) */
    int64_t size;   /* bytes of one element: the blocks' lengths */
    uint32_t n;     /* blocks, sorted by offset, neither overlapping nor adjacent */
    uint32_t refs;  /* mpp_layout_ref/_unref: freed at 0 */
    mpp_block_t blocks[];
} mpp_layout_t;

/* A layout under construction: blocks in any order, then finished. */
typedef struct {
    mpp_block_t *blocks;
    size_t n, capacity;
    int failed; /* too many blocks, or out of memory */
} mpp_layout_builder_t;

void mpp_layout_builder_init(mpp_layout_builder_t *b);
/* Block [off, off + len) (len <= 0: nothing). */
void mpp_layout_add(mpp_layout_builder_t *b, int64_t off, int64_t len);
/* `count` copies of child's element, the first at `off`, each
 * child->extent after the one before (a contiguous child: one block). */
void mpp_layout_add_child(mpp_layout_builder_t *b, const mpp_layout_t *child, int64_t off, int64_t count);
/* The sorted, merged layout with MPI's `extent` (one reference), NULL
 * when it failed or when its blocks overlap each other (their merged
 * length is not `size`, MPI's size: a type map that names a byte twice).
 * Frees the builder's blocks. */
mpp_layout_t *mpp_layout_finish(mpp_layout_builder_t *b, int64_t extent, int64_t size);

/* A basic datatype: `size` bytes from 0 (one reference). */
mpp_layout_t *mpp_layout_contiguous(int64_t size, int64_t extent);
/* An MPI subarray (MPI_Type_create_subarray) of child elements: sizes,
 * subsizes and starts of `ndims` dimensions, C order (`c_order`) or
 * Fortran's; into b. */
void mpp_layout_add_subarray(mpp_layout_builder_t *b, const mpp_layout_t *child, int ndims, const int64_t *sizes,
                             const int64_t *subsizes, const int64_t *starts, int c_order);

void mpp_layout_ref(mpp_layout_t *l);
void mpp_layout_unref(mpp_layout_t *l);

/* A buffer: count elements of layout from addr. */
typedef struct {
    uintptr_t addr;
    int64_t count;
    const mpp_layout_t *layout;
} mpp_span_t;

/* The smallest range [*lo, *hi) that holds the buffer's bytes; 0 when it
 * has none. */
int mpp_span_hull(const mpp_span_t *s, uint64_t *lo, uint64_t *hi);
/* Whether two buffers share a byte: 1 yes, 0 no, -1 not known within
 * `budget` blocks looked at (elements that interleave, many blocks). */
int mpp_span_overlap(const mpp_span_t *a, const mpp_span_t *b, size_t budget);
/* A 64-bit checksum of the bytes the buffer touches, in address order of
 * its elements and blocks. */
uint64_t mpp_span_checksum(const mpp_span_t *s);

#endif
