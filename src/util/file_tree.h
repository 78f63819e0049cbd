/* A directory and everything under it (an OTF2 archive): its size and its
 * removal, without following links. */
#ifndef MPP_FILE_TREE_H
#define MPP_FILE_TREE_H

/* Bytes of the regular files under dir (0 when there is nothing). */
long long mpp_tree_bytes(const char *dir);
/* Removes dir and everything under it, as far as it can. */
void mpp_tree_remove(const char *dir);

#endif
