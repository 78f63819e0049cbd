/* The hang dump's format (mpiprof-hang(1), FILES): one "KEY VALUE" per
 * line; a call's block runs from `call` to `end`; values of several parts
 * are name=value words.  Pure: what to write comes from the watchdog. */
#include <inttypes.h>
#include <stdio.h>

#include "write/hang_dump.h"

/* A rank argument: "rank=3 world=7", "rank=any", ... */
static void write_peer(FILE *f, const char *key, const mpp_watch_peer_t *p)
{
    if (p->rank == MPP_WATCH_NONE)
        return;
    switch (p->rank) {
    case MPP_WATCH_ANY:
        fprintf(f, "%s rank=any\n", key);
        return;
    case MPP_WATCH_PROC_NULL:
        fprintf(f, "%s rank=proc_null\n", key);
        return;
    case MPP_WATCH_ROOT:
        fprintf(f, "%s rank=root\n", key);
        return;
    }
    if (p->world == MPP_WATCH_UNKNOWN)
        fprintf(f, "%s rank=%d world=?\n", key, p->rank);
    else
        fprintf(f, "%s rank=%d world=%d\n", key, p->rank, p->world);
}

static void write_tag(FILE *f, const char *key, int32_t tag)
{
    if (tag == MPP_WATCH_NONE)
        return;
    if (tag < 0)
        fprintf(f, "%s any\n", key); /* MPI_ANY_TAG, the only negative tag */
    else
        fprintf(f, "%s %d\n", key, tag);
}

/* "KEY text", the text on one line whatever it holds. */
static void write_text(FILE *f, const char *key, const char *text)
{
    fprintf(f, "%s ", key);
    for (const char *c = text; *c; c++)
        fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, f);
    fputc('\n', f);
}

void mpp_hang_write_header(FILE *f, const mpp_hang_header_t *h)
{
    fprintf(f, "mpiprof-hang-dump 1\n");
    write_text(f, "run", h->run);
    fprintf(f, "rank %d\n", h->rank);
    fprintf(f, "world_size %d\n", h->world_size);
    fprintf(f, "pid %ld\n", h->pid);
    write_text(f, "host", h->host);
    write_text(f, "program", h->program);
    fprintf(f, "timeout %d\n", h->timeout);
    fprintf(f, "threads %d\n", h->threads);
    fprintf(f, "written %.6f\n", h->written);
}

void mpp_hang_write_call(FILE *f, const mpp_hang_call_t *c)
{
    const mpp_watch_call_t *w = c->call;
    fprintf(f, "call\n");
    fprintf(f, "thread %ld\n", c->tid);
    fprintf(f, "function %s\n", c->function);
    fprintf(f, "category %s\n", c->category);
    fprintf(f, "entered %.6f\n", c->entered);
    fprintf(f, "stuck_for %.3f\n", c->stuck_for);
    if (w->comm)
        fprintf(f, "comm size=%d inter=%d id=%016" PRIx64 " members=%s\n", w->comm->size, w->comm->inter, w->comm->id,
                w->comm->members[0] ? w->comm->members : "?");
    write_peer(f, "dest", &w->dest);
    write_peer(f, "source", &w->source);
    write_peer(f, "root", &w->root);
    if (w->sendtag != MPP_WATCH_NONE) { /* Sendrecv */
        write_tag(f, "sendtag", w->sendtag);
        write_tag(f, "recvtag", w->tag);
    } else {
        write_tag(f, "tag", w->tag);
    }
    if (w->count >= 0)
        fprintf(f, "count %" PRId64 "\n", w->count);
    for (int i = 0; i < w->depth && c->frames[i]; i++)
        write_text(f, "frame", c->frames[i]);
    if (w->nrequests)
        fprintf(f, "handles %d\n", w->nrequests);
    fprintf(f, "outstanding %d\n", c->noutstanding);
    for (int i = 0; i < c->nlisted; i++) {
        const mpp_watch_request_t *r = &c->requests[i];
        fprintf(f, "request handle=0x%" PRIx64 " category=%s op=%s persistent=%d waited=%d", r->handle, r->category,
                r->op[0] ? r->op : "?", r->persistent, r->waited);
        if (r->has_peer) {
            if (r->peer_world == MPP_WATCH_ANY)
                fprintf(f, " peer=any");
            else if (r->peer_world == MPP_WATCH_PROC_NULL)
                fprintf(f, " peer=proc_null");
            else if (r->peer_world >= 0)
                fprintf(f, " peer=%d", r->peer_world);
            if (r->tag < 0 && r->tag != MPP_WATCH_NONE)
                fprintf(f, " tag=any");
            else if (r->tag >= 0)
                fprintf(f, " tag=%d", r->tag);
        }
        fputc('\n', f);
    }
}

void mpp_hang_write_end(FILE *f, int resumed, double resumed_at)
{
    if (resumed)
        fprintf(f, "resumed %.6f\n", resumed_at);
    fprintf(f, "end\n");
}
