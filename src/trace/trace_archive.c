/* Trace mode's archive: opened collectively at MPI_Init, its event buffers
 * bounded by MPIPROF_TRACE_BUFFER (OTF2's memory callbacks: a full buffer
 * makes OTF2 flush it, and the flush is a BufferFlush event), and at
 * MPI_Finalize the definitions: each process sends rank 0 what its threads'
 * local ids stand for (SRC keys, user regions, communicators), rank 0
 * unifies them into global definitions, and every location gets mapping
 * tables and its clock offsets (man/mpiprof-trace.5). */
#include <math.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accumulate/profile.h"
#include "attribute/symbolize.h"
#include "context/clock.h"
#include "gen/function_table.h"
#include "reduce/ptp_collectives.h"
#include "reduce/trace_collectives.h"
#include "trace/trace_local.h"
#include "util/file_tree.h"
#include "util/srckey.h"
#include "util/strmap.h"
#include "util/warnings.h"

static OTF2_CollectiveContext *context;
char mpp_trace_path[4096];
int mpp_trace_nprocs;
uint64_t mpp_trace_chunk;
static char hostname[256];
uint64_t mpp_trace_started; /* this process's clock when tracing began */

/* --- event buffers: MPIPROF_TRACE_BUFFER bytes per process --- */

static _Atomic int64_t budget; /* bytes of event chunks that may still be allocated */

/* The chunks of one writer's buffer, kept across flushes (no allocation
 * after warm-up). */
typedef struct {
    void **chunks;
    size_t n, used, capacity;
    uint64_t size;
} pool_t;

static void *allocate(void *user, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, uint64_t size)
{
    (void)user, (void)location;
    pool_t *p = *per_buffer;
    if (!p && !(p = *per_buffer = calloc(1, sizeof *p)))
        return NULL;
    if (p->used < p->n)
        return p->chunks[p->used++];
    /* every writer gets one chunk; further ones while the budget lasts,
     * then OTF2 flushes the buffer and starts again with its chunks */
    if (type == OTF2_FILETYPE_EVENTS && p->n > 0 && atomic_fetch_sub(&budget, (int64_t)size) < (int64_t)size) {
        atomic_fetch_add(&budget, (int64_t)size);
        return NULL;
    }
    if (type == OTF2_FILETYPE_EVENTS && p->n == 0)
        atomic_fetch_sub(&budget, (int64_t)size);
    if (p->n == p->capacity) {
        size_t n = p->capacity ? 2 * p->capacity : 8;
        void **grown = realloc(p->chunks, n * sizeof *grown);
        if (!grown)
            return NULL;
        p->chunks = grown;
        p->capacity = n;
    }
    void *chunk = malloc(size);
    if (!chunk)
        return NULL;
    p->size = size;
    p->chunks[p->n++] = chunk;
    p->used = p->n;
    return chunk;
}

static void free_all(void *user, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, bool final)
{
    (void)user, (void)location;
    pool_t *p = *per_buffer;
    if (!p)
        return;
    p->used = 0;
    if (!final)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->chunks[i]);
    if (type == OTF2_FILETYPE_EVENTS)
        atomic_fetch_add(&budget, (int64_t)(p->n * p->size));
    free(p->chunks);
    free(p);
    *per_buffer = NULL;
}

static const OTF2_MemoryCallbacks memory = {.otf2_allocate = allocate, .otf2_free_all = free_all};

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef location, void *caller, bool final)
{
    (void)user, (void)caller, (void) final;
    if (type == OTF2_FILETYPE_EVENTS && mpp_trace_on)
        mpp_trace_flushed(location); /* readable up to here if the process is killed (trace_rescue.c) */
    return OTF2_FLUSH;
}

/* the end of a flush: OTF2 records it in a BufferFlush event */
static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef location)
{
    (void)user, (void)type, (void)location;
    return mpp_now();
}

static const OTF2_FlushCallbacks flush = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

/* An archive of an earlier run at path (its anchor file there), removed
 * with MPIPROF_OVERWRITE: OTF2 writes no archive over another. */
static void remove_archive(const char *path)
{
    char anchor[4200];
    struct stat st;
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", path);
    if (stat(anchor, &st) == 0)
        mpp_tree_remove(path);
}

/* OTF2 prints its errors on stderr unless told otherwise: they go to the
 * protocol's Warnings instead (MPIPROF_QUIET), the first one's text with
 * their number. */
static char first_error[512];
static _Atomic uint64_t otf2_errors;

static OTF2_ErrorCode otf2_error(void *user, const char *file, uint64_t line, const char *function,
                                 OTF2_ErrorCode code, const char *format, va_list args)
{
    (void)user, (void)file, (void)line, (void)function;
    if (atomic_fetch_add(&otf2_errors, 1) == 0) {
        int n = snprintf(first_error, sizeof first_error, "%s: ", OTF2_Error_GetName(code));
        if (n > 0 && (size_t)n < sizeof first_error && format)
            vsnprintf(first_error + n, sizeof first_error - (size_t)n, format, args);
    }
    return code;
}

int mpp_trace_start(MPI_Comm comm, const char *path, long buffer, int rank, int size, const char *host, int replace)
{
    OTF2_Error_RegisterCallback(otf2_error, NULL);
    if (replace && rank == 0)
        remove_archive(path);
    mpp_ptp_barrier(comm);
    mpp_trace_rank = rank;
    mpp_trace_nprocs = size;
    snprintf(mpp_trace_path, sizeof mpp_trace_path, "%s", path);
    snprintf(hostname, sizeof hostname, "%s", host);
    atomic_store(&budget, buffer);
    uint64_t chunk = mpp_trace_chunk = buffer >= 4 * 1024 * 1024 ? 1024 * 1024 : OTF2_CHUNK_SIZE_MIN;
    int failed = 0;
    const char *why = "";
    context = mpp_trace_collective_context(comm);
    mpp_trace_archive =
        context ? OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, chunk, OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                                    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)
                : NULL;
    if (!mpp_trace_archive) {
        failed = 1, why = "the archive could not be opened";
    } else if (OTF2_Archive_SetFlushCallbacks(mpp_trace_archive, &flush, NULL) != OTF2_SUCCESS ||
               OTF2_Archive_SetMemoryCallbacks(mpp_trace_archive, &memory, NULL) != OTF2_SUCCESS ||
               OTF2_Archive_SetCollectiveCallbacks(mpp_trace_archive, &mpp_trace_collectives, NULL, context, NULL) !=
                   OTF2_SUCCESS ||
               OTF2_Pthread_Archive_SetLockingCallbacks(mpp_trace_archive, NULL) != OTF2_SUCCESS) {
        failed = 1, why = "OTF2 refused the archive's settings";
    } else {
        char creator[64];
        snprintf(creator, sizeof creator, "mpiprof %s", PACKAGE_VERSION);
        OTF2_Archive_SetCreator(mpp_trace_archive, creator);
        OTF2_Archive_SetDescription(mpp_trace_archive, "mpiprof trace mode (mpiprof-trace(5))");
        if (OTF2_Archive_OpenEvtFiles(mpp_trace_archive) != OTF2_SUCCESS)
            failed = 1, why = "its event files could not be created (does the directory exist already?)";
    }
    int any = 0;
    mpp_ptp_allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any) {
        if (failed)
            mpp_warn("MPIPROF_TRACE=on: no trace is written: %s at %s%s%s%s", why, path,
                     first_error[0] ? " (OTF2: " : "", first_error, first_error[0] ? ")" : "");
        else
            mpp_warn("MPIPROF_TRACE=on: no trace is written: another process could not open the archive %s", path);
        if (mpp_trace_archive)
            OTF2_Archive_Close(mpp_trace_archive);
        mpp_trace_archive = NULL;
        mpp_trace_collective_context_free(context);
        context = NULL;
        return -1;
    }
    mpp_trace_rescue_prepare();
    mpp_trace_started = mpp_now();
    mpp_trace_on = 1;
    return 0;
}

void mpp_trace_init_call(uint32_t fid, const uintptr_t *frames, int depth, uint64_t entered, uint64_t returned)
{
    trace_thread_t *me = mpp_trace_self();
    if (!me)
        return;
    uint32_t site = mpp_trace_site(me, fid, frames, depth);
    if (site != UINT32_MAX)
        OTF2_AttributeList_AddStringRef(me->attributes, TRACE_ATTR_SRC, site);
    if (entered < mpp_trace_started) /* the trace begins with it */
        mpp_trace_started = entered;
    if (returned < entered)
        returned = entered;
    if (OTF2_EvtWriter_Enter(me->writer, me->attributes, entered, fid) != OTF2_SUCCESS ||
        OTF2_EvtWriter_Leave(me->writer, NULL, returned, fid) != OTF2_SUCCESS)
        __atomic_fetch_add(&mpp_trace_errors, 1, __ATOMIC_RELAXED);
    me->last_time = returned;
}

/* --- MPI_Finalize --- */

/* Records a process sends rank 0 (NUL-terminated each):
 *   "H" host
 *   "F" findings    the process's findings (text form, check/finding_list.h)
 *   "P" threads     "alive mpi omp source" of its Threads parameter (trace_threads.c)
 *   "L" thread-index " " events
 *   "S" key         an SRC key (srckey.h): a global string
 *   "R" name US file US line US seq   a user region
 *   "C" id-hex " " size " " members,...   a communicator
 * in this order per thread (L, then its S, R, C); rank 0 replies with one
 * uint32_t global id per S, R and C record. */
int mpp_trace_put(trace_blob_t *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->text ? b->text + b->len : NULL, b->text ? b->capacity - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if (b->text && b->len + (size_t)n + 1 <= b->capacity) {
            b->len += (size_t)n + 1; /* the NUL ends the record */
            return 0;
        }
        size_t cap = b->capacity ? b->capacity : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *grown = realloc(b->text, cap);
        if (!grown)
            return -1;
        b->text = grown;
        b->capacity = cap;
    }
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }
static const char *resolve(void *sym, uintptr_t address) { return mpp_symbolize(sym, address); }

/* The begin position of a user region whose mark gave a return address. */
static void region_position(mpp_symbolizer_t *sym, const trace_region_t *r, char *file, size_t size, int *line)
{
    snprintf(file, size, "%s", r->file ? r->file : "");
    *line = r->line;
    if (r->file || !r->site || !sym)
        return;
    char key[4096], *function = NULL;
    mpp_frame_t *frames = NULL;
    snprintf(key, sizeof key, "X%c%s", MPP_RS, mpp_symbolize(sym, r->site));
    int n = mpp_srckey_parse(key, &function, &frames);
    if (n > 0) {
        snprintf(file, size, "%s", frames[0].line ? frames[0].file : frames[0].text);
        *line = frames[0].line;
    }
    free(function);
    mpp_srckey_free_frames(frames, n);
}

static char *findings_text;
void mpp_trace_set_findings(char *text) { free(findings_text), findings_text = text; }

int mpp_trace_describe_threads(trace_blob_t *b)
{
    int failed = mpp_trace_put(b, "H%s", hostname);
    if (findings_text && !failed)
        failed = mpp_trace_put(b, "F%s", findings_text);
    failed = failed || mpp_trace_threads_put(b);
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    for (trace_thread_t *t = mpp_trace_threads; t && !failed; t = t->next) {
        uint64_t events = 0;
        if (t->writer)
            OTF2_EvtWriter_GetNumberOfEvents(t->writer, &events);
        failed |= mpp_trace_put(b, "L%d %llu", t->index, (unsigned long long)events);
        for (size_t s = 0; s < t->nsites && !failed; s++) {
            int depth = 0;
            while (depth < MPP_MAX_DEPTH && t->sites[s].frames[depth])
                depth++;
            char *key =
                sym ? mpp_profile_src_key(t->sites[s].fid, t->sites[s].frames, depth, resolve, sym, function_name)
                    : NULL;
            failed |= mpp_trace_put(b, "S%s", key ? key : function_name(t->sites[s].fid));
            free(key);
        }
        for (size_t r = 0; r < t->nregions && !failed; r++) {
            char file[1024];
            int line = 0;
            region_position(sym, &t->regions[r], file, sizeof file, &line);
            failed |= mpp_trace_put(b, "R%s%c%s%c%d%c%d", t->regions[r].name, MPP_US, file, MPP_US, line, MPP_US,
                                    t->regions[r].seq);
        }
        for (size_t c = 0; c < t->ncomms && !failed; c++) {
            const trace_comm_t *comm = &t->comms[c];
            failed |= mpp_trace_put(b, "C%llx %d ", (unsigned long long)comm->id, comm->size);
            for (int m = 0; m < comm->size && !failed; m++) {
                b->len--; /* continue the record */
                failed |= mpp_trace_put(b, "%s%d", m ? "," : "", comm->members[m]);
            }
        }
    }
    mpp_symbolizer_close(sym);
    return failed ? -1 : 0;
}

static uint32_t id_of(mpp_strmap_t *m, uint32_t *count, const char *key)
{
    int inserted = 0;
    uintptr_t *slot = mpp_strmap_put(m, key, *count, &inserted);
    if (!slot)
        return UINT32_MAX;
    if (inserted)
        (*count)++;
    return (uint32_t)*slot;
}

char *mpp_trace_unify(void *ctx, int rank, const char *bytes, size_t len, size_t *reply_len)
{
    trace_unify_t *u = ctx;
    size_t n = 0, cap = 64;
    uint32_t *ids = malloc(cap * sizeof *ids);
    *reply_len = 0;
    for (const char *rec = bytes; ids && rec < bytes + len; rec += strlen(rec) + 1) {
        uint32_t id = UINT32_MAX;
        switch (rec[0]) {
        case 'H':
            u->host_of[rank] = id_of(&u->hosts, &u->nhosts, rec + 1);
            continue;
        case 'F':
            if (!u->findings)
                u->findings = calloc((size_t)mpp_trace_nprocs, sizeof *u->findings);
            if (u->findings && rank < mpp_trace_nprocs)
                free(u->findings[rank]), u->findings[rank] = strdup(rec + 1);
            continue;
        case 'P':
            mpp_trace_threads_record(u, rank, rec + 1);
            continue;
        case 'L': {
            int index = 0;
            unsigned long long events = 0;
            sscanf(rec + 1, "%d %llu", &index, &events);
            if (u->nlocations == u->locations_capacity) {
                size_t c = u->locations_capacity ? 2 * u->locations_capacity : 64;
                uint64_t *l = realloc(u->locations, c * sizeof *l), *e = l ? realloc(u->events, c * sizeof *e) : NULL;
                if (l)
                    u->locations = l;
                if (!l || !e) {
                    free(ids);
                    return NULL;
                }
                u->events = e;
                u->locations_capacity = c;
            }
            u->locations[u->nlocations] = (uint64_t)index << 32 | (uint32_t)rank;
            u->events[u->nlocations++] = events;
            continue;
        }
        case 'S':
            id = id_of(&u->strings, &u->nstrings, rec + 1);
            break;
        case 'R':
            id = id_of(&u->regions, &u->nregions, rec + 1);
            break;
        case 'C':
            id = id_of(&u->comms, &u->ncomms, rec + 1);
            break;
        default:
            continue;
        }
        if (n == cap) {
            uint32_t *grown = realloc(ids, (cap *= 2) * sizeof *ids);
            if (!grown) {
                free(ids);
                return NULL;
            }
            ids = grown;
        }
        ids[n++] = id;
    }
    if (!ids) {
        *reply_len = 1; /* a failure, not an empty reply */
        return NULL;
    }
    if (!n) {
        free(ids);
        return NULL;
    }
    *reply_len = n * sizeof *ids;
    return (char *)ids;
}

int mpp_trace_write_mappings(OTF2_DefWriter *w, const size_t counts[3], const uint32_t *ids, size_t nids,
                             size_t *next)
{
    static const OTF2_MappingType types[3] = {OTF2_MAPPING_STRING, OTF2_MAPPING_REGION, OTF2_MAPPING_COMM};
    int failed = 0;
    for (int m = 0; m < 3; m++) {
        if (!counts[m])
            continue;
        uint64_t base = types[m] == OTF2_MAPPING_REGION ? MPP_NFUNCTIONS : 0;
        OTF2_IdMap *map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, counts[m]);
        for (size_t i = 0; map && i < counts[m]; i++, (*next)++)
            if (*next < nids)
                OTF2_IdMap_AddIdPair(map, base + i, base + ids[*next]);
        failed |= !map || OTF2_DefWriter_WriteMappingTable(w, types[m], map) != OTF2_SUCCESS;
        if (map)
            OTF2_IdMap_Free(map);
    }
    return failed;
}

/* Each location's local definitions: its mapping tables (the reply's ids,
 * in the order of its records) and its clock offsets. */
static int write_local(const uint32_t *ids, size_t nids, const mpp_clock_alignment_t *a0,
                       const mpp_clock_alignment_t *a1)
{
    size_t next = 0;
    int failed = 0;
    if (OTF2_Archive_OpenDefFiles(mpp_trace_archive) != OTF2_SUCCESS)
        return -1;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(mpp_trace_archive, t->location);
        if (!w) {
            failed = 1;
            continue;
        }
        failed |= mpp_trace_write_mappings(w, (size_t[3]){t->nsites, t->nregions, t->ncomms}, ids, nids, &next);
        if (a0)
            OTF2_DefWriter_WriteClockOffset(w, a0->at, a0->offset, (double)a0->uncertainty);
        if (a1)
            OTF2_DefWriter_WriteClockOffset(w, a1->at, a1->offset, (double)a1->uncertainty);
        OTF2_Archive_CloseDefWriter(mpp_trace_archive, w);
    }
    failed |= next != nids;
    if (OTF2_Archive_CloseDefFiles(mpp_trace_archive) != OTF2_SUCCESS)
        failed = 1;
    return failed ? -1 : 0;
}

/* The keys of a map in id order. */
static const char **by_id(const mpp_strmap_t *m, uint32_t n)
{
    const char **keys = calloc(n ? n : 1, sizeof *keys);
    for (size_t i = 0; keys && i < m->capacity; i++)
        if (m->keys[i] && m->values[i] < n)
            keys[m->values[i]] = m->keys[i];
    return keys;
}

/* A string definition of rank 0's, numbered after the unified ones. */
uint32_t mpp_trace_string_def(OTF2_GlobalDefWriter *w, uint32_t *next, const char *text)
{
    OTF2_GlobalDefWriter_WriteString(w, *next, text);
    return (*next)++;
}

/* mpiprof's attributes of events, their names and descriptions strings
 * of rank 0's. */
static void write_attributes(OTF2_GlobalDefWriter *w, uint32_t *next)
{
    OTF2_GlobalDefWriter_WriteAttribute(w, TRACE_ATTR_SRC, mpp_trace_string_def(w, next, "mpiprof::src"),
                                        mpp_trace_string_def(w, next, "SRC key of the MPI call (mpiprof-trace(5))"),
                                        OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(
        w, TRACE_ATTR_BYTES_SENT, mpp_trace_string_def(w, next, "mpiprof::bytes_sent"),
        mpp_trace_string_def(w, next, "bytes the MPI call sent, where its events do not say"), OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteAttribute(
        w, TRACE_ATTR_BYTES_RECV, mpp_trace_string_def(w, next, "mpiprof::bytes_recv"),
        mpp_trace_string_def(w, next, "bytes the MPI call received, where its events do not say"), OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteAttribute(
        w, TRACE_ATTR_PROBE_FOUND, mpp_trace_string_def(w, next, "mpiprof::probe_found"),
        mpp_trace_string_def(w, next, "the MPI probe found a message"), OTF2_TYPE_UINT8);
    OTF2_GlobalDefWriter_WriteAttribute(w, TRACE_ATTR_PROBED, mpp_trace_string_def(w, next, "mpiprof::probed"),
                                        mpp_trace_string_def(w, next,
                                                             "the receive took the message of the last probe that "
                                                             "found one, which waited for it"),
                                        OTF2_TYPE_UINT8);
    mpp_trace_check_attributes(w, next);
    /* (after those: OTF2 wants the definitions in the order of their ids) */
    OTF2_GlobalDefWriter_WriteAttribute(w, TRACE_ATTR_IO_DONE, mpp_trace_string_def(w, next, "mpiprof::io_done"),
                                        mpp_trace_string_def(w, next, "I/O requests the MPI wait or test completed"),
                                        OTF2_TYPE_UINT32);
}

/* Each rank's findings: a property of its location group per line of
 * their text, named mpiprof::findings (the first) and mpiprof::findings:N
 * (line N; a group's property names are unique), the names shared. */
static void write_findings(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next)
{
    uint32_t *names = NULL;
    size_t nnames = 0;
    for (int r = 0; u->findings && r < mpp_trace_nprocs; r++) {
        size_t n = 0;
        for (char *line = u->findings[r], *end; line && *line; line = *end ? end + 1 : end, n++) {
            end = line + strcspn(line, "\n");
            if (n == nnames) {
                uint32_t *grown = realloc(names, (nnames + 64) * sizeof *names);
                if (!grown)
                    break;
                names = grown;
                for (size_t k = nnames; k < nnames + 64; k++)
                    names[k] = UINT32_MAX;
                nnames += 64;
            }
            if (names[n] == UINT32_MAX) {
                char name[64];
                snprintf(name, sizeof name, n ? "mpiprof::findings:%zu" : "mpiprof::findings", n);
                names[n] = mpp_trace_string_def(w, next, name);
            }
            char keep = *end;
            *end = '\0';
            OTF2_AttributeValue value = {.stringRef = mpp_trace_string_def(w, next, line)};
            OTF2_GlobalDefWriter_WriteLocationGroupProperty(w, (uint32_t)r, names[n], OTF2_TYPE_STRING, value);
            *end = keep;
        }
    }
    free(names);
}

void mpp_trace_unify_free(trace_unify_t *u)
{
    mpp_strmap_free(&u->strings), mpp_strmap_free(&u->regions), mpp_strmap_free(&u->comms),
        mpp_strmap_free(&u->hosts);
    for (int r = 0; u->findings && r < mpp_trace_nprocs; r++)
        free(u->findings[r]);
    free(u->findings), free(u->host_of), free(u->locations), free(u->events);
    mpp_trace_threads_free(u);
}

/* The machine: one node per host, a process (location group) per rank, a
 * location per thread. */
static void write_machine(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next)
{
    uint32_t machine = mpp_trace_string_def(w, next, "machine"), node = mpp_trace_string_def(w, next, "node");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    const char **hosts = by_id(&u->hosts, u->nhosts);
    for (uint32_t h = 0; hosts && h < u->nhosts; h++)
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1 + h, mpp_trace_string_def(w, next, hosts[h] ? hosts[h] : "?"),
                                                 node, 0);
    free(hosts);
    for (int r = 0; r < mpp_trace_nprocs; r++) {
        char name[64];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, (uint32_t)r, mpp_trace_string_def(w, next, name),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 1 + u->host_of[r],
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (size_t l = 0; l < u->nlocations; l++) {
        char name[64];
        uint32_t thread = (uint32_t)(u->locations[l] >> 32), rank = (uint32_t)u->locations[l];
        if (thread)
            snprintf(name, sizeof name, "Thread %u of rank %u", thread, rank);
        else
            snprintf(name, sizeof name, "Master thread of rank %u", rank);
        OTF2_GlobalDefWriter_WriteLocation(w, u->locations[l], mpp_trace_string_def(w, next, name),
                                           OTF2_LOCATION_TYPE_CPU_THREAD, u->events[l], rank);
    }
}

/* Regions: every MPI function (its id), then the user regions, from their
 * keys (name US file US line US seq). */
static void write_regions(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next, uint32_t empty)
{
    for (uint32_t f = 0; f < MPP_NFUNCTIONS; f++) {
        uint32_t name = mpp_trace_string_def(w, next, mpp_functions[f].name);
        OTF2_GlobalDefWriter_WriteRegion(w, f, name, name, empty, mpp_trace_region_role(mpp_functions[f].name),
                                         OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
    const char **regions = by_id(&u->regions, u->nregions);
    for (uint32_t r = 0; regions && r < u->nregions; r++) {
        char name[MPP_NAME_MAX] = "?", file[1024] = "";
        int line = 0, seq = 0;
        const char *k = regions[r] ? regions[r] : "";
        const char *us1 = strchr(k, MPP_US), *us2 = us1 ? strchr(us1 + 1, MPP_US) : NULL;
        snprintf(name, sizeof name, "%.*s", us1 ? (int)(us1 - k) : (int)strlen(k), k);
        if (us1 && us2) {
            snprintf(file, sizeof file, "%.*s", (int)(us2 - us1 - 1), us1 + 1);
            sscanf(us2 + 1, "%d%*c%d", &line, &seq);
        }
        uint32_t n = mpp_trace_string_def(w, next, name);
        OTF2_GlobalDefWriter_WriteRegion(
            w, MPP_NFUNCTIONS + r, n, n,
            mpp_trace_string_def(w, next, seq ? "mpiprof replicated code (mpiprof_seq_begin)" : "mpiprof interval"),
            seq ? OTF2_REGION_ROLE_ARTIFICIAL : OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
            mpp_trace_string_def(w, next, file), (uint32_t)line, 0);
    }
    free(regions);
}

/* Communicator c's group (1 + c) and definition, from its key
 * (id-hex " " size " " members,...); named MPI_COMM_WORLD when it is. */
static void write_comm(OTF2_GlobalDefWriter *w, uint32_t c, const char *k, uint32_t *next, uint32_t empty)
{
    unsigned long long id = 0;
    int size = 0, used = 0;
    sscanf(k, "%llx %d %n", &id, &size, &used);
    uint64_t *m = malloc((size_t)(size > 0 ? size : 1) * sizeof *m);
    int n = 0;
    for (const char *p = k + used; m && *p && n < size; n++) {
        m[n] = strtoull(p, (char **)&p, 10);
        if (*p == ',')
            p++;
    }
    char name[96];
    int world = id == 1 || (id == 0 && size == mpp_trace_nprocs && m && n == size);
    for (int i = 0; world && id == 0 && i < n; i++)
        world = m[i] == (uint64_t)i;
    if (world)
        snprintf(name, sizeof name, "MPI_COMM_WORLD");
    else
        snprintf(name, sizeof name, "communicator %llx", id);
    OTF2_GlobalDefWriter_WriteGroup(w, 1 + c, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, m ? (uint32_t)n : 0, m);
    OTF2_GlobalDefWriter_WriteComm(w, c, mpp_trace_string_def(w, next, name), 1 + c, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    free(m);
}

/* Groups: group 0 lists the master location of every rank (the MPI ranks
 * communicators' groups name); group 1 + c the members of communicator c,
 * as MPI_COMM_WORLD ranks. */
static void write_groups(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next, uint32_t empty)
{
    uint64_t *members = malloc((size_t)mpp_trace_nprocs * sizeof *members);
    for (int r = 0; members && r < mpp_trace_nprocs; r++)
        members[r] = (uint32_t)r;
    OTF2_GlobalDefWriter_WriteGroup(w, 0, mpp_trace_string_def(w, next, "MPI_COMM_WORLD locations"),
                                    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    members ? (uint32_t)mpp_trace_nprocs : 0, members);
    free(members);
    const char **comms = by_id(&u->comms, u->ncomms);
    for (uint32_t c = 0; comms && c < u->ncomms; c++)
        write_comm(w, c, comms[c] ? comms[c] : "0 0 ", next, empty);
    free(comms);
}

int mpp_trace_write_global(OTF2_Archive *archive, trace_unify_t *u, uint64_t global_offset, uint64_t length)
{
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!w)
        return -1;
    double per_tick = mpp_ticks_to_seconds(1000000000u) / 1e9;
    uint64_t resolution = per_tick > 0 ? (uint64_t)llround(1.0 / per_tick) : 1000000000u;
    int failed = OTF2_GlobalDefWriter_WriteClockProperties(w, resolution, global_offset, length,
                                                           OTF2_UNDEFINED_TIMESTAMP) != OTF2_SUCCESS;
    /* strings: the unified SRC keys first (their ids are the events'), then the rest */
    const char **keys = by_id(&u->strings, u->nstrings);
    for (uint32_t s = 0; keys && s < u->nstrings; s++)
        OTF2_GlobalDefWriter_WriteString(w, s, keys[s]);
    free(keys);
    uint32_t next = u->nstrings;
    uint32_t empty = mpp_trace_string_def(w, &next, "");
    write_attributes(w, &next);
    write_machine(w, u, &next);
    write_findings(w, u, &next);
    mpp_trace_threads_write(w, u, &next);
    write_regions(w, u, &next, empty);
    write_groups(w, u, &next, empty);
    return failed ? -1 : 0;
}

/* MPI_Finalize is the calling thread's last call, in the regions still
 * open: they end with it. */
static void record_finalize(uint64_t end)
{
    trace_thread_t *me = mpp_trace_self();
    if (!me)
        return;
    uint64_t t0 = end < me->last_time ? me->last_time : end, t1 = mpp_now();
    OTF2_EvtWriter_Enter(me->writer, NULL, t0, MPP_FN_MPI_Finalize);
    OTF2_EvtWriter_Leave(me->writer, NULL, t1 > t0 ? t1 : t0, MPP_FN_MPI_Finalize);
    while (me->nopen > 0)
        OTF2_EvtWriter_Leave(me->writer, NULL, t1 > t0 ? t1 : t0, me->open[--me->nopen]);
    me->last_time = t1;
}

/* Every thread's event writer closed, and the event files and rescue
 * files (trace_rescue.c) with them: -1 when OTF2 failed to close one. */
static int close_events(void)
{
    int failed = 0;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next)
        if (t->writer && OTF2_Archive_CloseEvtWriter(mpp_trace_archive, t->writer) != OTF2_SUCCESS)
            failed = 1;
    if (OTF2_Archive_CloseEvtFiles(mpp_trace_archive) != OTF2_SUCCESS)
        failed = 1;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next)
        if (t->flushed_fd > 0)
            close(t->flushed_fd - 1), t->flushed_fd = 0;
    return failed ? -1 : 0;
}

/* The definitions, collectively: this process's description of its
 * threads (`blob`) unified by rank 0 into global ones, whose ids every
 * location's mapping tables get; `lo` and `hi` the run's span on rank 0's
 * clock.  Its failures are marked in *failed as mpp_trace_finish marks its
 * own. */
static void write_definitions(MPI_Comm comm, const trace_blob_t *blob, const mpp_clock_alignment_t *a0,
                              const mpp_clock_alignment_t *a1, int64_t lo, int64_t hi, int *failed)
{
    trace_unify_t u = {0};
    mpp_strmap_init(&u.strings), mpp_strmap_init(&u.regions), mpp_strmap_init(&u.comms), mpp_strmap_init(&u.hosts);
    u.host_of = calloc((size_t)mpp_trace_nprocs, sizeof *u.host_of);
    char *reply = NULL;
    size_t reply_len = 0;
    if (mpp_trace_exchange(comm, blob->text ? blob->text : "", blob->text ? blob->len : 0, mpp_trace_unify, &u,
                           &reply, &reply_len) != 0)
        *failed = 1;
    *failed |= write_local((const uint32_t *)reply, reply_len / sizeof(uint32_t), a0, a1);
    free(reply);
    if (mpp_trace_rank == 0 && u.host_of)
        *failed |= mpp_trace_write_global(mpp_trace_archive, &u, lo > 0 ? (uint64_t)lo : 0,
                                          hi > lo ? (uint64_t)(hi - lo) : 0);
    mpp_trace_unify_free(&u);
}

/* Whether the archive is whole, over all processes (collective): rank 0
 * says where it is and what it lacks (a process's failure, OTF2's errors,
 * events lost); 0, or -1 when it lacks anything. */
static int report(MPI_Comm comm, int failed, char *path, size_t size, long long *bytes)
{
    uint64_t errors = mpp_trace_errors, lost_events = 0;
    int any = 0;
    mpp_ptp_allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    mpp_ptp_allreduce(&errors, &lost_events, 1, MPI_UINT64_T, MPI_SUM, comm);
    uint64_t reported = atomic_load(&otf2_errors), all_reported = 0;
    mpp_ptp_allreduce(&reported, &all_reported, 1, MPI_UINT64_T, MPI_SUM, comm);
    if (mpp_trace_rank != 0)
        return any ? -1 : 0;
    mpp_trace_rescue_remove(); /* every process has closed its files: the definitions are whole */
    snprintf(path, size, "%s", mpp_trace_path);
    *bytes = mpp_tree_bytes(mpp_trace_path);
    if (any)
        mpp_warn("Trace: the archive %s is incomplete: writing its definitions failed on some process",
                 mpp_trace_path);
    if (all_reported)
        mpp_warn("Trace: OTF2 reported %llu errors while the archive %s was written%s%s",
                 (unsigned long long)all_reported, mpp_trace_path, reported ? "; rank 0's first: " : "",
                 reported ? first_error : "");
    if (lost_events)
        mpp_warn(
            "Trace: %llu events could not be recorded (out of memory or an OTF2 error); the archive %s lacks them",
            (unsigned long long)lost_events, mpp_trace_path);
    return any || lost_events || all_reported ? -1 : 0;
}

int mpp_trace_finish(MPI_Comm comm, uint64_t end, const mpp_clock_alignment_t *a0, const mpp_clock_alignment_t *a1,
                     char *path, size_t size, long long *bytes)
{
    path[0] = '\0';
    *bytes = 0;
    if (!mpp_trace_on)
        return -1;
    record_finalize(end);
    mpp_trace_on = 0;
    int failed = 0;
    uint64_t last = mpp_trace_started;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next)
        if (t->last_time > last)
            last = t->last_time;
    trace_blob_t blob = {0};
    failed |= mpp_trace_describe_threads(&blob);
    if (close_events() != 0)
        failed = 1;
    /* the span of the run on rank 0's clock */
    int64_t first = (int64_t)mpp_trace_started + (a0 ? a0->offset : 0);
    int64_t final = (int64_t)last + (a1 ? a1->offset : a0 ? a0->offset : 0);
    int64_t lo = 0, hi = 0;
    mpp_ptp_allreduce(&first, &lo, 1, MPI_INT64_T, MPI_MIN, comm);
    mpp_ptp_allreduce(&final, &hi, 1, MPI_INT64_T, MPI_MAX, comm);
    write_definitions(comm, &blob, a0, a1, lo, hi, &failed);
    free(blob.text);
    mpp_trace_set_findings(NULL);
    if (OTF2_Archive_Close(mpp_trace_archive) != OTF2_SUCCESS)
        failed = 1;
    mpp_trace_archive = NULL;
    mpp_trace_collective_context_free(context);
    context = NULL;
    return report(comm, failed, path, size, bytes);
}
