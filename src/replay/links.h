/* The trace links of mpiprof-view's page (mpiprof-view(1), TRACE LINKS):
 * the calls of every SRC point of a JSON protocol, per process, read from
 * an OTF2 trace of the same run by the analyzer's reader, their clocks
 * corrected and their wait states computed by the analyzer's replay
 * (replay.h: rp_clock_bounds, rp_waits), never by a copy of it.  The
 * page carries the first N calls of each SRC point on each process and a
 * summary of all of them (src/write/view/view_trace.js draws them). */
#ifndef MPP_LINKS_H
#define MPP_LINKS_H

#include <jansson.h>
#include <stddef.h>

/* Calls per SRC point and process carried by the page unless told. */
#define RP_LINKS_EVENTS 100
/* The most a page may carry (the page's size grows with it). */
#define RP_LINKS_EVENTS_MAX 100000

enum {
    RP_LINKS_OK = 0,
    RP_LINKS_UNREADABLE = -1, /* not a trace that can be read, or memory ran out */
    RP_LINKS_OTHER_RUN = -2   /* a trace, but not of the run of the protocol */
};

/* The trace links of `doc` from the archive at `archive` (its anchor file,
 * or the directory holding traces.otf2), at most `max_events` calls per SRC
 * point and process: RP_LINKS_OK and the page's "trace" object in *out, or
 * RP_LINKS_UNREADABLE / RP_LINKS_OTHER_RUN with why in `why` (one line). */
int rp_links(json_t *doc, const char *archive, size_t max_events, json_t **out, char *why, size_t size);

#endif
