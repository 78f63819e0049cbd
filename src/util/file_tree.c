/* file_tree.h.  nftw has no context argument: one walk at a time, as the
 * callers (MPI_Finalize, a dying process's child, mpiprof-analyze) are. */
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util/file_tree.h"

static long long tree_bytes;

static int add_size(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)path, (void)ftw;
    if (type == FTW_F)
        tree_bytes += (long long)st->st_size;
    return 0;
}

long long mpp_tree_bytes(const char *dir)
{
    tree_bytes = 0;
    nftw(dir, add_size, 16, FTW_PHYS);
    return tree_bytes;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

void mpp_tree_remove(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }
