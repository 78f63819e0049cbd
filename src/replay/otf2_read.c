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
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "function_table.h"
#include "handlemap.h"
#include "replay.h"
#include "srckey.h"
#include "strmap.h"

#define SRC_ATTRIBUTE "mpiprof::src"

typedef struct {
    uint32_t name, file;
    uint32_t line;
    int paradigm, role;
} region_def_t;

typedef struct {
    uint32_t name;
    uint64_t group;
    int type;
    uint64_t events; /* as its writer counted them (0: not said) */
} location_def_t;

typedef struct {
    uint32_t name;
    uint64_t parent;
    int type;
} group_def_t;   /* location groups and system tree nodes */

typedef struct {
    int type, paradigm;
    uint32_t n;
    uint64_t *members;
} member_group_t;

/* Growable arrays indexed by OTF2 reference. */
#define AT(array, count, ref)                                                                          \
    ((ref) < (count) ? &(array)[ref] : NULL)

typedef struct {
    rp_trace_t *t;
    char **strings;
    uint32_t nstrings;
    region_def_t *regions;
    uint32_t nregions;
    location_def_t *locations;   /* by position of definition */
    uint64_t *location_refs;
    uint32_t nlocations, locations_cap;
    group_def_t *lgroups, *nodes;
    uint32_t nlgroups, nnodes;
    member_group_t *groups;
    uint32_t ngroups;
    uint64_t *comm_group;        /* by comm ref */
    uint32_t ncomm_groups;
    uint64_t src_attribute;      /* OTF2_UNDEFINED_ATTRIBUTE: none */
    int failed;
    char why[256];
    /* events of the location being read */
    int current;
    int depth;                   /* MPI regions open (nested ones are MPI's own) */
    uint32_t *open;              /* every region open, innermost last */
    size_t nopen, open_cap;
    int64_t open_call;           /* its call, -1: none or not profiled */
    mpp_handlemap_t requests;    /* receive request id -> irecv_t */
    int64_t *coll_open;          /* calls with a MpiCollectiveBegin not yet ended */
    size_t ncoll_open, coll_open_cap;
    mpp_strmap_t sites;          /* frame record -> index */
} reader_t;

typedef struct {
    int64_t posted;
    int64_t call;
} irecv_t;

static void fail(reader_t *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

/* Room for index `ref` in a growable array of `size`-byte elements. */
static void *slot(reader_t *r, void **array, uint32_t *count, uint64_t ref, size_t size)
{
    if (ref >= (1u << 28)) {
        fail(r, "a definition reference %llu is out of range", (unsigned long long)ref);
        return NULL;
    }
    if (ref >= *count) {
        uint32_t n = (uint32_t)ref + 1 > 2 * *count ? (uint32_t)ref + 1 : 2 * *count;
        void *grown = realloc(*array, (size_t)n * size);
        if (!grown) {
            fail(r, "out of memory reading the definitions");
            return NULL;
        }
        memset((char *)grown + (size_t)*count * size, 0, (size_t)(n - *count) * size);
        *array = grown;
        *count = n;
    }
    return (char *)*array + (size_t)ref * size;
}

static const char *string_of(const reader_t *r, uint64_t ref)
{
    return ref < r->nstrings && r->strings[ref] ? r->strings[ref] : "";
}

/* --- global definitions --- */

static OTF2_CallbackCode def_clock(void *data, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    reader_t *r = data;
    (void)length;
    r->t->resolution = resolution;
    r->t->global_offset = offset;
    r->t->realtime = realtime == OTF2_UNDEFINED_TIMESTAMP ? 0 : realtime;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *data, OTF2_StringRef self, const char *string)
{
    reader_t *r = data;
    char **s = slot(r, (void **)&r->strings, &r->nstrings, self, sizeof *r->strings);
    if (!s)
        return OTF2_CALLBACK_INTERRUPT;
    free(*s);
    *s = strdup(string ? string : "");
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                                    OTF2_StringRef description, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin, uint32_t end)
{
    reader_t *r = data;
    (void)canonical, (void)description, (void)flags, (void)end;
    region_def_t *d = slot(r, (void **)&r->regions, &r->nregions, self, sizeof *r->regions);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    *d = (region_def_t){name, file, begin, paradigm, role};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group)
{
    reader_t *r = data;
    if (r->nlocations == r->locations_cap) {
        uint32_t cap = r->locations_cap ? 2 * r->locations_cap : 64;
        location_def_t *grown = realloc(r->locations, cap * sizeof *grown);
        if (grown)
            r->locations = grown;
        uint64_t *refs = grown ? realloc(r->location_refs, cap * sizeof *refs) : NULL;
        if (!refs) {
            fail(r, "out of memory reading the definitions");
            return OTF2_CALLBACK_INTERRUPT;
        }
        r->location_refs = refs;
        r->locations_cap = cap;
    }
    r->locations[r->nlocations] = (location_def_t){name, group, type, events};
    r->location_refs[r->nlocations++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location_group(void *data, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                            OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                            OTF2_LocationGroupRef creator)
{
    reader_t *r = data;
    (void)creator;
    group_def_t *d = slot(r, (void **)&r->lgroups, &r->nlgroups, self, sizeof *r->lgroups);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    *d = (group_def_t){name, parent, type};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_node(void *data, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                  OTF2_StringRef class_name, OTF2_SystemTreeNodeRef parent)
{
    reader_t *r = data;
    group_def_t *d = slot(r, (void **)&r->nodes, &r->nnodes, self, sizeof *r->nodes);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    *d = (group_def_t){name, parent, (int)class_name};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *data, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n,
                                   const uint64_t *members)
{
    reader_t *r = data;
    (void)name, (void)flags;
    member_group_t *d = slot(r, (void **)&r->groups, &r->ngroups, self, sizeof *r->groups);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    free(d->members);
    *d = (member_group_t){type, paradigm, n, malloc((n ? n : 1) * sizeof *members)};
    if (!d->members) {
        fail(r, "out of memory reading the definitions");
        return OTF2_CALLBACK_INTERRUPT;
    }
    memcpy(d->members, members, n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    reader_t *r = data;
    (void)name, (void)parent, (void)flags;
    uint64_t *d = slot(r, (void **)&r->comm_group, &r->ncomm_groups, self, sizeof *r->comm_group);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    *d = group + 1; /* 0: no such communicator */
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_attribute(void *data, OTF2_AttributeRef self, OTF2_StringRef name,
                                       OTF2_StringRef description, OTF2_Type type)
{
    reader_t *r = data;
    (void)description;
    if (type == OTF2_TYPE_STRING && !strcmp(string_of(r, name), SRC_ATTRIBUTE))
        r->src_attribute = self;
    return OTF2_CALLBACK_SUCCESS;
}

static int read_global_definitions(reader_t *r, OTF2_Reader *reader)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        fail(r, "its global definitions cannot be opened");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_location_group);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_node);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, cb, r);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n);
    if (rc != OTF2_SUCCESS && !r->failed)
        fail(r, "its global definitions are unreadable (%s)", OTF2_Error_GetDescription(rc));
    return r->failed ? -1 : 0;
}

/* --- processes, ranks and communicators from the definitions --- */

static const member_group_t *mpi_locations(const reader_t *r)
{
    for (uint32_t g = 0; g < r->ngroups; g++)
        if (r->groups[g].members && r->groups[g].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
            r->groups[g].paradigm == OTF2_PARADIGM_MPI)
            return &r->groups[g];
    return NULL;
}

static int location_index(const reader_t *r, uint64_t ref)
{
    for (uint32_t i = 0; i < r->nlocations; i++)
        if (r->location_refs[i] == ref)
            return (int)i;
    return -1;
}

static int build_processes(reader_t *r)
{
    rp_trace_t *t = r->t;
    const member_group_t *world = mpi_locations(r);
    if (!world || !world->n) {
        fail(r, "it has no MPI processes (no group of MPI locations: not the trace of an MPI program)");
        return -1;
    }
    if (!t->resolution) {
        fail(r, "it has no clock properties (timer resolution)");
        return -1;
    }
    t->nprocesses = (int)world->n;
    t->processes = calloc(world->n, sizeof *t->processes);
    t->nlocations = (int)r->nlocations;
    t->locations = calloc(r->nlocations ? r->nlocations : 1, sizeof *t->locations);
    int *rank_of_group = malloc((r->nlgroups ? r->nlgroups : 1) * sizeof *rank_of_group);
    if (!t->processes || !t->locations || !rank_of_group) {
        free(rank_of_group);
        fail(r, "out of memory for %u processes", world->n);
        return -1;
    }
    for (uint32_t g = 0; g < r->nlgroups; g++)
        rank_of_group[g] = -1;
    for (uint32_t k = 0; k < world->n; k++) {
        int l = location_index(r, world->members[k]);
        if (l < 0 || r->locations[l].group >= r->nlgroups) {
            free(rank_of_group);
            fail(r, "rank %u's location %llu is not defined", k, (unsigned long long)world->members[k]);
            return -1;
        }
        rank_of_group[r->locations[l].group] = (int)k;
        rp_process_t *p = &t->processes[k];
        p->rank = (int)k;
        const group_def_t *lg = &r->lgroups[r->locations[l].group];
        p->host = strdup(lg->parent < r->nnodes ? string_of(r, r->nodes[lg->parent].name) : "?");
        p->locations = malloc(sizeof *p->locations);
        if (!p->host || !p->locations) {
            free(rank_of_group);
            fail(r, "out of memory for %u processes", world->n);
            return -1;
        }
        p->locations[p->nlocations++] = l; /* the rank's own location first */
    }
    for (uint32_t l = 0; l < r->nlocations; l++) {
        rp_location_t *loc = &t->locations[l];
        loc->ref = r->location_refs[l];
        loc->init_leave = loc->finalize_enter = -1;
        uint64_t g = r->locations[l].group;
        loc->process = g < r->nlgroups ? rank_of_group[g] : -1;
        if (loc->process < 0)
            continue; /* not an MPI process's (a GPU stream, a metric location) */
        rp_process_t *p = &t->processes[loc->process];
        if ((int)l == p->locations[0])
            continue;
        int *grown = realloc(p->locations, (size_t)(p->nlocations + 1) * sizeof *grown);
        if (!grown) {
            free(rank_of_group);
            fail(r, "out of memory for the threads of rank %d", p->rank);
            return -1;
        }
        p->locations = grown;
        p->locations[p->nlocations++] = (int)l;
    }
    free(rank_of_group);
    /* communicators: world ranks of their members (COMM_SELF: -1, the caller) */
    t->ncomms = r->ncomm_groups;
    t->comms = calloc(r->ncomm_groups ? r->ncomm_groups : 1, sizeof *t->comms);
    if (!t->comms) {
        fail(r, "out of memory for the communicators");
        return -1;
    }
    for (uint32_t c = 0; c < r->ncomm_groups; c++) {
        if (!r->comm_group[c] || r->comm_group[c] - 1 >= r->ngroups)
            continue;
        const member_group_t *g = &r->groups[r->comm_group[c] - 1];
        rp_comm_t *comm = &t->comms[c];
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            comm->world = malloc(sizeof *comm->world);
            if (comm->world)
                comm->size = 1, comm->world[0] = -1;
            continue;
        }
        if (g->type != OTF2_GROUP_TYPE_COMM_GROUP)
            continue;
        comm->world = malloc((g->n ? g->n : 1) * sizeof *comm->world);
        if (!comm->world) {
            fail(r, "out of memory for the communicators");
            return -1;
        }
        comm->size = g->n;
        for (uint32_t k = 0; k < g->n; k++)
            comm->world[k] = g->members[k] < world->n ? (int32_t)g->members[k] : -2;
    }
    return 0;
}

/* --- events --- */

static int function_of(const char *name)
{
    int lo = 0, hi = MPP_NFUNCTIONS - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(mpp_functions[mid].name, name);
        if (!c)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* A location's timestamp on the common time line: its clock offsets
 * applied (linear between two measurements, constant outside), the
 * trace's global offset removed. */
static int64_t corrected(const rp_trace_t *t, const rp_location_t *loc, OTF2_TimeStamp time)
{
    int64_t at = (int64_t)(time - t->global_offset), off = 0;
    int n = loc->noffsets;
    if (n == 1 || (n > 1 && (int64_t)time <= loc->offset_time[0])) {
        off = loc->offset[0];
    } else if (n > 1 && (int64_t)time >= loc->offset_time[n - 1]) {
        off = loc->offset[n - 1];
    } else if (n > 1) {
        int k = 1;
        while (k < n - 1 && loc->offset_time[k] < (int64_t)time)
            k++;
        double span = (double)(loc->offset_time[k] - loc->offset_time[k - 1]);
        double f = span > 0 ? (double)((int64_t)time - loc->offset_time[k - 1]) / span : 0;
        off = loc->offset[k - 1] + (int64_t)(f * (double)(loc->offset[k] - loc->offset[k - 1]));
    }
    return at + off;
}

static rp_location_t *current(reader_t *r) { return &r->t->locations[r->current]; }

static rp_call_t *open_call(reader_t *r)
{
    return r->open_call >= 0 ? &current(r)->calls[r->open_call] : NULL;
}

/* Every event: the location's time line, which never goes back (OTF2's
 * rule; a corrupt event file often breaks it).  0, or -1 (failed). */
static int seen(reader_t *r, OTF2_TimeStamp time, int mpi)
{
    rp_location_t *loc = current(r);
    int64_t at = corrected(r->t, loc, time);
    if (loc->events && at < loc->last) {
        fail(r, "the events of location %llu go back in time at event %llu (a corrupt event file)",
             (unsigned long long)loc->ref, (unsigned long long)loc->events + 1);
        return -1;
    }
    if (!loc->events++)
        loc->first = at;
    loc->last = at;
    r->t->events++;
    r->t->mpi_events += mpi;
    return 0;
}

#define SEEN(r, time, mpi)                                                                             \
    do {                                                                                               \
        if (seen(r, time, mpi) != 0)                                                                   \
            return OTF2_CALLBACK_INTERRUPT;                                                            \
    } while (0)

/* Regions are entered and left as a stack: a Leave of another region than
 * the innermost one, or of an undefined one, is a corrupt event file. */
static int region_entered(reader_t *r, OTF2_RegionRef region)
{
    if (region >= r->nregions) {
        fail(r, "location %llu enters region %u, which is not defined (a corrupt event file)",
             (unsigned long long)current(r)->ref, region);
        return -1;
    }
    if (r->nopen == r->open_cap) {
        size_t cap = r->open_cap ? 2 * r->open_cap : 64;
        uint32_t *grown = realloc(r->open, cap * sizeof *grown);
        if (!grown) {
            fail(r, "out of memory for the regions of location %llu", (unsigned long long)current(r)->ref);
            return -1;
        }
        r->open = grown;
        r->open_cap = cap;
    }
    r->open[r->nopen++] = region;
    return 0;
}

static int region_left(reader_t *r, OTF2_RegionRef region)
{
    if (!r->nopen || r->open[r->nopen - 1] != region) {
        fail(r, "location %llu leaves region %u, which is not the one it is in (a corrupt event file)",
             (unsigned long long)current(r)->ref, region);
        return -1;
    }
    r->nopen--;
    return 0;
}

/* The call site of an Enter: mpiprof's attribute (an SRC key: the frames
 * after the function's name), or the region alone (0). */
static uint32_t site_of(reader_t *r, OTF2_AttributeList *attributes)
{
    OTF2_StringRef ref;
    if (r->src_attribute == OTF2_UNDEFINED_ATTRIBUTE || !attributes ||
        OTF2_AttributeList_GetStringRef(attributes, r->src_attribute, &ref) != OTF2_SUCCESS)
        return 0;
    const char *key = string_of(r, ref), *frames = strchr(key, MPP_RS);
    if (!frames || !frames[1])
        return 0;
    frames++;
    int inserted;
    uintptr_t *v = mpp_strmap_put(&r->sites, frames, r->t->nsites, &inserted);
    if (!v)
        return 0;
    if (inserted) {
        char **grown = realloc(r->t->sites, (r->t->nsites + 1) * sizeof *grown);
        if (!grown || !(grown[r->t->nsites] = strdup(frames))) {
            if (grown)
                r->t->sites = grown;
            fail(r, "out of memory for the call sites");
            return 0;
        }
        r->t->sites = grown;
        r->t->nsites++;
        r->t->from_mpiprof = 1;
    }
    return (uint32_t)*v;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    reader_t *r = data;
    (void)location, (void)position;
    const region_def_t *d = AT(r->regions, r->nregions, region);
    int mpi = d && d->paradigm == OTF2_PARADIGM_MPI;
    SEEN(r, time, mpi);
    if (region_entered(r, region) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    if (!mpi)
        return OTF2_CALLBACK_SUCCESS;
    if (r->depth++ > 0)
        return OTF2_CALLBACK_SUCCESS; /* an MPI call made inside one: MPI's own */
    rp_location_t *loc = current(r);
    const char *name = string_of(r, d->name);
    int64_t at = corrected(r->t, loc, time);
    r->open_call = -1;
    if (!strcmp(name, "MPI_Finalize") || !strcmp(name, "MPI_Session_finalize")) {
        if (loc->finalize_enter < 0)
            loc->finalize_enter = at;
        return OTF2_CALLBACK_SUCCESS;
    }
    int fid = function_of(name);
    if (fid < 0 || mpp_functions[fid].category < 0 || loc->finalize_enter >= 0 ||
        !strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread"))
        return OTF2_CALLBACK_SUCCESS; /* not profiled, as at run time */
    if (loc->ncalls == loc->calls_cap) {
        size_t cap = loc->calls_cap ? 2 * loc->calls_cap : 256;
        rp_call_t *grown = realloc(loc->calls, cap * sizeof *grown);
        if (!grown) {
            fail(r, "out of memory for the events of location %llu", (unsigned long long)loc->ref);
            return OTF2_CALLBACK_INTERRUPT;
        }
        loc->calls = grown;
        loc->calls_cap = cap;
    }
    r->open_call = (int64_t)loc->ncalls;
    loc->calls[loc->ncalls++] = (rp_call_t){.fid = (uint32_t)fid, .site = site_of(r, attributes), .enter = at,
                                            .leave = at};
    return r->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    const region_def_t *d = AT(r->regions, r->nregions, region);
    int mpi = d && d->paradigm == OTF2_PARADIGM_MPI;
    SEEN(r, time, mpi);
    if (region_left(r, region) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    if (!mpi || r->depth == 0 || --r->depth > 0)
        return OTF2_CALLBACK_SUCCESS;
    rp_location_t *loc = current(r);
    const char *name = string_of(r, d->name);
    if (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread"))
        loc->init_leave = corrected(r->t, loc, time);
    rp_call_t *c = open_call(r);
    if (c)
        c->leave = corrected(r->t, loc, time);
    r->open_call = -1;
    return OTF2_CALLBACK_SUCCESS;
}

static int add_message(reader_t *r, int send, uint32_t comm, uint32_t peer, uint32_t tag, int64_t posted,
                       int64_t call)
{
    rp_trace_t *t = r->t;
    const rp_comm_t *c = comm < t->ncomms ? &t->comms[comm] : NULL;
    if (!c || !c->size || peer >= c->size) {
        fail(r, "location %llu names rank %u of communicator %u, which the definitions do not give it",
             (unsigned long long)current(r)->ref, peer, comm);
        return -1;
    }
    int32_t world = c->world[peer] == -1 ? t->locations[r->current].process : c->world[peer];
    rp_message_t **list = send ? &t->sends : &t->recvs;
    size_t *n = send ? &t->nsends : &t->nrecvs, *cap = send ? &t->sends_cap : &t->recvs_cap;
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 1024;
        rp_message_t *grown = realloc(*list, more * sizeof *grown);
        if (!grown) {
            fail(r, "out of memory for the messages");
            return -1;
        }
        *list = grown;
        *cap = more;
    }
    (*list)[(*n)++] = (rp_message_t){comm, world, (int32_t)tag, posted, (uint32_t)r->current, (uint32_t)call};
    return 0;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                 OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t length)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    c->bytes_sent += length;
    return add_message(r, 1, comm, receiver, tag, c->enter, r->open_call) ? OTF2_CALLBACK_INTERRUPT
                                                                            : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t length, uint64_t request)
{
    (void)request;
    return ev_send(location, time, position, data, attributes, receiver, comm, tag, length);
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                           void *data, OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes, (void)request;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (c)
        c->p2p_done++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                          void *data, OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    int inserted;
    irecv_t *q = mpp_handlemap_put(&r->requests, request, &inserted);
    if (!q) {
        fail(r, "out of memory for the receive requests");
        return OTF2_CALLBACK_INTERRUPT;
    }
    *q = (irecv_t){c ? c->enter : corrected(r->t, current(r), time), r->open_call};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                 OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t length)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    c->bytes_recv += length;
    return add_message(r, 0, comm, sender, tag, c->enter, r->open_call) ? OTF2_CALLBACK_INTERRUPT
                                                                          : OTF2_CALLBACK_SUCCESS;
}

/* A receive request completed: its bytes count on the call that posted it
 * (as the wrappers count them), it was posted when that call began. */
static OTF2_CallbackCode ev_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t length, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    irecv_t q = {c->enter, r->open_call};
    mpp_handlemap_remove(&r->requests, request, &q);
    rp_location_t *loc = current(r);
    (q.call >= 0 ? &loc->calls[q.call] : c)->bytes_recv += length;
    c = open_call(r);
    c->p2p_done++;
    return add_message(r, 0, comm, sender, tag, q.posted, r->open_call) ? OTF2_CALLBACK_INTERRUPT
                                                                          : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                       void *data, OTF2_AttributeList *attributes)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    if (r->open_call < 0)
        return OTF2_CALLBACK_SUCCESS;
    if (r->ncoll_open == r->coll_open_cap) {
        size_t cap = r->coll_open_cap ? 2 * r->coll_open_cap : 16;
        int64_t *grown = realloc(r->coll_open, cap * sizeof *grown);
        if (!grown) {
            fail(r, "out of memory for the collective operations");
            return OTF2_CALLBACK_INTERRUPT;
        }
        r->coll_open = grown;
        r->coll_open_cap = cap;
    }
    r->coll_open[r->ncoll_open++] = r->open_call;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                     OTF2_AttributeList *attributes, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t received)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes, (void)op, (void)root;
    SEEN(r, time, 1);
    rp_trace_t *t = r->t;
    if (r->open_call < 0)
        return OTF2_CALLBACK_SUCCESS;
    int64_t begin = r->ncoll_open ? r->coll_open[--r->ncoll_open] : r->open_call;
    rp_location_t *loc = current(r);
    loc->calls[begin].bytes_sent += sent;
    loc->calls[begin].bytes_recv += received;
    if (begin != r->open_call)
        loc->calls[r->open_call].coll_done++;
    if (comm >= t->ncomms || !t->comms[comm].size) {
        fail(r, "location %llu has a collective operation on communicator %u, which is not defined",
             (unsigned long long)loc->ref, comm);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (t->ncollectives == t->collectives_cap) {
        size_t cap = t->collectives_cap ? 2 * t->collectives_cap : 1024;
        rp_collective_t *grown = realloc(t->collectives, cap * sizeof *grown);
        if (!grown) {
            fail(r, "out of memory for the collective operations");
            return OTF2_CALLBACK_INTERRUPT;
        }
        t->collectives = grown;
        t->collectives_cap = cap;
    }
    t->collectives[t->ncollectives++] =
        (rp_collective_t){comm, (uint32_t)r->current, (uint32_t)begin, (uint32_t)r->open_call};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock_offset(void *data, OTF2_TimeStamp time, int64_t offset, double deviation)
{
    reader_t *r = data;
    (void)deviation;
    rp_location_t *loc = current(r);
    int64_t *at = realloc(loc->offset_time, (size_t)(loc->noffsets + 1) * sizeof *at);
    if (at)
        loc->offset_time = at;
    int64_t *off = at ? realloc(loc->offset, (size_t)(loc->noffsets + 1) * sizeof *off) : NULL;
    if (!off) {
        fail(r, "out of memory for the clock offsets");
        return OTF2_CALLBACK_INTERRUPT;
    }
    loc->offset = off;
    int k = loc->noffsets++;
    while (k > 0 && loc->offset_time[k - 1] > (int64_t)time) { /* sorted by time */
        loc->offset_time[k] = loc->offset_time[k - 1];
        loc->offset[k] = loc->offset[k - 1];
        k--;
    }
    loc->offset_time[k] = (int64_t)time;
    loc->offset[k] = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb)
        return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    return cb;
}

/* The events of one location, its clock offsets first. */
static int read_location(reader_t *r, OTF2_Reader *reader, int l, int have_defs)
{
    rp_location_t *loc = &r->t->locations[l];
    r->current = l;
    r->depth = 0;
    r->nopen = 0;
    r->open_call = -1;
    r->ncoll_open = 0;
    if (have_defs) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(reader, loc->ref);
        if (dr) {
            OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
            OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, def_clock_offset);
            OTF2_Reader_RegisterDefCallbacks(reader, dr, cb, r);
            OTF2_DefReaderCallbacks_Delete(cb);
            uint64_t n = 0;
            OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n);
            OTF2_Reader_CloseDefReader(reader, dr);
            if (rc != OTF2_SUCCESS && !r->failed)
                fail(r, "the definitions of location %llu are unreadable (%s)", (unsigned long long)loc->ref,
                     OTF2_Error_GetDescription(rc));
            if (r->failed)
                return -1;
        }
    }
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(reader, loc->ref);
    OTF2_EvtReaderCallbacks *cb = event_callbacks();
    if (!er || !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        fail(r, "the events of location %llu cannot be opened", (unsigned long long)loc->ref);
        return -1;
    }
    OTF2_Reader_RegisterEvtCallbacks(reader, er, cb, r);
    OTF2_EvtReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalEvents(reader, er, &n);
    OTF2_Reader_CloseEvtReader(reader, er);
    if (rc != OTF2_SUCCESS && !r->failed)
        fail(r, "the events of location %llu are unreadable after %llu events (%s)", (unsigned long long)loc->ref,
             (unsigned long long)n, OTF2_Error_GetDescription(rc));
    if (r->failed)
        return -1;
    uint64_t defined = r->locations[l].events;
    if (defined && n != defined) {
        fail(r, "the events of location %llu are %llu, where its definition counts %llu (a corrupt or cut event "
             "file)", (unsigned long long)loc->ref, (unsigned long long)n, (unsigned long long)defined);
        return -1;
    }
    if (r->nopen > 0 && !r->t->incomplete) { /* ended inside a region: the run died, or the file was cut */
        r->t->incomplete = 1;
        snprintf(r->t->incomplete_why, sizeof r->t->incomplete_why, "the events of location %llu end inside %s",
                 (unsigned long long)loc->ref, r->depth > 0 ? "an MPI call" : "a region it did not leave");
    }
    mpp_handlemap_free(&r->requests);
    mpp_handlemap_init(&r->requests, sizeof(irecv_t));
    return 0;
}

static void reader_free(reader_t *r)
{
    for (uint32_t s = 0; s < r->nstrings; s++)
        free(r->strings[s]);
    for (uint32_t g = 0; g < r->ngroups; g++)
        free(r->groups[g].members);
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

int rp_trace_read(rp_trace_t *t, const char *path, char *why, size_t size)
{
    otf2_first_error[0] = '\0';
    OTF2_Error_RegisterCallback(keep_error, NULL);
    memset(t, 0, sizeof *t);
    t->path = path;
    reader_t r = {.t = t, .src_attribute = OTF2_UNDEFINED_ATTRIBUTE, .open_call = -1};
    mpp_handlemap_init(&r.requests, sizeof(irecv_t));
    mpp_strmap_init(&r.sites);
    t->sites = malloc(sizeof *t->sites);
    if (t->sites && (t->sites[0] = strdup("")))
        t->nsites = 1;
    FILE *probe = fopen(path, "r");
    if (!probe) {
        snprintf(why, size, "%s: cannot be read (%m)", path);
        reader_free(&r);
        rp_trace_free(t);
        return -1;
    }
    fclose(probe);
    OTF2_Reader *reader = OTF2_Reader_Open(path);
    if (!reader || OTF2_Reader_SetSerialCollectiveCallbacks(reader) != OTF2_SUCCESS) {
        snprintf(why, size, "%s: not an OTF2 archive's anchor file (libotf2: %s)", path,
                 otf2_first_error[0] ? otf2_first_error : "it cannot open it");
        if (reader)
            OTF2_Reader_Close(reader);
        reader_free(&r);
        rp_trace_free(t);
        return -1;
    }
    int rc = read_global_definitions(&r, reader);
    if (rc == 0)
        rc = build_processes(&r);
    if (rc == 0) {
        for (int l = 0; l < t->nlocations; l++)
            if (t->locations[l].process >= 0)
                OTF2_Reader_SelectLocation(reader, t->locations[l].ref);
        int have_defs = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
        if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS) {
            fail(&r, "its event files cannot be opened");
            rc = -1;
        }
        for (int l = 0; rc == 0 && l < t->nlocations; l++)
            if (t->locations[l].process >= 0)
                rc = read_location(&r, reader, l, have_defs);
        if (have_defs)
            OTF2_Reader_CloseDefFiles(reader);
        OTF2_Reader_CloseEvtFiles(reader);
    }
    if (rc == 0 && !t->mpi_events)
        fail(&r, "it has no MPI events (no region of the MPI paradigm was entered)"), rc = -1;
    OTF2_Reader_Close(reader);
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
        free(t->locations[l].offset_time);
        free(t->locations[l].offset);
    }
    for (int p = 0; t->processes && p < t->nprocesses; p++) {
        free(t->processes[p].host);
        free(t->processes[p].locations);
    }
    for (uint32_t c = 0; t->comms && c < t->ncomms; c++)
        free(t->comms[c].world);
    for (uint32_t s = 0; t->sites && s < t->nsites; s++)
        free(t->sites[s]);
    free(t->locations), free(t->processes), free(t->comms), free(t->sites);
    free(t->sends), free(t->recvs), free(t->collectives);
    memset(t, 0, sizeof *t);
}
