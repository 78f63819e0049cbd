/* Trace mode in a run that ends early (man/mpiprof-trace.5, RUNS THAT END
 * EARLY): the archive's definitions are written at MPI_Finalize, over MPI,
 * so a process that ends without it would leave event files no reader can
 * read.  Two things make them readable without any MPI call:
 *
 *   - at every flush of a location's events, what its local ids stand for
 *     as far as known without symbolization (the MPI function of each call
 *     site, the user regions, the communicators' members) is appended to
 *     <archive>/mpiprof-rescue/<rank>.<thread>.flushed: a process killed
 *     before it could do more leaves its events readable up to that flush;
 *   - a process that gets control at its end (the partial protocol's
 *     writer, faults.c: in a forked child, where allocation and
 *     symbolization are allowed) flushes its buffers, writes its full
 *     description (the records MPI_Finalize would send rank 0) to
 *     <archive>/mpiprof-rescue/<rank>.desc and then, under a lock, rebuilds
 *     the archive's definitions from every description and flushed-file
 *     there: global definitions, each location's mapping tables and clock
 *     offsets, and the anchor file, with the property MPIPROF::INCOMPLETE
 *     saying how the run ended and whose events end early.  Each process
 *     that ends so rebuilds them with what the earlier ones left: the last
 *     one's archive says the most. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context/clock.h"
#include "gen/function_table.h"
#include "trace/trace_local.h"
#include "util/file_tree.h"
#include "util/srckey.h"

#define RESCUE_DIR "mpiprof-rescue"
#define UNDO_FILES 64

/* What the rescue changed, for a process that goes on after all (its
 * program handled the signal): shared with the forked writer, set up at
 * MPI_Init.  Each event file's size before the writer flushed into it
 * (-1: the writer created it), and the files of definitions it wrote. */
typedef struct {
    int nfiles, nremove, rescued;
    struct {
        char path[sizeof mpp_trace_path + 64];
        long long size;
    } files[UNDO_FILES];
    char remove[UNDO_FILES + 4][sizeof mpp_trace_path + 64];
} undo_t;
static undo_t *undo;

void mpp_trace_rescue_prepare(void)
{
    if (!undo) {
        void *page = mmap(NULL, sizeof *undo, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        undo = page == MAP_FAILED ? NULL : page;
    }
    if (undo)
        undo->nfiles = undo->nremove = undo->rescued = 0;
}

static int same_text(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* Async-signal-safe (system calls only): each event file as it was before
 * the writer's flush (the process's own buffers still hold those events,
 * written at its next flush; its open descriptor, shared with the writer,
 * back at that size), and the rescued definitions removed (MPI_Finalize
 * writes them whole). */
void mpp_trace_rescue_undo(void)
{
    if (!undo || !undo->rescued)
        return;
    for (int i = 0; i < undo->nfiles; i++) {
        long long size = undo->files[i].size < 0 ? 0 : undo->files[i].size;
        int open_here = 0;
        for (int fd = 3; fd < 1024; fd++) {
            char link[32] = "/proc/self/fd/", digits[8], target[sizeof undo->files[i].path];
            int n = 14, k = 0;
            for (int v = fd; v; v /= 10)
                digits[k++] = (char)('0' + v % 10);
            while (k)
                link[n++] = digits[--k];
            link[n] = '\0';
            ssize_t len = readlink(link, target, sizeof target - 1);
            if (len <= 0)
                continue;
            target[len] = '\0';
            if (same_text(target, undo->files[i].path) && ftruncate(fd, size) == 0 && lseek(fd, size, SEEK_SET) >= 0)
                open_here = 1;
        }
        if (!open_here && undo->files[i].size < 0)
            unlink(undo->files[i].path);
        else if (!open_here && truncate(undo->files[i].path, size) != 0)
            continue;
    }
    for (int i = 0; i < undo->nremove; i++)
        unlink(undo->remove[i]);
    undo->rescued = 0;
}

/* --- at every flush (the hot path's rare system call: no allocation) --- */

typedef struct {
    int fd, failed;
    size_t n;
    char buf[4096];
} out_t;

static void out_flush(out_t *o)
{
    for (size_t done = 0; done < o->n && !o->failed;) {
        ssize_t w = write(o->fd, o->buf + done, o->n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->failed = 1;
        else
            done += (size_t)w;
    }
    o->n = 0;
}

static void out_bytes(out_t *o, const char *p, size_t len)
{
    while (len) {
        if (o->n == sizeof o->buf)
            out_flush(o);
        size_t k = len < sizeof o->buf - o->n ? len : sizeof o->buf - o->n;
        memcpy(o->buf + o->n, p, k);
        o->n += k, p += k, len -= k;
    }
}

static void out_fmt(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_fmt(out_t *o, const char *fmt, ...)
{
    char text[1500];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n > 0)
        out_bytes(o, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

static void out_end_record(out_t *o) { out_bytes(o, "", 1); }

void mpp_trace_flushed(OTF2_LocationRef location)
{
    trace_thread_t *t = __atomic_load_n(&mpp_trace_threads, __ATOMIC_ACQUIRE);
    while (t && t->location != location)
        t = t->next;
    if (!t || t->flushed_fd < 0)
        return;
    out_t o = {.fd = t->flushed_fd - 1};
    if (!t->flushed_fd) {
        char path[sizeof mpp_trace_path + 64];
        snprintf(path, sizeof path, "%s/" RESCUE_DIR, mpp_trace_path);
        mkdir(path, 0777);
        snprintf(path, sizeof path, "%s/" RESCUE_DIR "/%d.%d.flushed", mpp_trace_path, mpp_trace_rank, t->index);
        o.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
        t->flushed_fd = o.fd < 0 ? -1 : o.fd + 1;
        if (o.fd < 0)
            return;
    }
    for (; t->flushed_sites < t->nsites; t->flushed_sites++) {
        uint32_t fid = t->sites[t->flushed_sites].fid;
        out_fmt(&o, "S%s", fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?");
        out_end_record(&o);
    }
    for (; t->flushed_regions < t->nregions; t->flushed_regions++) {
        const trace_region_t *r = &t->regions[t->flushed_regions];
        out_fmt(&o, "R%s%c%.1000s%c%d%c%d", r->name, MPP_US, r->file ? r->file : "", MPP_US, r->file ? r->line : 0,
                MPP_US, r->seq);
        out_end_record(&o);
    }
    for (; t->flushed_comms < t->ncomms; t->flushed_comms++) {
        const trace_comm_t *c = &t->comms[t->flushed_comms];
        out_fmt(&o, "C%llx %d ", (unsigned long long)c->id, c->size);
        for (int m = 0; m < c->size; m++)
            out_fmt(&o, "%s%d", m ? "," : "", c->members[m]);
        out_end_record(&o);
    }
    out_flush(&o);
}

/* --- at the end, in the partial protocol's writer --- */

static int read_whole(const char *path, trace_blob_t *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char chunk[8192];
    size_t n;
    int failed = 0;
    while (!failed && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b->len + n > b->capacity) {
            size_t cap = b->capacity ? b->capacity : 8192;
            while (cap < b->len + n)
                cap *= 2;
            char *grown = realloc(b->text, cap);
            if (!grown)
                failed = 1;
            else
                b->text = grown, b->capacity = cap;
        }
        if (!failed)
            memcpy(b->text + b->len, chunk, n), b->len += n;
    }
    fclose(f);
    while (b->len && b->text[b->len - 1]) /* a record cut short (killed while writing it) */
        b->len--;
    return failed ? -1 : 0;
}

/* The records of a process that did not describe itself, from the files its
 * threads wrote at their flushes: per thread L, its S, R and C records
 * (grouped, as the mapping tables take them).  The number of threads found. */
static int gather_flushed(const char *dir, int rank, trace_blob_t *b)
{
    int threads = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%d.", rank);
    mpp_trace_put(b, "H?");
    while (d && (e = readdir(d))) {
        int index = -1, used = 0;
        if (strncmp(e->d_name, prefix, strlen(prefix)) ||
            sscanf(e->d_name + strlen(prefix), "%d.flushed%n", &index, &used) != 1 ||
            e->d_name[strlen(prefix) + (size_t)used] || index < 0)
            continue;
        char path[sizeof mpp_trace_path + 320];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        trace_blob_t f = {0};
        if (read_whole(path, &f) != 0)
            continue;
        threads++;
        mpp_trace_put(b, "L%d 0", index);
        for (const char *kind = "SRC"; *kind; kind++)
            for (const char *rec = f.text; rec && rec < f.text + f.len; rec += strlen(rec) + 1)
                if (rec[0] == *kind)
                    mpp_trace_put(b, "%s", rec);
        free(f.text);
    }
    if (d)
        closedir(d);
    return threads;
}

/* The event file of a location whose process did not close it: OTF2 wrote
 * it in whole chunks (its 4 MiB file buffer, a multiple of ours), none of
 * them with the end-of-file record a reader stops at (without it,
 * otf2-print reads on forever).  It gets one more chunk, empty: the chunk
 * header (OTF2_BUFFER_CHUNK_HEADER, the byte order, the numbers of its
 * first and last event, as the chunks before it) and OTF2_BUFFER_END_OF_FILE,
 * as libotf2's event writer ends a file when it is closed. */
static int end_event_file(OTF2_LocationRef location)
{
    enum { CHUNK_HEADER = 3, END_OF_FILE = 2, HEADER = 18 };
    char path[sizeof mpp_trace_path + 64];
    snprintf(path, sizeof path, "%s/traces/%llu.evt", mpp_trace_path, (unsigned long long)location);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !mpp_trace_chunk) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    uint64_t size = (uint64_t)st.st_size - (uint64_t)st.st_size % mpp_trace_chunk, last = 0;
    unsigned char head[HEADER] = {CHUNK_HEADER, 0x42 /* little endian */};
    if (size && (pread(fd, head, HEADER, (off_t)(size - mpp_trace_chunk)) != HEADER || head[0] != CHUNK_HEADER)) {
        close(fd);
        return -1;
    }
    if (size)
        memcpy(&last, head + 10, sizeof last);
    unsigned char tail[HEADER + 1] = {CHUNK_HEADER, head[1]};
    uint64_t first = last + 1;
    memcpy(tail + 2, &first, sizeof first);
    memcpy(tail + 10, &last, sizeof last);
    tail[HEADER] = END_OF_FILE;
    int failed =
        ftruncate(fd, (off_t)size) != 0 || pwrite(fd, tail, sizeof tail, (off_t)size) != (ssize_t)sizeof tail;
    close(fd);
    return failed ? -1 : 0;
}

static int move(const char *from_dir, const char *to_dir, const char *name)
{
    char from[2 * sizeof mpp_trace_path + 64], to[2 * sizeof mpp_trace_path + 64];
    snprintf(from, sizeof from, "%s/%s", from_dir, name);
    snprintf(to, sizeof to, "%s/%s", to_dir, name);
    return rename(from, to);
}

/* The incomplete archive's story: how each process ended, whose events end
 * at a flush, whose are missing. */
static void say_ends(trace_blob_t *note, const trace_blob_t *blobs, const int *kind, int n)
{
    mpp_trace_put(note, "the run ended early");
    for (int r = 0; r < n; r++) {
        const char *ended = NULL;
        for (const char *rec = blobs[r].text; kind[r] == 2 && rec < blobs[r].text + blobs[r].len;
             rec += strlen(rec) + 1)
            if (rec[0] == 'E')
                ended = rec + 1;
        note->len--; /* continue the record */
        if (kind[r] == 2)
            mpp_trace_put(note, "; rank %d: %s, its events up to then", r, ended ? ended : "ended");
        else if (kind[r] == 3)
            mpp_trace_put(note, "; rank %d: ending at the same time, its events as far as written then", r);
        else if (kind[r] == 1)
            mpp_trace_put(note,
                          "; rank %d: its events up to its last flush only (it ended without writing "
                          "them out: killed, or still running), its SRC points by MPI function only",
                          r);
        else
            mpp_trace_put(note, "; rank %d: no events (none flushed before it ended)", r);
    }
}

static OTF2_FlushType definitions_pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef location, void *caller,
                                            bool final)
{
    (void)user, (void)type, (void)location, (void)caller, (void) final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks definitions_flush = {.otf2_pre_flush = definitions_pre_flush};

/* What a rebuild gathers of every process: its records (blobs), how it
 * ended (kind: 2 described, 3 ending now, 1 flushes only, 0 nothing), its
 * ids in the unified definitions, and the run's span from the T records. */
typedef struct {
    int n;
    trace_unify_t u;
    trace_blob_t *blobs;
    uint32_t **ids;
    size_t *nids;
    int *kind;
    long long lo, hi;
    int have_span;
} gathered_t;

/* The records of rank r into g: its description when it wrote one, else
 * what its threads' flushes left (their event files ended so that a reader
 * stops there, unless the process is ending now and writes them itself). */
static void gather_process(const char *dir, int r, gathered_t *g)
{
    char path[sizeof mpp_trace_path + 320];
    snprintf(path, sizeof path, "%s/%d.desc", dir, r);
    struct stat st;
    if (read_whole(path, &g->blobs[r]) == 0 && g->blobs[r].len) {
        g->kind[r] = 2;
        return;
    }
    g->blobs[r].len = 0;
    g->kind[r] = gather_flushed(dir, r, &g->blobs[r]) > 0;
    if (!g->kind[r]) /* its location must exist (a communicator's group names it), without events */
        mpp_trace_put(&g->blobs[r], "L0 0");
    /* a process ending at the same time writes its event files out
     * now, and rebuilds all this after: they are its own */
    snprintf(path, sizeof path, "%s/%d.ending", dir, r);
    if (stat(path, &st) == 0)
        g->kind[r] = 3;
    for (const char *rec = g->blobs[r].text; g->kind[r] < 3 && rec < g->blobs[r].text + g->blobs[r].len;
         rec += strlen(rec) + 1)
        if (rec[0] == 'L' && end_event_file((uint64_t)atoi(rec + 1) << 32 | (uint32_t)r) != 0)
            g->kind[r] = 0;
}

/* The run's span: from the first start to the last end of the processes
 * that described themselves (their T records, on rank 0's clock). */
static void note_span(const trace_blob_t *b, gathered_t *g)
{
    for (const char *rec = b->text; rec && rec < b->text + b->len; rec += strlen(rec) + 1) {
        long long first = 0, last = 0;
        if (rec[0] == 'T' && sscanf(rec + 1, "%lld %lld", &first, &last) == 2) {
            g->lo = !g->have_span || first < g->lo ? first : g->lo;
            g->hi = !g->have_span || last > g->hi ? last : g->hi;
            g->have_span = 1;
        }
    }
}

/* Every process's records gathered from dir and unified; -1 when out of
 * memory (nothing gathered). */
static int gather(const char *dir, gathered_t *g)
{
    int n = g->n = mpp_trace_nprocs;
    trace_unify_t *u = &g->u;
    mpp_strmap_init(&u->strings), mpp_strmap_init(&u->regions), mpp_strmap_init(&u->comms),
        mpp_strmap_init(&u->hosts);
    u->host_of = calloc((size_t)n, sizeof *u->host_of);
    g->blobs = calloc((size_t)n, sizeof *g->blobs);
    g->ids = calloc((size_t)n, sizeof *g->ids);
    g->nids = calloc((size_t)n, sizeof *g->nids);
    g->kind = calloc((size_t)n, sizeof *g->kind);
    if (!u->host_of || !g->blobs || !g->ids || !g->nids || !g->kind)
        return -1;
    for (int r = 0; r < n; r++) {
        gather_process(dir, r, g);
        note_span(&g->blobs[r], g);
        g->ids[r] =
            (uint32_t *)mpp_trace_unify(u, r, g->blobs[r].text ? g->blobs[r].text : "", g->blobs[r].len, &g->nids[r]);
        g->nids[r] /= sizeof(uint32_t);
    }
    return 0;
}

static void gathered_free(gathered_t *g)
{
    for (int r = 0; g->blobs && g->ids && r < g->n; r++)
        free(g->blobs[r].text), free(g->ids[r]);
    free(g->blobs), free(g->ids), free(g->nids), free(g->kind);
    mpp_trace_unify_free(&g->u);
}

/* Rank r's local definitions: each of its locations' mapping tables (the
 * ids of its records, in their order) and the clock offset its A record
 * gives.  1 when a location has no definition writer, else the writers'
 * failures. */
static int write_rank_locals(OTF2_Archive *a, int r, const trace_blob_t *b, const uint32_t *ids, size_t nids)
{
    int failed = 0;
    size_t next = 0;
    const char *offset = NULL;
    for (const char *rec = b->text; rec < b->text + b->len; rec += strlen(rec) + 1)
        if (rec[0] == 'A')
            offset = rec + 1;
    for (const char *rec = b->text; rec < b->text + b->len; rec += strlen(rec) + 1) {
        if (rec[0] != 'L')
            continue;
        size_t counts[3] = {0, 0, 0};
        for (const char *o = rec + strlen(rec) + 1; o < b->text + b->len && o[0] != 'L'; o += strlen(o) + 1)
            counts[0] += o[0] == 'S', counts[1] += o[0] == 'R', counts[2] += o[0] == 'C';
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(a, (uint64_t)atoi(rec + 1) << 32 | (uint32_t)r);
        if (!w)
            return 1;
        failed |= mpp_trace_write_mappings(w, counts, ids, nids, &next);
        unsigned long long at = 0;
        long long off = 0;
        double uncertainty = 0;
        if (offset && sscanf(offset, "%llu %lld %lg", &at, &off, &uncertainty) == 3)
            OTF2_DefWriter_WriteClockOffset(w, at, off, uncertainty);
        OTF2_Archive_CloseDefWriter(a, w);
    }
    return failed;
}

/* The definitions of what g holds as an archive of their own at tmp: its
 * anchor file says how the run ended (`note`); 1 when any of it failed. */
static int write_archive(const char *tmp, gathered_t *g, const trace_blob_t *note)
{
    int failed = 0;
    OTF2_Archive *a =
        OTF2_Archive_Open(tmp, "traces", OTF2_FILEMODE_WRITE, mpp_trace_chunk, OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a || OTF2_Archive_SetFlushCallbacks(a, &definitions_flush, NULL) != OTF2_SUCCESS ||
        OTF2_Archive_SetSerialCollectiveCallbacks(a) != OTF2_SUCCESS) {
        failed = 1;
    } else {
        char creator[64];
        snprintf(creator, sizeof creator, "mpiprof %s", PACKAGE_VERSION);
        OTF2_Archive_SetCreator(a, creator);
        OTF2_Archive_SetDescription(a, "mpiprof trace mode (mpiprof-trace(5)), rescued at the end of a run that "
                                       "did not reach MPI_Finalize");
        failed |= OTF2_Archive_SetProperty(a, "MPIPROF::INCOMPLETE", note->text ? note->text : "the run ended early",
                                           true) != OTF2_SUCCESS;
        failed |= mpp_trace_write_global(a, &g->u, g->have_span && g->lo > 0 ? (uint64_t)g->lo : 0,
                                         g->have_span && g->hi > g->lo ? (uint64_t)(g->hi - g->lo) : 0);
        failed |= OTF2_Archive_OpenDefFiles(a) != OTF2_SUCCESS;
        for (int r = 0; !failed && r < g->n; r++)
            failed |= write_rank_locals(a, r, &g->blobs[r], g->ids[r], g->nids[r]);
        failed |= OTF2_Archive_CloseDefFiles(a) != OTF2_SUCCESS;
    }
    if (a)
        failed |= OTF2_Archive_Close(a) != OTF2_SUCCESS;
    return failed;
}

/* The definitions written at tmp moved into the archive, the anchor file
 * last (a reader finds the archive whole or not at all); 1 when one
 * could not be moved. */
static int move_into_place(const char *tmp)
{
    int failed = 0;
    char from[sizeof mpp_trace_path + 80], to[sizeof mpp_trace_path + 16];
    snprintf(from, sizeof from, "%s/traces", tmp);
    snprintf(to, sizeof to, "%s/traces", mpp_trace_path);
    DIR *d = opendir(from);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            failed |= move(from, to, e->d_name) != 0;
    if (d)
        closedir(d);
    return failed || move(tmp, mpp_trace_path, "traces.def") != 0 || move(tmp, mpp_trace_path, "traces.otf2") != 0;
}

/* The archive's definitions and anchor file from what dir holds, written
 * into dir/archive and moved into place (the anchor last). */
static int rebuild(const char *dir)
{
    gathered_t g = {0};
    trace_blob_t note = {0};
    int failed = gather(dir, &g) != 0;
    if (!failed)
        say_ends(&note, g.blobs, g.kind, g.n);
    char tmp[sizeof mpp_trace_path + 64];
    snprintf(tmp, sizeof tmp, "%s/archive", dir);
    mpp_tree_remove(tmp);
    failed = failed || write_archive(tmp, &g, &note) != 0;
    failed = failed || move_into_place(tmp) != 0;
    mpp_tree_remove(tmp);
    gathered_free(&g);
    free(note.text);
    return failed ? -1 : 0;
}

static int rescue(const char *ended, const mpp_clock_alignment_t *a0);

int mpp_trace_rescue(const char *ended, const mpp_clock_alignment_t *a0, char *path, size_t size, long long *bytes)
{
    int rc = rescue(ended, a0);
    snprintf(path, size, "%s", mpp_trace_path);
    *bytes = mpp_tree_bytes(mpp_trace_path);
    return rc;
}

/* The regions still open end now, as the partial protocol's intervals;
 * the time of the last event of any thread. */
static uint64_t end_open_regions(void)
{
    uint64_t now = mpp_now(), last = mpp_trace_started;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next) {
        if (t->writer && t->nopen > 0) {
            t->last_time = now > t->last_time ? now : t->last_time;
            while (t->nopen > 0)
                OTF2_EvtWriter_Leave(t->writer, NULL, t->last_time, t->open[--t->nopen]);
        }
        last = t->last_time > last ? t->last_time : last;
    }
    return last;
}

/* This process's records as MPI_Finalize would send them rank 0, and what
 * only the rebuild needs: how it ended (E), the span of its events on
 * rank 0's clock (T) and its clock offset (A).  Nonzero when one could not
 * be made. */
static int describe_end(trace_blob_t *blob, const char *ended, const mpp_clock_alignment_t *a0, uint64_t last)
{
    int failed = mpp_trace_describe_threads(blob);
    int64_t offset = a0 ? a0->offset : 0;
    failed |= mpp_trace_put(blob, "E%s", ended);
    failed |= mpp_trace_put(blob, "T%lld %lld", (long long)mpp_trace_started + (long long)offset,
                            (long long)last + (long long)offset);
    if (a0)
        failed |= mpp_trace_put(blob, "A%llu %lld %.17g", (unsigned long long)a0->at, (long long)a0->offset,
                                (double)a0->uncertainty);
    return failed;
}

/* For the undo: thread t's event file as it is before its writer is
 * closed (its size, -1 when there is none), and the definitions file the
 * rebuild writes for its location. */
static void undo_note_location(const trace_thread_t *t)
{
    if (!undo || undo->nfiles >= UNDO_FILES)
        return;
    char file[sizeof undo->files[0].path];
    struct stat st;
    snprintf(file, sizeof file, "%s/traces/%llu.evt", mpp_trace_path, (unsigned long long)t->location);
    undo->files[undo->nfiles].size = stat(file, &st) == 0 ? (long long)st.st_size : -1;
    if (undo->files[undo->nfiles].size < 0 || !realpath(file, undo->files[undo->nfiles].path))
        snprintf(undo->files[undo->nfiles].path, sizeof file, "%s", file);
    snprintf(undo->remove[undo->nremove++], sizeof undo->remove[0], "%s/traces/%llu.def", mpp_trace_path,
             (unsigned long long)t->location);
    undo->nfiles++;
}

/* Every thread's event writer closed, its buffered events written out (as
 * the undo noted the file before); nonzero when OTF2 failed to close one. */
static int close_writers(void)
{
    int failed = 0;
    for (trace_thread_t *t = mpp_trace_threads; t; t = t->next) {
        if (!t->writer)
            continue;
        undo_note_location(t);
        if (OTF2_Archive_CloseEvtWriter(mpp_trace_archive, t->writer) != OTF2_SUCCESS)
            failed = 1;
    }
    return failed;
}

/* For the undo: the files only the rescue makes (the anchor file, the
 * global definitions, this process's description and mark). */
static void undo_note_rescue(void)
{
    if (!undo)
        return;
    snprintf(undo->remove[undo->nremove++], sizeof undo->remove[0], "%s/traces.otf2", mpp_trace_path);
    snprintf(undo->remove[undo->nremove++], sizeof undo->remove[0], "%s/traces.def", mpp_trace_path);
    snprintf(undo->remove[undo->nremove++], sizeof undo->remove[0], "%s/" RESCUE_DIR "/%d.desc", mpp_trace_path,
             mpp_trace_rank);
    snprintf(undo->remove[undo->nremove++], sizeof undo->remove[0], "%s/" RESCUE_DIR "/%d.ending", mpp_trace_path,
             mpp_trace_rank);
    undo->rescued = 1;
}

/* The description into dir/<rank>.desc, written beside it and renamed:
 * a rebuild reads it whole or not at all.  -1 when it is not there. */
static int write_description(const char *dir, const trace_blob_t *blob)
{
    char path[sizeof mpp_trace_path + 32 + 64], final_path[sizeof path];
    snprintf(path, sizeof path, "%s/%d.desc.new", dir, mpp_trace_rank);
    snprintf(final_path, sizeof final_path, "%s/%d.desc", dir, mpp_trace_rank);
    FILE *f = blob->text ? fopen(path, "wb") : NULL;
    int failed = !f || fwrite(blob->text, 1, blob->len, f) != blob->len;
    if (f && fclose(f) != 0)
        failed = 1;
    return failed || rename(path, final_path) != 0 ? -1 : 0;
}

/* The archive rebuilt under dir's lock, one process at a time: each one
 * ending so rebuilds it with what the earlier ones left. */
static int rebuild_locked(const char *dir)
{
    char path[sizeof mpp_trace_path + 32 + 64];
    snprintf(path, sizeof path, "%s/lock", dir);
    int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock < 0 || flock(lock, LOCK_EX) != 0) {
        if (lock >= 0)
            close(lock);
        return -1;
    }
    int failed = rebuild(dir);
    close(lock);
    return failed ? -1 : 0;
}

static int rescue(const char *ended, const mpp_clock_alignment_t *a0)
{
    if (!mpp_trace_on)
        return -1;
    mpp_trace_on = 0;
    uint64_t last = end_open_regions();
    char dir[sizeof mpp_trace_path + 32], path[sizeof dir + 64];
    snprintf(dir, sizeof dir, "%s/" RESCUE_DIR, mpp_trace_path);
    mkdir(dir, 0777);
    /* marks this process as ending now (rebuild: its event files are its own) */
    snprintf(path, sizeof path, "%s/%d.ending", dir, mpp_trace_rank);
    int ending = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (ending >= 0)
        close(ending);
    trace_blob_t blob = {0};
    int failed = describe_end(&blob, ended, a0, last);
    failed |= close_writers();
    undo_note_rescue();
    failed = failed || write_description(dir, &blob) != 0;
    free(blob.text);
    return failed ? -1 : rebuild_locked(dir);
}

void mpp_trace_rescue_remove(void)
{
    char dir[sizeof mpp_trace_path + 32];
    snprintf(dir, sizeof dir, "%s/" RESCUE_DIR, mpp_trace_path);
    mpp_tree_remove(dir);
}
