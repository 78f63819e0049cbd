/* Parsing of MPIPROF_* variables.  Bad input never stops the program: one
 * warning that names the variable, the bad value, what is accepted and the
 * default used instead. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "context/config.h"
#include "util/warnings.h"

const mpp_var_info_t mpp_vars[MPP_NVARS] = {
#define MPP_VAR(name, kind, def, min, max, accepted, desc) {#name, kind, def, min, max, accepted, desc},
#include "context/config_vars.def"
#undef MPP_VAR
};

mpp_config_t mpp_config;

static int parse_long(const char *s, long *out)
{
    char *end;
    /* strtol skips leading white space; a value must start with its number */
    if (!isdigit((unsigned char)*s) && !((*s == '-' || *s == '+') && isdigit((unsigned char)s[1])))
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *s, long *out)
{
    static const char *yes[] = {"1", "yes", "on", "true", "y"};
    static const char *no[] = {"0", "no", "off", "false", "n"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(s, yes[i]))
            return *out = 1, 0;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (!strcasecmp(s, no[i]))
            return *out = 0, 0;
    return -1;
}

static int parse_enum(const char *s, const char *choices, long *out)
{
    long index = 0;
    size_t len = strlen(s);
    for (const char *c = choices; *c; index++) {
        const char *bar = strchr(c, '|');
        size_t n = bar ? (size_t)(bar - c) : strlen(c);
        if (n == len && !strncasecmp(c, s, n))
            return *out = index, 0;
        c += n + (bar ? 1 : 0);
    }
    return -1;
}

int mpp_config_parse_format(const char *s, long *out)
{
    static const struct {
        const char *name;
        long bits;
    } parts[] = {{"text", MPP_FORMAT_TEXT},
                 {"json", MPP_FORMAT_JSON},
                 {"html", MPP_FORMAT_HTML},
                 {"both", MPP_FORMAT_BOTH},
                 {"all", MPP_FORMAT_ALL}};
    long bits = 0;
    for (const char *c = s;;) {
        size_t n = strcspn(c, ",");
        long part = 0;
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
            if (strlen(parts[i].name) == n && !strncasecmp(parts[i].name, c, n))
                part = parts[i].bits;
        if (!part || (bits & part))
            return -1; /* empty, unknown, or said twice */
        bits |= part;
        if (!c[n])
            break;
        c += n + 1;
    }
    *out = bits;
    return 0;
}

int mpp_config_parse_check(const char *s, long *out)
{
    static const char *const levels[] = {"off", "basic", "full"};
    size_t n = strcspn(s, ",");
    long level = -1;
    for (long i = 0; i < 3; i++)
        if (strlen(levels[i]) == n && !strncasecmp(levels[i], s, n))
            level = i;
    if (level < 0)
        return -1;
    if (!s[n])
        return *out = level, 0;
    /* checksums check buffers of the operations the checks follow: not with off */
    if (level == MPP_CHECK_OFF || strcasecmp(s + n + 1, "checksum") != 0)
        return -1;
    return *out = level | MPP_CHECK_CHECKSUM, 0;
}

/* all | none | auto | N[-M](,N[-M])* */
static int valid_ranks(const char *s)
{
    if (!strcasecmp(s, "all") || !strcasecmp(s, "none") || !strcasecmp(s, "auto"))
        return 1;
    const char *p = s;
    do {
        if (!isdigit((unsigned char)*p))
            return 0;
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            p++;
            if (!isdigit((unsigned char)*p))
                return 0;
            hi = strtoul(p, &end, 10);
            p = end;
        }
        if (hi < lo || hi > 100000000UL)
            return 0;
        if (*p != ',')
            break;
        p++; /* a comma is followed by another rank: "1," is malformed */
    } while (1);
    return *p == '\0';
}

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* Longest file name a template may spell out literally: NAME_MAX less room
 * for what the writer appends (".json", ".tmp.<pid>", a numbered suffix). */
#define OUTPUT_NAME_MAX (NAME_MAX - 32)

/* MPIPROF_OUTPUT: only the documented placeholders, and no file name (a part
 * between slashes) that no file system could create.  A last part that is
 * empty, "." or ".." names a directory, not a file. */
static int valid_output(const char *s)
{
    size_t part = 0;
    for (const char *c = s; *c; c++) {
        if (*c == '%' && c[1]) {
            if (!strchr("pnuh%", c[1]))
                return 0;
            c++;
            part += 2;
        } else if (*c == '/') {
            part = 0;
            continue;
        } else {
            part++;
        }
        if (part > OUTPUT_NAME_MAX)
            return 0;
    }
    const char *last = strrchr(s, '/');
    last = last ? last + 1 : s;
    return *last && strcmp(last, ".") != 0 && strcmp(last, "..") != 0;
}

/* MPIPROF_PAPI_EVENTS: none, or event names separated by commas (blanks
 * around a name are allowed).  A PAPI event name (preset, native, sde:::,
 * with qualifiers) is made of letters, digits and _ . : = + - / @ only. */
static int valid_event_list(const char *s)
{
    if (!strcasecmp(s, "none"))
        return 1;
    int names = 0;
    for (const char *c = s; *c;) {
        while (*c == ' ')
            c++;
        size_t n = 0;
        for (; c[n] && c[n] != ',' && c[n] != ' '; n++)
            if (!isalnum((unsigned char)c[n]) && !strchr("_.:=+-/@", c[n]))
                return 0;
        c += n;
        while (*c == ' ')
            c++;
        if (!n || (*c && *c != ','))
            return 0; /* an empty name, or a blank inside one */
        names++;
        if (*c == ',' && !*++c)
            return 0; /* a trailing comma */
    }
    return names > 0;
}

/* Show a bad value safely in a warning: printable characters, bounded. */
static void quote_value(const char *v, char *out, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; v[i] && j + 5 < n; i++) {
        unsigned char c = (unsigned char)v[i];
        out[j++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
        if (i == 80 && v[i + 1]) {
            memcpy(out + j, "...", 3);
            j += 3;
            break;
        }
    }
    out[j] = '\0';
}

/* A number of seconds within an hour either way (MPIPROF_TEST_CLOCK_SKEW,
 * MPIPROF_TEST_CLOCK_PONG_DELAY). */
static int valid_seconds(const char *value)
{
    char *end;
    double s = strtod(value, &end);
    return end != value && *end == '\0' && s >= -3600 && s <= 3600;
}

static int parse_one(const mpp_var_info_t *var, const char *value, long *number)
{
    /* Whatever the kind, the value must fit where it is kept (text[]). */
    if (strlen(value) >= MPP_CONFIG_STRING_MAX)
        return -1;
    switch (var->kind) {
    case MPP_VT_BOOL:
        return parse_bool(value, number);
    case MPP_VT_INT:
        if (parse_long(value, number) != 0)
            return -1;
        return (*number < var->min || *number > var->max) ? -1 : 0;
    case MPP_VT_ENUM:
        return parse_enum(value, var->accepted, number);
    case MPP_VT_FORMAT:
        return mpp_config_parse_format(value, number);
    case MPP_VT_CHECK:
        return mpp_config_parse_check(value, number);
    case MPP_VT_RANKS:
        *number = 0;
        return valid_ranks(value) ? 0 : -1;
    case MPP_VT_STRING:
        *number = 0;
        if (!*value || !printable(value))
            return -1;
        if (var == &mpp_vars[MPP_CFG_OUTPUT])
            return valid_output(value) ? 0 : -1;
        if (var == &mpp_vars[MPP_CFG_PAPI_EVENTS])
            return valid_event_list(value) ? 0 : -1;
        if (var == &mpp_vars[MPP_CFG_TEST_CLOCK_SKEW])
            return valid_seconds(value) ? 0 : -1;
        if (var == &mpp_vars[MPP_CFG_TEST_CLOCK_PONG_DELAY]) /* a wait: never negative */
            return valid_seconds(value) && strtod(value, NULL) >= 0 ? 0 : -1;
        return 0;
    }
    return -1;
}

static const char *system_getenv(const char *name) { return getenv(name); }

void mpp_config_parse(mpp_config_t *cfg, mpp_getenv_fn getenv_fn)
{
    if (!getenv_fn)
        getenv_fn = system_getenv;
    memset(cfg, 0, sizeof *cfg);
    for (int i = 0; i < MPP_NVARS; i++) {
        const mpp_var_info_t *var = &mpp_vars[i];
        char env_name[64] = "MPIPROF_";
        strncat(env_name, var->name, sizeof env_name - strlen(env_name) - 1);
        const char *value = getenv_fn(env_name);
        long number = 0;
        int ok = value && parse_one(var, value, &number) == 0;
        if (value && !ok) {
            char shown[128];
            quote_value(value, shown, sizeof shown);
            mpp_warn("%s='%s' is not valid (accepted: %s); using the default '%s'", env_name, shown, var->accepted,
                     var->default_value);
        }
        if (!ok) {
            value = var->default_value;
            parse_one(var, value, &number);
            cfg->is_default[i] = 1;
        }
        cfg->number[i] = number;
        strncpy(cfg->text[i], value, MPP_CONFIG_STRING_MAX - 1);
    }
}

int mpp_config_select_ranks(const mpp_config_t *cfg, int nprocs, unsigned char *selected)
{
    const char *s = cfg->text[MPP_CFG_RANKS];
    int all = !strcasecmp(s, "all") || (!strcasecmp(s, "auto") && nprocs <= 64);
    int none = !strcasecmp(s, "none") || (!strcasecmp(s, "auto") && nprocs > 64);
    int count = 0;
    for (int r = 0; r < nprocs; r++)
        selected[r] = (unsigned char)all;
    if (all)
        return nprocs;
    if (none)
        return 0;
    int out_of_range = 0;
    for (const char *p = s; *p;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-')
            hi = strtoul(p + 1, &end, 10), p = end;
        if (hi >= (unsigned long)nprocs)
            out_of_range = 1;
        for (unsigned long r = lo; r <= hi && r < (unsigned long)nprocs; r++)
            selected[r] = 1;
        if (*p == ',')
            p++;
    }
    if (out_of_range)
        mpp_warn("MPIPROF_RANKS='%s' names ranks not below the %d processes of the run; those are ignored", s,
                 nprocs);
    for (int r = 0; r < nprocs; r++)
        count += selected[r];
    return count;
}
