/* The page of one or two protocols: the template with the protocols' JSON
 * and their source excerpts inlined as one JSON block that the page's
 * script draws in the browser.  One writer for mpiprof-view and for
 * MPIPROF_FORMAT's html at MPI_Finalize, so both give the same page. */
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"
#include "write/process_data.h"
#include "write/view.h"

/* Version of the data block the page's script reads. */
#define VIEW_DATA_VERSION 1

/* An SRC point without its stack: the stack of an SRC number is the same
 * in every interval, so the page gets it once per protocol (stacks), not
 * once per interval (a protocol of 1,000 SRC points in 100 intervals would
 * carry each stack 100 times). */
static json_t *src_without_stack(json_t *s)
{
    json_t *copy = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(s, key, v) if (strcmp(key, "stack") != 0) json_object_set(copy, key, v);
    return copy;
}

/* The document for the page: the protocol with its SRC points' stacks
 * moved to "stacks" (SRC number -> stack); a stack that differs from the
 * first one of its number stays where it is. */
static json_t *page_document(json_t *doc)
{
    json_t *page = json_object(), *stacks = json_object(), *intervals = json_array();
    const char *key;
    json_t *v, *in, *s;
    size_t i, k;
    json_object_foreach(doc, key, v) if (strcmp(key, "intervals") != 0 && strcmp(key, "process") != 0)
        json_object_set(page, key, v);
    json_array_foreach(json_object_get(doc, "intervals"), i, in)
    {
        json_t *copy = json_object(), *srcs = json_array();
        json_object_foreach(in, key, v) if (strcmp(key, "src") != 0) json_object_set(copy, key, v);
        json_array_foreach(json_object_get(in, "src"), k, s)
        {
            char id[32];
            snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(s, "id")));
            json_t *stack = json_object_get(s, "stack"), *known = json_object_get(stacks, id);
            if (!known)
                json_object_set(stacks, id, stack);
            json_array_append_new(srcs, !known || json_equal(known, stack) ? src_without_stack(s) : json_incref(s));
        }
        json_object_set_new(copy, "src", srcs);
        json_array_append_new(intervals, copy);
    }
    json_object_set_new(page, "intervals", intervals);
    json_object_set_new(page, "stacks", stacks);
    return page;
}

/* JSON inside <script>: '<' written as \u003c (valid JSON: '<' occurs only
 * inside strings), so that no "</script>" or "<!--" in a path or a source
 * line ends the block. */
static int escaped_output(const char *buffer, size_t size, void *data)
{
    FILE *out = data;
    size_t from = 0;
    for (size_t i = 0; i < size; i++) {
        if (buffer[i] != '<')
            continue;
        if (fwrite(buffer + from, 1, i - from, out) != i - from || fputs("\\u003c", out) < 0)
            return -1;
        from = i + 1;
    }
    return fwrite(buffer + from, 1, size - from, out) == size - from ? 0 : -1;
}

int mpp_view_write(FILE *out, json_t *const *docs, const char *const *labels, int ndocs,
                   const mpp_view_options_t *options, char *why, size_t size)
{
    if (ndocs < 1) {
        snprintf(why, size, "%d protocols given; the page shows one or more", ndocs);
        return -1;
    }
    for (int d = 0; d < ndocs; d++) {
        char detail[1024];
        if (mpp_view_check(docs[d], detail, sizeof detail) != 0) {
            snprintf(why, size, "%s: not a valid mpiprof protocol: %s", labels[d], detail);
            return -1;
        }
    }
    json_t *protocols = json_array();
    for (int d = 0; d < ndocs; d++) {
        json_t *protocol = json_pack("{s:o, s:o, s:o}", "label", mpp_json_text(labels[d]), "doc",
                                     page_document(docs[d]), "sources", mpp_view_sources(docs[d], options));
        if (protocol && options && d < (int)MPP_ARRAY_LEN(options->traces) && options->traces[d])
            json_object_set(protocol, "trace", options->traces[d]);
        json_array_append_new(protocols, protocol);
    }
    json_t *data =
        json_pack("{s:i, s:s, s:i, s:o}", "view", VIEW_DATA_VERSION, "generator", "mpiprof " PACKAGE_VERSION,
                  "context_lines", MPP_VIEW_CONTEXT_LINES, "protocols", protocols);
    if (data && options && options->extra)
        json_object_update(data, options->extra);
    int rc = -1;
    if (data && fputs(mpp_view_page_head, out) >= 0 &&
        json_dump_callback(data, escaped_output, out, JSON_COMPACT | JSON_REAL_PRECISION(10)) == 0 &&
        fputs(mpp_view_page_tail, out) >= 0)
        rc = 0;
    else
        snprintf(why, size, "%s", data ? "writing the page failed" : "out of memory while making the page");
    json_decref(data);
    return rc;
}
