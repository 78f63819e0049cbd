/* The communication matrix record (records/matrix.h). */
#include <stdlib.h>

#include "records/matrix.h"

void mpp_matrix_free(mpp_matrix_t *m)
{
    if (!m)
        return;
    for (int i = 0; m->node_names && i < m->nnodes; i++)
        free(m->node_names[i]);
    free(m->node_names);
    free(m->node_of);
    free(m->node_pairs);
    free(m->pairs);
    free(m);
}
