/* The reader of the trace analyzer (replay.h): an OTF2 archive, through
 * libotf2's reader, into the MPI calls of every location in time order,
 * with the messages and collective instances their events name.
 *
 * Score-P's shape is the reference: regions of the MPI paradigm named
 * after MPI functions; MpiSend/MpiIsend, MpiRecv/MpiIrecv (with
 * MpiIrecvRequest), MpiIsendComplete, MpiCollectiveBegin/End inside them;
 * communicators as groups of ranks of the MPI COMM_LOCATIONS group, whose
 * order gives each process its rank; ClockOffset definitions of a location
 * correct its timestamps (linear between two, constant outside).  A call's
 * site is mpiprof's "mpiprof::src" attribute on its Enter when the archive
 * has it, else the region alone.  Everything unusable is said in one line,
 * never half-read into a protocol. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/otf2_reader.h"

static void reader_free(reader_t *r)
{
    for (uint32_t s = 0; s < r->nstrings; s++)
        free(r->strings[s]);
    for (uint32_t g = 0; g < r->ngroups; g++)
        free(r->groups[g].members);
    for (uint32_t g = 0; g < r->nfindings; g++)
        free(r->findings[g].text);
    free(r->findings);
    for (uint32_t g = 0; g < r->nthreads; g++)
        free(r->threads[g].text);
    free(r->threads);
    free(r->strings), free(r->regions), free(r->locations), free(r->location_refs), free(r->lgroups);
    free(r->nodes), free(r->groups), free(r->comm_group), free(r->coll_open), free(r->open);
    mpp_handlemap_free(&r->requests);
    mpp_strmap_free(&r->sites);
}

/* libotf2 prints each error it meets on stderr, a dozen lines for one
 * corrupt chunk: the first one's text is kept instead, to end our one line. */
static char otf2_first_error[256];

static OTF2_ErrorCode keep_error(void *data, const char *file, uint64_t line, const char *function,
                                 OTF2_ErrorCode code, const char *format, va_list va)
{
    (void)data, (void)file, (void)line, (void)function;
    if (!otf2_first_error[0] && format)
        vsnprintf(otf2_first_error, sizeof otf2_first_error, format, va);
    return code;
}

/* A location whose events this reader reads: an MPI process's, of its share. */
static int in_share(const rp_trace_t *t, int l, int first, int end)
{
    return t->locations[l].process >= first && t->locations[l].process < end;
}

int rp_trace_read(rp_trace_t *t, const char *path, char *why, size_t size)
{
    return rp_trace_read_share(t, path, 0, 1, why, size);
}

/* libotf2's reader of the anchor file at path, or NULL with why (a file
 * that cannot be read is told apart from one that is not an anchor file). */
static OTF2_Reader *open_reader(const char *path, char *why, size_t size)
{
    FILE *probe = fopen(path, "r");
    if (!probe) {
        snprintf(why, size, "%s: cannot be read (%m)", path);
        return NULL;
    }
    fclose(probe);
    OTF2_Reader *reader = OTF2_Reader_Open(path);
    if (!reader || OTF2_Reader_SetSerialCollectiveCallbacks(reader) != OTF2_SUCCESS) {
        snprintf(why, size, "%s: not an OTF2 archive's anchor file (libotf2: %s)", path,
                 otf2_first_error[0] ? otf2_first_error : "it cannot open it");
        if (reader)
            OTF2_Reader_Close(reader);
        return NULL;
    }
    return reader;
}

/* mpiprof's rescue of a run that ended early says so (mpiprof-trace(5)) */
static void read_incomplete(rp_trace_t *t, OTF2_Reader *reader)
{
    uint32_t nproperties = 0;
    char **properties = NULL, *ended = NULL;
    if (OTF2_Reader_GetPropertyNames(reader, &nproperties, &properties) != OTF2_SUCCESS)
        nproperties = 0;
    for (uint32_t p = 0; p < nproperties; p++)
        if (!strcmp(properties[p], "MPIPROF::INCOMPLETE") &&
            OTF2_Reader_GetProperty(reader, properties[p], &ended) == OTF2_SUCCESS && ended) {
            t->incomplete = 1;
            snprintf(t->incomplete_why, sizeof t->incomplete_why, "%s", ended);
        }
    free(properties), free(ended);
}

/* The events of this reader's share (the locations of processes `first`
 * to `end` - 1), with their local definitions where there are any; 0, or
 * -1 with why in r. */
static int read_share_events(reader_t *r, OTF2_Reader *reader, int first, int end)
{
    rp_trace_t *t = r->t;
    int rc = 0, selected = 0;
    for (int l = 0; l < t->nlocations; l++)
        if (in_share(t, l, first, end))
            OTF2_Reader_SelectLocation(reader, t->locations[l].ref), selected++;
    if (!selected) /* libotf2 would read them all */
        return 0;
    int have_defs = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS) {
        rp_fail(r, "its event files cannot be opened");
        rc = -1;
    }
    for (int l = 0; rc == 0 && l < t->nlocations; l++)
        if (in_share(t, l, first, end))
            rc = rp_read_location(r, reader, l, have_defs);
    if (have_defs)
        OTF2_Reader_CloseDefFiles(reader);
    OTF2_Reader_CloseEvtFiles(reader);
    return rc;
}

int rp_trace_read_share(rp_trace_t *t, const char *path, int part, int nparts, char *why, size_t size)
{
    int first = 0, end = INT_MAX;
    otf2_first_error[0] = '\0';
    OTF2_Error_RegisterCallback(keep_error, NULL);
    memset(t, 0, sizeof *t);
    t->path = path;
    reader_t r = {.t = t,
                  .src_attribute = OTF2_UNDEFINED_ATTRIBUTE,
                  .bytes_attribute = {OTF2_UNDEFINED_ATTRIBUTE, OTF2_UNDEFINED_ATTRIBUTE},
                  .probe_attribute = {OTF2_UNDEFINED_ATTRIBUTE, OTF2_UNDEFINED_ATTRIBUTE},
                  .io_attribute = OTF2_UNDEFINED_ATTRIBUTE,
                  .check_attribute = {OTF2_UNDEFINED_ATTRIBUTE, OTF2_UNDEFINED_ATTRIBUTE, OTF2_UNDEFINED_ATTRIBUTE,
                                      OTF2_UNDEFINED_ATTRIBUTE, OTF2_UNDEFINED_ATTRIBUTE},
                  .open_call = -1,
                  .open_src = RP_NO_STRING};
    for (int k = 0; k < 2 * MPP_CC_NVALUES; k++)
        r.cc_attribute[k] = OTF2_UNDEFINED_ATTRIBUTE;
    for (int k = 0; k < 3; k++)
        r.recv_attribute[k] = OTF2_UNDEFINED_ATTRIBUTE;
    mpp_handlemap_init(&r.requests, sizeof(irecv_t));
    mpp_strmap_init(&r.sites);
    t->sites = malloc(sizeof *t->sites);
    if (t->sites && (t->sites[0] = strdup("")))
        t->nsites = 1;
    OTF2_Reader *reader = open_reader(path, why, size);
    if (!reader) {
        reader_free(&r);
        rp_trace_free(t);
        return -1;
    }
    read_incomplete(t, reader);
    int rc = rp_read_global_definitions(&r, reader);
    if (rc == 0)
        rc = rp_build_processes(&r);
    if (rc == 0)
        rc = rp_build_regions(&r);
    if (rc == 0)
        rp_share(t->nprocesses, part, nparts, &first, &end);
    if (rc == 0)
        rc = read_share_events(&r, reader, first, end);
    if (rc == 0 && !t->mpi_events && first <= 0 && end >= t->nprocesses)
        rp_fail(&r, RP_NO_MPI_EVENTS), rc = -1;
    OTF2_Reader_Close(reader);
    if (rc == 0 && (t->derived_level || t->derived_coll)) { /* the findings' SRC keys (checks.c) */
        t->strings = r.strings, t->nstrings = r.nstrings;
        r.strings = NULL, r.nstrings = 0;
    }
    if (rc != 0)
        snprintf(why, size, "%s: %s%s%s%s", path, r.why[0] ? r.why : "unreadable",
                 otf2_first_error[0] ? " (libotf2: " : "", otf2_first_error, otf2_first_error[0] ? ")" : "");
    reader_free(&r);
    if (rc != 0)
        rp_trace_free(t);
    return rc;
}

void rp_trace_free(rp_trace_t *t)
{
    for (int l = 0; t->locations && l < t->nlocations; l++) {
        free(t->locations[l].calls);
        free(t->locations[l].marks);
        free(t->locations[l].offset_time);
        free(t->locations[l].offset);
        free(t->locations[l].offset_dev);
    }
    for (int p = 0; t->processes && p < t->nprocesses; p++) {
        free(t->processes[p].host);
        free(t->processes[p].locations);
        free(t->processes[p].findings);
        free(t->processes[p].threads);
    }
    for (uint32_t c = 0; t->comms && c < t->ncomms; c++)
        free(t->comms[c].world);
    for (uint32_t s = 0; t->sites && s < t->nsites; s++)
        free(t->sites[s]);
    for (uint32_t g = 0; t->regions && g < t->nregions; g++)
        free(t->regions[g].name), free(t->regions[g].file);
    free(t->locations), free(t->processes), free(t->comms), free(t->sites), free(t->regions);
    free(t->sends), free(t->recvs), free(t->collectives);
    for (uint32_t s = 0; t->strings && s < t->nstrings; s++)
        free(t->strings[s]);
    free(t->strings), free(t->derived), free(t->pending);
    memset(t, 0, sizeof *t);
}
