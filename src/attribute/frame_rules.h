/* The unwind rule of the code at each return address (frame_step.h), read
 * once per address from the DWARF call frame information (.eh_frame, else
 * .debug_frame) of the module that holds it, with elfutils' libdw, and
 * cached.  libdw interprets the CFI program of the code (the part a walk
 * must not get wrong); the rule it yields is reduced to frame_step.h's few
 * forms, which the walks apply themselves, so that a call stack costs one
 * cache lookup per frame, and nothing at all on the hot path, where a
 * table cell keeps the rules of its own frames.
 *
 * Lookups take no lock: a cached rule is published once and never changes.
 * A miss takes a mutex, checks that the address lies in an executable
 * segment of a loaded module (dl_iterate_phdr, refreshed when modules were
 * loaded since), then asks libdw (a Dwfl of this process, opened on the
 * first miss). */
#ifndef MPP_FRAME_RULES_H
#define MPP_FRAME_RULES_H

#include <stdint.h>

#include "records/frame_step.h"

enum { MPP_FRAME_RULES_CFI = 0, MPP_FRAME_RULES_FP };

/* `mode`: MPP_FRAME_RULES_CFI, or MPP_FRAME_RULES_FP (every frame of
 * executable code is taken for a frame-pointer frame: MPIPROF_UNWIND=fp).
 * `fid_of_name`: the MPI function id of a name such as "mpi_file_open"
 * (lower case, no binding decoration), -1 if none (mpp_frame_implements).
 * Safe to call again (MPI_Init of a later session). */
void mpp_frame_rules_start(int mode, int (*fid_of_name)(const char *name));

/* The rule of the code a return address returns to (MPP_STEP_INVALID when
 * it is not in executable code). */
mpp_step_rule_t mpp_frame_rule(uintptr_t return_address);

/* The MPI function (id) that the function holding this return address
 * implements, when it is an entry point of the MPI library or its language
 * bindings named after an MPI function (mpi_file_open_, MPI_FILE_OPEN,
 * pmpi_file_open__, ...); MPP_IMPLEMENTS_NONE for a function with another
 * name (the library's internals), MPP_IMPLEMENTS_UNKNOWN when it has no
 * name here (no symbol).  Cached. */
enum { MPP_IMPLEMENTS_NONE = -1, MPP_IMPLEMENTS_UNKNOWN = -2 };
int mpp_frame_implements(uintptr_t return_address);

/* In a child forked from a process whose other threads are gone: a miss
 * never waits for the mutex (its holder does not exist there) and never
 * asks the dynamic loader (its lock may be held); it ends the walk instead. */
void mpp_frame_rules_forked(void);

/* What the cache holds, for tests and the benchmark: rules and the number
 * of misses resolved. */
void mpp_frame_rules_stats(uint64_t *rules, uint64_t *resolved);

#endif
