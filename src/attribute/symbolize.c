/* A return address points after the call instruction; its source line is
 * that of address - 1.  At a source line, each function inlined there is a
 * frame of its own (inlines.h).  Without one, a frame is named after the
 * symbol table's function (.symtab, else .dynsym) and the offset of the
 * address in it; without that either, module+0xOFFSET, the offset from the
 * module's load address.  Both are the same on every process whatever
 * address-space randomization did.  C++ names are demangled, and so are
 * gfortran's module procedures. */
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attribute/inlines.h"
#include "attribute/symbolize.h"
#include "util/handlemap.h"
#include "util/srckey.h"
#include "util/textbuf.h"

/* Function symbols of one module sorted by address: dwfl_module_addrname
 * scans the whole symbol table for every address, which made resolving a
 * thousand call sites the largest part of MPI_Finalize. */
typedef struct {
    uintptr_t start, end;
    const char *name; /* owned by libdw */
} function_t;

typedef struct {
    Dwfl_Module *module;
    function_t *functions;
    size_t count;
} module_functions_t;

#define MAX_MODULES 64
#define MAX_INLINED 32 /* inlined levels expanded at one return address */

/* The C++ runtime's demangler (the Itanium ABI's __cxa_demangle). */
typedef char *(*demangler_t)(const char *mangled, char *buffer, size_t *length, int *status);

struct mpp_symbolizer {
    Dwfl *dwfl;
    mpp_handlemap_t cache; /* address -> char * record */
    module_functions_t modules[MAX_MODULES];
    int nmodules;
    mpp_inlines_t *inlines;
    demangler_t demangle; /* NULL: no C++ runtime loaded */
    int demangle_looked_up;
};

static int by_start(const void *a, const void *b)
{
    const function_t *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static module_functions_t *functions_of(mpp_symbolizer_t *s, Dwfl_Module *module)
{
    for (int i = 0; i < s->nmodules; i++)
        if (s->modules[i].module == module)
            return &s->modules[i];
    if (s->nmodules == MAX_MODULES)
        return NULL;
    module_functions_t *m = &s->modules[s->nmodules++];
    m->module = module;
    int n = dwfl_module_getsymtab(module);
    m->functions = n > 0 ? calloc((size_t)n, sizeof *m->functions) : NULL;
    for (int i = 1; m->functions && i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(module, i, &sym, &addr, NULL, NULL, NULL);
        if (name && *name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size > 0)
            m->functions[m->count++] = (function_t){addr, addr + sym.st_size, name};
    }
    qsort(m->functions, m->count, sizeof *m->functions, by_start);
    return m;
}

/* The function containing pc and its entry address (*entry 0: not known);
 * libdw's own lookup when the table has none. */
static const char *function_name(mpp_symbolizer_t *s, Dwfl_Module *module, uintptr_t pc, uintptr_t *entry)
{
    module_functions_t *m = functions_of(s, module);
    *entry = 0;
    if (m && m->count) {
        size_t lo = 0, hi = m->count;
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (m->functions[mid].start <= pc)
                lo = mid;
            else
                hi = mid;
        }
        if (m->functions[lo].start <= pc && pc < m->functions[lo].end) {
            *entry = m->functions[lo].start;
            return m->functions[lo].name;
        }
    }
    GElf_Off offset = 0;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(module, pc, &offset, &sym, NULL, NULL, NULL);
    if (name)
        *entry = pc - offset;
    return name;
}

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

mpp_symbolizer_t *mpp_symbolizer_open(void)
{
    mpp_symbolizer_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    mpp_handlemap_init(&s->cache, sizeof(char *));
    s->inlines = mpp_inlines_open(); /* without it, frames are not expanded */
    s->dwfl = dwfl_begin(&callbacks);
    if (s->dwfl) {
        dwfl_report_begin(s->dwfl);
        if (dwfl_linux_proc_report(s->dwfl, getpid()) != 0 || dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
            dwfl_end(s->dwfl);
            s->dwfl = NULL;
        }
    }
    return s;
}

static void free_record(uint64_t address, void *record, void *arg)
{
    (void)address, (void)arg;
    free(*(char **)record);
}

void mpp_symbolizer_close(mpp_symbolizer_t *s)
{
    if (!s)
        return;
    mpp_handlemap_each(&s->cache, free_record, NULL);
    mpp_handlemap_free(&s->cache);
    for (int i = 0; i < s->nmodules; i++)
        free(s->modules[i].functions);
    mpp_inlines_close(s->inlines);
    if (s->dwfl)
        dwfl_end(s->dwfl);
    free(s);
}

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A gfortran module procedure ("__heat_MOD_exchange", gfortran lowercases
 * the rest of a name, so "_MOD_" is its separator) as debuggers write it
 * ("heat::exchange"), allocated; NULL: not one. */
static char *fortran_module_procedure(const char *name)
{
    const char *sep = strstr(name + 2, "_MOD_");
    char *readable = NULL;
    if (!sep || sep == name + 2 || !sep[5])
        return NULL;
    if (asprintf(&readable, "%.*s::%s", (int)(sep - (name + 2)), name + 2, sep + 5) < 0)
        return NULL;
    return readable;
}

/* A mangled C++ name as the program's source writes it ("_Z9CommMonoQR6Domain"
 * -> "CommMonoQ(Domain&)"), allocated; NULL: keep the name as it is.  Only
 * "_Z" names: the demangler also reads plain names as types ("f" -> "float").
 * Every process of a program loads the same runtime, so SRC keys stay equal
 * across processes. */
static char *demangled(mpp_symbolizer_t *s, const char *name)
{
    if (name && strncmp(name, "__", 2) == 0)
        return fortran_module_procedure(name);
    if (!name || strncmp(name, "_Z", 2) != 0)
        return NULL;
    if (!s->demangle_looked_up) {
        /* From the C++ runtime the program already loads, at its first
         * mangled name: a C program has none, and never looks. */
        s->demangle = (demangler_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        s->demangle_looked_up = 1;
    }
    if (!s->demangle)
        return NULL;
    int status = -1;
    char *readable = s->demangle(name, NULL, NULL, &status);
    if (status != 0) {
        free(readable);
        return NULL;
    }
    return readable;
}

/* One frame of a record (srckey.h), RS before all but the first. */
static void put_frame(mpp_textbuf_t *b, const char *path, int line, const char *function, const char *origin)
{
    mpp_textbuf_printf(b, "%s%s%c%d%c%s%c", b->len ? "\x1e" : "", path, MPP_US, line, MPP_US, function, MPP_US);
    if (line > 0)
        mpp_textbuf_printf(b, "%s:%d (%s)", basename_of(path), line, *function ? function : "?");
    mpp_textbuf_printf(b, "%c%s", MPP_US, origin);
}

/* The frames of a return address at a source line: the functions inlined
 * there (innermost first, each at its own line, named by DWARF), then the
 * function the code is in (named by the symbol table, as without inlining),
 * at the line where the outermost inlined call is. */
static void put_line_frames(mpp_symbolizer_t *s, mpp_textbuf_t *b, Dwfl_Module *module, uintptr_t pc,
                            const char *path, int line, const char *function)
{
    mpp_inline_level_t levels[MAX_INLINED];
    int n = mpp_inline_levels(s->inlines, module, pc, levels, MAX_INLINED);
    for (int i = 0; i < n; i++) {
        char *readable = demangled(s, levels[i].name);
        put_frame(b, path, line, readable ? readable : levels[i].name, MPP_ORIGIN_INLINED);
        free(readable);
        path = levels[i].call_file;
        line = levels[i].call_line;
    }
    put_frame(b, path, line, function ? function : "", MPP_ORIGIN_LINE);
}

static char *resolve(mpp_symbolizer_t *s, uintptr_t address)
{
    mpp_textbuf_t b = {0};
    uintptr_t pc = address - 1;
    Dwfl_Module *module = s->dwfl ? dwfl_addrmodule(s->dwfl, pc) : NULL;
    if (!module) {
        mpp_textbuf_printf(&b, "??%c0%c%c??+0x%" PRIxPTR "%c%s", MPP_US, MPP_US, MPP_US, address, MPP_US,
                           MPP_ORIGIN_UNRESOLVED);
        return mpp_textbuf_done(&b);
    }
    Dwarf_Addr start = 0;
    const char *module_name = dwfl_module_info(module, NULL, &start, NULL, NULL, NULL, NULL, NULL);
    uintptr_t entry = 0;
    const char *function = function_name(s, module, pc, &entry);
    char *readable = demangled(s, function);
    if (readable)
        function = readable;
    Dwfl_Line *line = dwfl_module_getsrc(module, pc);
    int lineno = 0;
    const char *path = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    module_name = module_name ? module_name : "??";
    if (path && lineno > 0)
        put_line_frames(s, &b, module, pc, path, lineno, function);
    else if (function && entry) /* the symbol table's: function+offset of the return address */
        mpp_textbuf_printf(&b, "%s%c0%c%s%c%s+0x%" PRIxPTR "%c%s", module_name, MPP_US, MPP_US, function, MPP_US,
                           function, address - entry, MPP_US, MPP_ORIGIN_SYMBOL);
    else
        mpp_textbuf_printf(&b, "%s%c0%c%s%c%s+0x%" PRIx64 "%c%s", module_name, MPP_US, MPP_US,
                           function ? function : "", MPP_US, basename_of(module_name), (uint64_t)(address - start),
                           MPP_US, MPP_ORIGIN_UNRESOLVED);
    free(readable);
    return mpp_textbuf_done(&b);
}

const char *mpp_symbolize(mpp_symbolizer_t *s, uintptr_t address)
{
    char **cached = mpp_handlemap_get(&s->cache, address);
    if (cached)
        return *cached;
    char *record = resolve(s, address);
    if (!record)
        return "??";
    int inserted;
    cached = mpp_handlemap_put(&s->cache, address, &inserted);
    if (cached)
        *cached = record;
    return record; /* without memory for the cache: returned uncached, never freed */
}
