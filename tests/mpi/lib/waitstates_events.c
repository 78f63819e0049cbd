/* waitstates_events.c: the wait-state test programs' own timing, included
 * (#include "../lib/waitstates_events.c", before any other header) by
 * tests/mpi/waitstates/*.c; not a program by itself.  No MPI calls here, so
 * it adds no SRC point.
 *
 * A program records, around the MPI calls that matter, the instants it
 * enters and leaves them (CLOCK_MONOTONIC, which all processes of one host
 * share), and writes them at the end to PREFIX.RANK, one line each:
 *   host NAME
 *   ev KEY I START END
 * KEY names the call site (or the operation, e.g. MPI_Iallreduce's entry to
 * MPI_Wait's exit), I numbers the instances (the message or the collective
 * operation instance, the same on both ranks).  The checkers
 * (check_waitstates_*.py) compute from them what the definitions of
 * spec/characteristics.md give:
 *   Potential sync = sum over instances, sum_p (max_q START_q - START_p)
 *   Time variation = sum over instances, sum_p (max_q END_q - END_p)
 *   Real sync      = sum over messages, min(END_r - START_r,
 *                                           max(0, START_s - START_r))
 *                    (r: the receiving call, s: the send)
 * Busy loops stand for computation (CPU time, a given wall time even on a
 * loaded machine). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WS_MAX_EVENTS 8192

static struct {
    const char *key;
    int i;
    double start, end;
} ws_events[WS_MAX_EVENTS];
static int ws_nevents, ws_lost;

static double ws_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Compute (spin) for the given wall time. */
static void ws_busy(double seconds)
{
    double end = ws_now() + seconds;
    while (ws_now() < end)
        ;
}

static void ws_record(const char *key, int i, double start, double end)
{
    if (ws_nevents == WS_MAX_EVENTS) {
        ws_lost++;
        return;
    }
    ws_events[ws_nevents].key = key;
    ws_events[ws_nevents].i = i;
    ws_events[ws_nevents].start = start;
    ws_events[ws_nevents].end = end;
    ws_nevents++;
}

/* Write PREFIX.RANK; returns 0 when written completely. */
static int ws_write_events(const char *prefix, int rank)
{
    char path[4096], host[256];
    FILE *f;

    snprintf(path, sizeof path, "%s.%d", prefix, rank);
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "host %s\n", host);
    for (int k = 0; k < ws_nevents; k++)
        fprintf(f, "ev %s %d %.9f %.9f\n", ws_events[k].key, ws_events[k].i, ws_events[k].start,
                ws_events[k].end);
    if (fclose(f) != 0 || ws_lost) {
        fprintf(stderr, "%s: %s\n", path, ws_lost ? "too many events" : "write error");
        return 1;
    }
    return 0;
}
