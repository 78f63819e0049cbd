#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "intercept/check/sites.h"

typedef struct {
    uintptr_t lo, hi, base;
    uint32_t id;
} module_t;

/* The loaded modules, sorted by address; a new table replaces the old one
 * when a module was loaded since (lookups read a table that never changes:
 * no lock), the old ones kept until the end. */
typedef struct modules {
    struct modules *older;
    unsigned long long adds; /* dl_iterate_phdr's count of loads when made */
    size_t n;
    module_t m[];
} modules_t;

static _Atomic(modules_t *) current;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t name_id(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)base; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h ? h : 1;
}

struct collect {
    modules_t *out;
    size_t cap;
    char exe[4096];
};

static int collect_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct collect *c = arg;
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
        c->out->adds = info->dlpi_adds;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    const char *name = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : c->exe;
    if (lo >= hi || !name[0] || c->out->n == c->cap)
        return 0;
    c->out->m[c->out->n++] = (module_t){lo, hi, info->dlpi_addr, name_id(name)};
    return 0;
}

static int by_address(const void *a, const void *b)
{
    const module_t *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static modules_t *build(void)
{
    enum { CAP = 1024 };
    struct collect c = {calloc(1, sizeof(modules_t) + CAP * sizeof(module_t)), CAP, ""};
    if (!c.out)
        return NULL;
    ssize_t len = readlink("/proc/self/exe", c.exe, sizeof c.exe - 1);
    c.exe[len > 0 ? len : 0] = '\0';
    dl_iterate_phdr(collect_one, &c);
    qsort(c.out->m, c.out->n, sizeof *c.out->m, by_address);
    return c.out;
}

static unsigned long long loads_now(void);

/* The table, made anew when a module was loaded since the last one. */
static modules_t *modules(int refresh)
{
    modules_t *t = atomic_load_explicit(&current, memory_order_acquire);
    if (t && !(refresh && loads_now() != t->adds))
        return t;
    pthread_mutex_lock(&build_lock);
    t = atomic_load_explicit(&current, memory_order_acquire);
    if (!t || (refresh && loads_now() != t->adds)) {
        modules_t *fresh = build();
        if (fresh) {
            fresh->older = t;
            atomic_store_explicit(&current, fresh, memory_order_release);
            t = fresh;
        }
    }
    pthread_mutex_unlock(&build_lock);
    return t;
}

static int count_adds(struct dl_phdr_info *info, size_t size, void *arg)
{
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
        *(unsigned long long *)arg = info->dlpi_adds;
    return 1; /* the first module says it */
}

static unsigned long long loads_now(void)
{
    unsigned long long adds = 0;
    dl_iterate_phdr(count_adds, &adds);
    return adds;
}

static const module_t *find(const modules_t *t, uintptr_t address)
{
    size_t lo = 0, hi = t ? t->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (address < t->m[mid].lo)
            hi = mid;
        else if (address >= t->m[mid].hi)
            lo = mid + 1;
        else
            return &t->m[mid];
    }
    return NULL;
}

/* The thread's last site: a loop sends from one call site. */
static __thread uintptr_t last_address __attribute__((tls_model("initial-exec")));
static __thread mpp_chk_site_t last_site __attribute__((tls_model("initial-exec")));

mpp_chk_site_t mpp_chk_site_of(uintptr_t address)
{
    if (!address)
        return (mpp_chk_site_t){0, 0};
    if (address == last_address)
        return last_site;
    const module_t *m = find(modules(0), address);
    if (!m)
        m = find(modules(1), address);
    mpp_chk_site_t site = m ? (mpp_chk_site_t){m->id, address - m->base} : (mpp_chk_site_t){0, 0};
    if (m) { /* (a module unloaded and another loaded at its address is not told apart) */
        last_address = address;
        last_site = site;
    }
    return site;
}

uintptr_t mpp_chk_site_address(mpp_chk_site_t site)
{
    if (!site.module)
        return 0;
    for (int refresh = 0; refresh < 2; refresh++) {
        const modules_t *t = modules(refresh);
        for (size_t i = 0; t && i < t->n; i++)
            if (t->m[i].id == site.module)
                return t->m[i].base + (uintptr_t)site.offset;
    }
    return 0;
}

void mpp_chk_sites_end(void)
{
    pthread_mutex_lock(&build_lock);
    modules_t *t = atomic_exchange(&current, NULL);
    while (t) {
        modules_t *older = t->older;
        free(t);
        t = older;
    }
    pthread_mutex_unlock(&build_lock);
}
