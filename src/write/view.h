/* The dialog view: one self-contained HTML page of one or two JSON
 * protocols (mpiprof-view(1)).  mpiprof-view and the writer at MPI_Finalize
 * (MPIPROF_FORMAT with html) both write it here, from the JSON document:
 * the page template (src/write/view/, compiled in) filled with the
 * protocols and the source lines around every frame of their SRC points
 * and correctness findings. */
#ifndef MPP_VIEW_H
#define MPP_VIEW_H

#include <jansson.h>
#include <stdio.h>

/* Source lines shown on either side of a frame's line. */
#define MPP_VIEW_CONTEXT_LINES 3

typedef struct {
    /* Where the sources are (--source DIR); NULL: the paths of the debugging
     * information, a relative one taken from the run's working directory. */
    const char *source_dir;
    /* Per protocol, the calls of its SRC points in a trace of its run (the
     * page's "trace", src/replay/links.h; mpiprof-view(1), TRACE LINKS);
     * NULL: no trace, and the page says nothing of traces. */
    json_t *traces[2];
    /* Members added to the page's data (mpiprof-view of several protocols:
     * "matches" and "scaling", computed by src/compare/); NULL: none. */
    json_t *extra;
} mpp_view_options_t;

/* Whether `doc` is a protocol with what the page needs (view_check.c):
 * format and version, and the members, types and ranges of mpiprof-view(1),
 * INPUT.  0, or -1 with where and what in `why`. */
int mpp_view_check(json_t *doc, char *why, size_t size);

/* The source excerpts of every frame of the SRC points of `doc` and of its
 * correctness findings' call sites, both sides (view_sources.c): an object of frame path -> {"file": the file read,
 * "line_count": N, "lines": {"n": text, ...}} or {"missing": why}. */
json_t *mpp_view_sources(json_t *doc, const mpp_view_options_t *options);

/* Write the page of `ndocs` (1 or more) protocols, each checked first, with
 * `labels` naming them (file names).  0, or -1 with why in `why` (nothing
 * of the page is written when a protocol is refused). */
int mpp_view_write(FILE *out, json_t *const *docs, const char *const *labels, int ndocs,
                   const mpp_view_options_t *options, char *why, size_t size);

/* The page template (src/gen/view_page.c, from src/write/view/ by
 * gen_view_page.py): the page before the protocols' data and after it. */
extern const char mpp_view_page_head[];
extern const char mpp_view_page_tail[];

#endif
