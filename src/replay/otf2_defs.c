/* The global definitions of an OTF2 archive (otf2_reader.h): strings,
 * regions, locations and their groups, the system tree, groups and
 * communicators, mpiprof's attribute; then the processes (ranks from the
 * group of MPI locations), their communicators' members as world ranks,
 * and mpiprof's user regions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding_list.h"
#include "replay/otf2_reader.h"

void rp_fail(reader_t *r, const char *fmt, ...)
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
        rp_fail(r, "a definition reference %llu is out of range", (unsigned long long)ref);
        return NULL;
    }
    if (ref >= *count) {
        uint32_t n = (uint32_t)ref + 1 > 2 * *count ? (uint32_t)ref + 1 : 2 * *count;
        void *grown = realloc(*array, (size_t)n * size);
        if (!grown) {
            rp_fail(r, "out of memory reading the definitions");
            return NULL;
        }
        memset((char *)grown + (size_t)*count * size, 0, (size_t)(n - *count) * size);
        *array = grown;
        *count = n;
    }
    return (char *)*array + (size_t)ref * size;
}

const char *rp_string(const reader_t *r, uint64_t ref)
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
    (void)canonical, (void)flags, (void)end;
    region_def_t *d = slot(r, (void **)&r->regions, &r->nregions, self, sizeof *r->regions);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    *d = (region_def_t){name, file, description, begin, paradigm, role};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *data, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t events, OTF2_LocationGroupRef group)
{
    reader_t *r = data;
    if (r->nlocations == r->locations_cap) {
        uint32_t cap = r->locations_cap ? 2 * r->locations_cap : 64;
        location_def_t *grown = realloc(r->locations, cap * sizeof *grown);
        if (grown)
            r->locations = grown;
        uint64_t *refs = grown ? realloc(r->location_refs, cap * sizeof *refs) : NULL;
        if (!refs) {
            rp_fail(r, "out of memory reading the definitions");
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
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    reader_t *r = data;
    (void)name, (void)flags;
    member_group_t *d = slot(r, (void **)&r->groups, &r->ngroups, self, sizeof *r->groups);
    if (!d)
        return OTF2_CALLBACK_INTERRUPT;
    free(d->members);
    *d = (member_group_t){type, paradigm, n, malloc((n ? n : 1) * sizeof *members)};
    if (!d->members) {
        rp_fail(r, "out of memory reading the definitions");
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (n)
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
    const char *s = rp_string(r, name);
    if (type == OTF2_TYPE_STRING && !strcmp(s, SRC_ATTRIBUTE))
        r->src_attribute = self;
    else if (type == OTF2_TYPE_UINT64 && !strcmp(s, BYTES_SENT_ATTRIBUTE))
        r->bytes_attribute[0] = self;
    else if (type == OTF2_TYPE_UINT64 && !strcmp(s, BYTES_RECV_ATTRIBUTE))
        r->bytes_attribute[1] = self;
    else if (type == OTF2_TYPE_UINT8 && !strcmp(s, PROBE_FOUND_ATTRIBUTE))
        r->probe_attribute[0] = self;
    else if (type == OTF2_TYPE_UINT8 && !strcmp(s, PROBED_ATTRIBUTE))
        r->probe_attribute[1] = self;
    else if (type == OTF2_TYPE_UINT32 && !strcmp(s, IO_DONE_ATTRIBUTE))
        r->io_attribute = self;
    static const char *const checks[NCHECK_ATTRIBUTES] = CHECK_ATTRIBUTES;
    static const OTF2_Type types[NCHECK_ATTRIBUTES] = {OTF2_TYPE_INT64, OTF2_TYPE_UINT64, OTF2_TYPE_UINT64,
                                                       OTF2_TYPE_INT32, OTF2_TYPE_UINT8};
    for (int k = 0; k < NCHECK_ATTRIBUTES; k++)
        if (type == types[k] && !strcmp(s, checks[k]))
            r->check_attribute[k] = self;
    static const char *const channel[3] = {"mpiprof::recv_comm", "mpiprof::recv_source", "mpiprof::recv_tag"};
    for (int k = 0; k < 3; k++)
        if (type == (k ? OTF2_TYPE_INT32 : OTF2_TYPE_COMM) && !strcmp(s, channel[k]))
            r->recv_attribute[k] = self;
    size_t cc = strlen(CC_ATTRIBUTE);
    int row = -1, end = 0;
    if (type == OTF2_TYPE_INT64 && !strncmp(s, CC_ATTRIBUTE, cc) && sscanf(s + cc, "%d%n", &row, &end) == 1 &&
        !s[cc + (size_t)end] && row >= 0 && row < 2 * MPP_CC_NVALUES)
        r->cc_attribute[row] = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* mpiprof::findings and mpiprof::findings:N: line 0 and N of a process's
 * findings (mpiprof-trace(5)), appended to its location group's text. */
static OTF2_CallbackCode def_group_property(void *data, OTF2_LocationGroupRef group, OTF2_StringRef name,
                                            OTF2_Type type, OTF2_AttributeValue value)
{
    reader_t *r = data;
    const char *key = rp_string(r, name);
    size_t k = sizeof FINDINGS_PROPERTY - 1, number = 0;
    if (type == OTF2_TYPE_STRING && !strcmp(key, THREADS_PROPERTY)) {
        findings_text_t *t = slot(r, (void **)&r->threads, &r->nthreads, group, sizeof *r->threads);
        if (t)
            free(t->text), t->text = strdup(rp_string(r, value.stringRef));
        return OTF2_CALLBACK_SUCCESS;
    }
    if (type != OTF2_TYPE_STRING || strncmp(key, FINDINGS_PROPERTY, k) != 0 ||
        (key[k] && (key[k] != ':' || sscanf(key + k + 1, "%zu", &number) != 1 || !number)))
        return OTF2_CALLBACK_SUCCESS;
    findings_text_t *f = slot(r, (void **)&r->findings, &r->nfindings, group, sizeof *r->findings);
    if (f && number != f->lines++) /* out of order: the text is damaged (refused when loaded) */
        f->damaged = 1;
    const char *line = rp_string(r, value.stringRef);
    size_t n = strlen(line);
    char *grown = f ? realloc(f->text, f->len + n + 2) : NULL;
    if (!grown) {
        rp_fail(r, "out of memory reading the definitions");
        return OTF2_CALLBACK_INTERRUPT;
    }
    memcpy(grown + f->len, line, n);
    grown[f->len + n] = '\n';
    grown[f->len + n + 1] = '\0';
    f->text = grown;
    f->len += n + 1;
    return OTF2_CALLBACK_SUCCESS;
}

int rp_read_global_definitions(reader_t *r, OTF2_Reader *reader)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        rp_fail(r, "its global definitions cannot be opened");
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
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupPropertyCallback(cb, def_group_property);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, cb, r);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n);
    if (rc != OTF2_SUCCESS && !r->failed)
        rp_fail(r, "its global definitions are unreadable (%s)", OTF2_Error_GetDescription(rc));
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

/* Each rank's process, from its location in the group of MPI locations
 * (the k-th member is rank k): its host, its own location first; the rank
 * of each location group in rank_of_group.  -1 when one is not defined. */
static int ranks_from_world(reader_t *r, const member_group_t *world, int *rank_of_group)
{
    rp_trace_t *t = r->t;
    for (uint32_t k = 0; k < world->n; k++) {
        int l = location_index(r, world->members[k]);
        if (l < 0 || r->locations[l].group >= r->nlgroups) {
            rp_fail(r, "rank %u's location %llu is not defined", k, (unsigned long long)world->members[k]);
            return -1;
        }
        rank_of_group[r->locations[l].group] = (int)k;
        rp_process_t *p = &t->processes[k];
        p->rank = (int)k;
        const group_def_t *lg = &r->lgroups[r->locations[l].group];
        p->host = strdup(lg->parent < r->nnodes ? rp_string(r, r->nodes[lg->parent].name) : "?");
        p->locations = malloc(sizeof *p->locations);
        if (!p->host || !p->locations) {
            rp_fail(r, "out of memory for %u processes", world->n);
            return -1;
        }
        p->locations[p->nlocations++] = l; /* the rank's own location first */
        findings_text_t *f = AT(r->findings, r->nfindings, r->locations[l].group);
        if (f && f->text && f->damaged) /* lines lost or out of order */
            f->text[0] = '?';
        if (f) /* its findings, taken */
            p->findings = f->text, f->text = NULL;
        findings_text_t *th = AT(r->threads, r->nthreads, r->locations[l].group);
        if (th) /* its threads, taken */
            p->threads = th->text, th->text = NULL;
    }
    return 0;
}

/* The run's checks from the processes' findings: their level and bound,
 * those that have findings, those unreadable (each read once here: the
 * replay reads a share's again). */
static void check_findings(rp_trace_t *t)
{
    for (int p = 0; p < t->nprocesses; p++) {
        if (!t->processes[p].findings)
            continue;
        mpp_finding_list_t l = {.level = -1};
        size_t max = 0;
        t->findings_from++;
        t->findings_bad += mpp_finding_list_from_text(&l, &max, t->processes[p].findings) != 0;
        if (l.level > t->check_level)
            t->check_level = l.level;
        if (max > t->findings_max)
            t->findings_max = max;
        mpp_finding_list_free(&l);
    }
}

/* Every location to its process (by its location group), the other
 * threads' after the rank's own; those of no MPI process to none. */
static int locations_to_processes(reader_t *r, const int *rank_of_group)
{
    rp_trace_t *t = r->t;
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
            rp_fail(r, "out of memory for the threads of rank %d", p->rank);
            return -1;
        }
        p->locations = grown;
        p->locations[p->nlocations++] = (int)l;
    }
    return 0;
}

/* Communicators: world ranks of their members (COMM_SELF: -1, the caller;
 * -2 a member not of the world). */
static int build_comms(reader_t *r, const member_group_t *world)
{
    rp_trace_t *t = r->t;
    t->ncomms = r->ncomm_groups;
    t->comms = calloc(r->ncomm_groups ? r->ncomm_groups : 1, sizeof *t->comms);
    if (!t->comms) {
        rp_fail(r, "out of memory for the communicators");
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
            rp_fail(r, "out of memory for the communicators");
            return -1;
        }
        comm->size = g->n;
        for (uint32_t k = 0; k < g->n; k++)
            comm->world[k] = g->members[k] < world->n ? (int32_t)g->members[k] : -2;
    }
    return 0;
}

int rp_build_processes(reader_t *r)
{
    rp_trace_t *t = r->t;
    const member_group_t *world = mpi_locations(r);
    if (!world || !world->n) {
        rp_fail(r, "it has no MPI processes (no group of MPI locations: not the trace of an MPI program)");
        return -1;
    }
    if (!t->resolution) {
        rp_fail(r, "it has no clock properties (timer resolution)");
        return -1;
    }
    t->nprocesses = (int)world->n;
    t->processes = calloc(world->n, sizeof *t->processes);
    t->nlocations = (int)r->nlocations;
    t->locations = calloc(r->nlocations ? r->nlocations : 1, sizeof *t->locations);
    int *rank_of_group = malloc((r->nlgroups ? r->nlgroups : 1) * sizeof *rank_of_group);
    if (!t->processes || !t->locations || !rank_of_group) {
        free(rank_of_group);
        rp_fail(r, "out of memory for %u processes", world->n);
        return -1;
    }
    for (uint32_t g = 0; g < r->nlgroups; g++)
        rank_of_group[g] = -1;
    int rc = ranks_from_world(r, world, rank_of_group);
    if (rc == 0)
        rc = locations_to_processes(r, rank_of_group);
    if (rc == 0)
        check_findings(t);
    free(rank_of_group);
    return rc == 0 ? build_comms(r, world) : -1;
}

/* mpiprof's user regions (mpiprof-trace(5)): an interval's region is of
 * the user paradigm, described "mpiprof interval", named after it, with
 * the position of its begin mark; replicated code's is described "mpiprof
 * replicated code ...". */
int rp_build_regions(reader_t *r)
{
    rp_trace_t *t = r->t;
    t->nregions = r->nregions;
    t->regions = calloc(r->nregions ? r->nregions : 1, sizeof *t->regions);
    if (!t->regions) {
        rp_fail(r, "out of memory for the regions");
        return -1;
    }
    for (uint32_t g = 0; g < r->nregions; g++) {
        const region_def_t *d = &r->regions[g];
        const char *what = rp_string(r, d->description);
        int kind = d->paradigm != OTF2_PARADIGM_USER               ? RP_REGION_OTHER
                   : !strcmp(what, "mpiprof interval")             ? RP_REGION_INTERVAL
                   : !strncmp(what, "mpiprof replicated code", 23) ? RP_REGION_SEQ
                                                                   : RP_REGION_OTHER;
        if (kind == RP_REGION_OTHER)
            continue;
        rp_region_t *u = &t->regions[g];
        u->kind = kind;
        u->name = strdup(rp_string(r, d->name));
        u->file = strdup(rp_string(r, d->file));
        u->line = (int)d->line;
        if (!u->name || !u->file) {
            rp_fail(r, "out of memory for the regions");
            return -1;
        }
    }
    return 0;
}
