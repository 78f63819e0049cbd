/* Run-time configuration from MPIPROF_* environment variables
 * (table: context/config_vars.def). */
#ifndef MPP_CONFIG_H
#define MPP_CONFIG_H

typedef enum {
    MPP_VT_BOOL,
    MPP_VT_INT,
    MPP_VT_ENUM,
    MPP_VT_STRING,
    MPP_VT_RANKS,
    MPP_VT_FORMAT,
    MPP_VT_CHECK
} mpp_var_kind_t;

typedef enum {
#define MPP_VAR(name, kind, def, min, max, accepted, desc) MPP_CFG_##name,
#include "context/config_vars.def"
#undef MPP_VAR
    MPP_NVARS
} mpp_var_id_t;

typedef struct {
    const char *name; /* without the MPIPROF_ prefix */
    mpp_var_kind_t kind;
    const char *default_value;
    long min, max;
    const char *accepted;
    const char *description;
} mpp_var_info_t;

extern const mpp_var_info_t mpp_vars[MPP_NVARS];

#define MPP_CONFIG_STRING_MAX 1024

typedef struct {
    long number[MPP_NVARS];                      /* BOOL, INT, ENUM (choice index) */
    char text[MPP_NVARS][MPP_CONFIG_STRING_MAX]; /* value in effect, as text */
    int is_default[MPP_NVARS];
} mpp_config_t;

/* FORMAT: a set of protocol files, one bit each (MPP_VT_FORMAT). */
enum {
    MPP_FORMAT_TEXT = 1,
    MPP_FORMAT_JSON = 2,
    MPP_FORMAT_HTML = 4,
    MPP_FORMAT_BOTH = MPP_FORMAT_TEXT | MPP_FORMAT_JSON,
    MPP_FORMAT_ALL = MPP_FORMAT_TEXT | MPP_FORMAT_JSON | MPP_FORMAT_HTML
};
/* CHECK: the level of the correctness checks (correctness.md), and
 * whether buffers are checksummed (MPP_VT_CHECK: "off", "basic", "full",
 * each optionally followed by ",checksum"). */
enum { MPP_CHECK_OFF = 0, MPP_CHECK_BASIC = 1, MPP_CHECK_FULL = 2, MPP_CHECK_LEVEL = 3, MPP_CHECK_CHECKSUM = 4 };
/* A CHECK value as its level | MPP_CHECK_CHECKSUM; -1 when malformed. */
int mpp_config_parse_check(const char *s, long *out);

enum { MPP_UNWIND_AUTO = 0, MPP_UNWIND_FP = 1, MPP_UNWIND_DWARF = 2 };
enum { MPP_CLOCK_AUTO = 0, MPP_CLOCK_TSC = 1, MPP_CLOCK_MONOTONIC = 2 };

/* The files of a partial protocol for FORMAT: its text and JSON ones (the
 * page is not made for a run that ended without MPI_Finalize); JSON when
 * it names neither (html alone). */
static inline int mpp_partial_format(long format)
{
    int files = (int)format & MPP_FORMAT_BOTH;
    return files ? files : MPP_FORMAT_JSON;
}

/* A FORMAT value ("text,json,html", "both", "all", case-insensitive) as
 * its set of MPP_FORMAT_* bits; 0, or -1 when malformed (an empty or
 * unknown part, a part twice). */
int mpp_config_parse_format(const char *s, long *out);

typedef const char *(*mpp_getenv_fn)(const char *name);

/* Read every variable through getenv_fn (getenv when NULL).  A malformed value
 * gets one warning (variable, value, what is accepted, default used) and the
 * default.  Never fails. */
void mpp_config_parse(mpp_config_t *cfg, mpp_getenv_fn getenv_fn);

/* The process configuration, parsed at MPI_Init. */
extern mpp_config_t mpp_config;

/* Selection of ranks for per-process columns: fills selected[0..nprocs-1]
 * with 0/1 from the RANKS value; returns the number selected.  Ranks not
 * below nprocs get a warning and are ignored. */
int mpp_config_select_ranks(const mpp_config_t *cfg, int nprocs, unsigned char *selected);

#endif
