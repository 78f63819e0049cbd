/* A mutex taken only when the program runs MPI_THREAD_MULTIPLE: the tables
 * shared between threads (requests, communicators, wait states) need it
 * then; in every other thread level MPI calls never run concurrently and
 * the hot path takes no lock.  A mutex, not a spinlock: with more threads
 * than cores a spinning waiter burns the time slice of the holder. */
#ifndef MPP_MT_LOCK_H
#define MPP_MT_LOCK_H

#include <pthread.h>

typedef struct {
    pthread_mutex_t mutex;
    int on; /* MPI_THREAD_MULTIPLE */
} mpp_mt_lock_t;

#define MPP_MT_LOCK_INITIALIZER      \
    {                                \
        PTHREAD_MUTEX_INITIALIZER, 0 \
    }

static inline void mpp_mt_take(mpp_mt_lock_t *l)
{
    if (l->on)
        pthread_mutex_lock(&l->mutex);
}

static inline void mpp_mt_give(mpp_mt_lock_t *l)
{
    if (l->on)
        pthread_mutex_unlock(&l->mutex);
}

#endif
