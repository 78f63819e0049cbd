/* The scaling study as text (scaling.h, mpiprof-compare): every number is
 * one of the study's JSON, printed as it is there; n/a where it is null. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/scaling.h"

static double num(json_t *v) { return json_is_number(v) ? json_number_value(v) : NAN; }

static void cell(FILE *out, int width, const char *format, double x)
{
    if (isfinite(x))
        fprintf(out, format, width, x);
    else
        fprintf(out, "%*s", width, "n/a");
}

static void print_ps(FILE *out, json_t *procs)
{
    json_t *p;
    size_t i;
    json_array_foreach(procs, i, p) fprintf(out, "%s%g", i ? ", " : "", num(p));
}

static void print_table(FILE *out, json_t *study)
{
    json_t *row;
    size_t i;
    fprintf(out, "%8s  %18s  %8s  %18s  %8s  %14s  %15s  %s\n", "P", "Execution time (s)", "Speedup",
            "Scaling efficiency", "K_eff", "Lost time (s)", "per process (s)", "protocol");
    json_array_foreach(json_object_get(study, "rows"), i, row)
    {
        json_t *lost = json_object_get(json_object_get(row, "parts"), "lost_time");
        fprintf(out, "%8g  ", num(json_object_get(row, "processes")));
        cell(out, 18, "%*.6f", num(json_object_get(row, "execution_time")));
        fputs("  ", out);
        cell(out, 8, "%*.3f", num(json_object_get(row, "speedup")));
        fputs("  ", out);
        cell(out, 18, "%*.3f", num(json_object_get(row, "scaling_efficiency")));
        fputs("  ", out);
        cell(out, 8, "%*.4f", num(json_object_get(row, "parallelization_efficiency")));
        fputs("  ", out);
        cell(out, 14, "%*.6f", num(json_object_get(lost, "sum")));
        fputs("  ", out);
        cell(out, 15, "%*.6f", num(json_object_get(lost, "per_process")));
        fprintf(out, "  %s\n", json_string_value(json_object_get(row, "label")));
    }
}

static void print_parts(FILE *out, json_t *study)
{
    json_t *part, *row;
    size_t i, k;
    fprintf(out, "\nProductive and Lost time by part (s, summed over processes / per process)\n%-30s", "P");
    json_array_foreach(json_object_get(study, "rows"), k, row)
        fprintf(out, "  %23g", num(json_object_get(row, "processes")));
    fputc('\n', out);
    json_array_foreach(json_object_get(study, "parts"), i, part)
    {
        int level = (int)json_integer_value(json_object_get(part, "level"));
        const char *name = json_string_value(json_object_get(part, "name"));
        fprintf(out, "%*s%-*s", 2 * level, "", 30 - 2 * level, json_string_value(json_object_get(part, "label")));
        json_array_foreach(json_object_get(study, "rows"), k, row)
        {
            json_t *v = json_object_get(json_object_get(row, "parts"), name);
            fputs("  ", out);
            cell(out, 11, "%*.6f", num(json_object_get(v, "sum")));
            fputs(" /", out);
            cell(out, 10, "%*.6f", num(json_object_get(v, "per_process")));
        }
        fputc('\n', out);
    }
    json_t *fast = json_object_get(study, "fastest"), *procs = json_object_get(study, "processes");
    if (json_is_object(fast))
        fprintf(out, "Part of Lost time that grew fastest: %s (%+.6f s per process from P = %g to P = %g)\n",
                json_string_value(json_object_get(fast, "label")), num(json_object_get(fast, "growth")),
                num(json_array_get(procs, 0)), num(json_array_get(procs, json_array_size(procs) - 1)));
    else
        fprintf(out, "Part of Lost time that grew fastest: n/a (%s)\n",
                json_string_value(json_object_get(study, "fastest_na_reason")));
}

/* "model (error 1.2%), fit at P = 8: 1.234 s, P = 16: 2.345 s", or n/a. */
static void print_fit(FILE *out, json_t *item)
{
    json_t *fit = json_object_get(item, "fit"), *p;
    if (!fit) {
        fprintf(out, "n/a (%s)", json_string_value(json_object_get(item, "na_reason")));
        return;
    }
    fprintf(out, "%s (error %.2f%%, cross-validated %.2f%%); fit at",
            json_string_value(json_object_get(fit, "model")), 100 * num(json_object_get(fit, "error")),
            100 * num(json_object_get(fit, "cv_error")));
    size_t i;
    json_array_foreach(json_object_get(fit, "predictions"), i, p)
        fprintf(out, "%s P = %g: %.6f s", i ? "," : "", num(json_object_get(p, "processes")),
                num(json_object_get(p, "value")));
}

static void print_fits(FILE *out, json_t *study, size_t top)
{
    json_t *item;
    size_t i;
    fputs("\nScaling models (FITTED, not measured: a + b * P^i * log2(P)^j by least squares of relative errors, the "
          "term\n"
          "chosen by leave-one-out cross-validation; error: mean relative error at the measured P; beyond them a "
          "guess)\n",
          out);
    json_array_foreach(json_object_get(study, "fits"), i, item)
    {
        fprintf(out, "  %-26s ", json_string_value(json_object_get(item, "label")));
        print_fit(out, item);
        fputc('\n', out);
    }
    json_t *src = json_object_get(study, "src");
    size_t n = json_array_size(src);
    fprintf(out, "\nSRC points: time (s, summed over processes) at P = ");
    print_ps(out, json_object_get(study, "processes"));
    fprintf(out, "; %s%zu of %zu, the slowest at the largest P first (all with --json)\n", n > top ? "" : "all ",
            n > top ? top : n, n);
    json_array_foreach(src, i, item)
    {
        if (i >= top)
            break;
        json_t *t;
        size_t k;
        fprintf(out, "  %s: SRC %s\n    times", json_string_value(json_object_get(item, "where")),
                json_string_value(json_object_get(item, "src")));
        json_array_foreach(json_object_get(item, "times"), k, t)
        {
            fputc(' ', out);
            cell(out, 0, "%*.6f", num(t));
        }
        fputs("; model ", out);
        print_fit(out, item);
        fputc('\n', out);
    }
}

void mpp_scaling_print(FILE *out, json_t *study, size_t top)
{
    json_t *why = json_object_get(study, "na_reason");
    if (why) {
        fprintf(out, "\nScaling study: n/a (%s)\n", json_string_value(why));
        return;
    }
    json_t *procs = json_object_get(study, "processes");
    fprintf(out, "\nScaling study of %s: %zu runs at P = ", json_string_value(json_object_get(study, "where")),
            json_array_size(procs));
    print_ps(out, procs);
    fprintf(out, "; speedup and scaling efficiency (speedup x %g / P) against P = %g\n",
            num(json_array_get(procs, 0)), num(json_array_get(procs, 0)));
    print_table(out, study);
    print_parts(out, study);
    print_fits(out, study, top);
}
