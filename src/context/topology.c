/* Machine and placement from hwloc (topology.h). */
#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context/topology.h"
#include "records/machine.h"
#include "util/warnings.h"

static char *binding; /* id list, NULL: unknown */

/* The calling thread's affinity, which hwloc-bind --get reports for a
 * single-threaded process: read with sched_getaffinity, no topology needed
 * (loading one per process is what this module avoids). */
void mpp_topology_start(void)
{
    free(binding);
    binding = NULL;
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    int ncpus = conf > 0 ? (int)conf : 64;
    for (int attempt = 0; attempt < 8; attempt++, ncpus *= 2) {
        cpu_set_t *set = CPU_ALLOC(ncpus);
        size_t size = CPU_ALLOC_SIZE(ncpus);
        if (!set)
            return;
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) != 0) {
            int err = errno;
            CPU_FREE(set);
            if (err == EINVAL)
                continue; /* more CPUs than sysconf said: a larger set */
            mpp_warn("the CPU binding of this process could not be read (sched_getaffinity: %s); "
                     "Placement shows it as unknown",
                     strerror(err));
            return;
        }
        int *ids = malloc((size_t)ncpus * sizeof *ids), n = 0;
        for (int c = 0; ids && c < ncpus; c++)
            if (CPU_ISSET_S(c, size, set))
                ids[n++] = c;
        binding = ids ? mpp_idlist_format(ids, n) : NULL;
        free(ids);
        CPU_FREE(set);
        return;
    }
}

const char *mpp_topology_binding(void) { return binding; }

static char *bitmap_list(hwloc_const_bitmap_t set)
{
    int w = hwloc_bitmap_weight(set);
    if (w < 0)
        return NULL; /* infinite */
    int *ids = malloc(((size_t)w + 1) * sizeof *ids), n = 0;
    if (!ids)
        return NULL;
    unsigned i;
    hwloc_bitmap_foreach_begin(i, set) { ids[n++] = (int)i; }
    hwloc_bitmap_foreach_end();
    char *text = mpp_idlist_format(ids, n);
    free(ids);
    return text;
}

/* CPU model of the packages ("AMD EPYC 7B13"; distinct ones joined by " + "). */
static char *cpu_model(hwloc_topology_t topo)
{
    char out[512] = "";
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, (unsigned)i);
        const char *m = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
        if (m && *m && !strstr(out, m))
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", *out ? " + " : "", m);
    }
    if (!*out) {
        const char *m = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "CPUModel");
        snprintf(out, sizeof out, "%s", m ? m : "");
    }
    /* the key is US-separated, the text protocol line-based */
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    return strdup(out);
}

static void cache(hwloc_topology_t topo, hwloc_obj_type_t type, int want_data, uint64_t *size, int *count)
{
    int n = hwloc_get_nbobjs_by_type(topo, type), c = 0;
    *size = 0;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        if (!o || !o->attr)
            continue;
        if (want_data && o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
            continue;
        if (!*size)
            *size = o->attr->cache.size;
        c++;
    }
    *count = c;
}

/* ';'-separated PU lists of the cores, in logical order (PUs without a core
 * count as cores of their own). */
static char *core_map(hwloc_topology_t topo)
{
    hwloc_obj_type_t type = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int n = hwloc_get_nbobjs_by_type(topo, type);
    size_t cap = 64, len = 0;
    char *map = malloc(cap);
    if (!map)
        return NULL;
    map[0] = '\0';
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        char *pus = o ? bitmap_list(o->cpuset) : NULL;
        if (!pus) {
            free(map);
            return NULL;
        }
        size_t need = len + strlen(pus) + 2;
        if (need > cap) {
            cap = need * 2;
            char *g = realloc(map, cap);
            if (!g) {
                free(pus), free(map);
                return NULL;
            }
            map = g;
        }
        len += (size_t)sprintf(map + len, "%s%s", i ? ";" : "", pus);
        free(pus);
    }
    return map;
}

int mpp_topology_describe(char **type_key, char **allowed, char **error)
{
    hwloc_topology_t topo;
    *type_key = *allowed = *error = NULL;
    if (hwloc_topology_init(&topo) != 0) {
        if (asprintf(error, "hwloc_topology_init failed: %s", strerror(errno)) < 0)
            *error = NULL;
        return -1;
    }
    /* instruction caches are filtered out by default; lstopo shows them */
    hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(topo) != 0) {
        if (asprintf(error, "hwloc_topology_load failed: %s", strerror(errno)) < 0)
            *error = NULL;
        hwloc_topology_destroy(topo);
        return -1;
    }
    mpp_node_type_t t;
    memset(&t, 0, sizeof t);
    t.model = cpu_model(topo);
    t.packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    t.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    t.numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    t.memory = hwloc_get_root_obj(topo)->total_memory;
    cache(topo, HWLOC_OBJ_L1CACHE, 1, &t.cache_size[MPP_CACHE_L1D], &t.cache_count[MPP_CACHE_L1D]);
    cache(topo, HWLOC_OBJ_L1ICACHE, 0, &t.cache_size[MPP_CACHE_L1I], &t.cache_count[MPP_CACHE_L1I]);
    cache(topo, HWLOC_OBJ_L2CACHE, 1, &t.cache_size[MPP_CACHE_L2], &t.cache_count[MPP_CACHE_L2]);
    cache(topo, HWLOC_OBJ_L3CACHE, 1, &t.cache_size[MPP_CACHE_L3], &t.cache_count[MPP_CACHE_L3]);
    t.core_map = core_map(topo);
    *allowed = bitmap_list(hwloc_topology_get_allowed_cpuset(topo));
    *type_key = t.model && t.core_map ? mpp_node_type_key(&t) : NULL;
    mpp_node_type_free(&t);
    hwloc_topology_destroy(topo);
    if (!*type_key || !*allowed) {
        free(*type_key), free(*allowed);
        *type_key = *allowed = NULL;
        *error = strdup("out of memory while describing the topology");
        return -1;
    }
    return 0;
}
