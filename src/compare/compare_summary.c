/* What changed from protocol A to protocol B (compare.h): for each
 * interval found in both, the speedup (execution time A / execution time
 * B), with different process counts the scaling efficiency (speedup x
 * P_A / P_B), the change of the parallelization efficiency, and each part
 * of Lost time and each potential loss in seconds and as a share of the
 * total time, grown or shrunk beyond the tolerance or unchanged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

typedef struct {
    const char *name, *label;
    int level; /* indentation under Lost time, as the protocol writes it */
} component_t;

static const component_t components[] = {
    {"productive_time", "Productive time", 0}, /* its growth: work that grew with P */
    {"lost_time", "Lost time", 0},
    {"insufficient_parallelism", "Insufficient parallelism", 1},
    {"communication", "Communication", 1},
    {"sendrecv", "SendRecv", 2},
    {"real_sync", "Real sync", 3},
    {"collective", "Collective", 2},
    {"system", "System", 2},
    {"idle_time", "Idle time", 1},
    {"load_imbalance", "Load imbalance (potential)", 0},
    {"potential_sync", "Potential sync (potential)", 0},
    {"time_variation", "Time variation (potential)", 0},
};

static json_t *number_or_null(json_t *v) { return json_is_number(v) ? json_real(json_number_value(v)) : json_null(); }

static json_t *component_json(const component_t *k, json_t *ma, json_t *mb, const mpp_compare_options_t *o)
{
    json_t *a = json_object_get(ma, k->name), *b = json_object_get(mb, k->name);
    json_t *ta = json_object_get(ma, "total_time"), *tb = json_object_get(mb, "total_time");
    json_t *c = json_pack("{s:s, s:s, s:i, s:o, s:o}", "name", k->name, "label", k->label, "level", k->level, "a",
                          number_or_null(a), "b", number_or_null(b));
    if (!c)
        return NULL;
    if (!json_is_number(a) || !json_is_number(b)) {
        json_object_set_new(c, "change", json_null());
        json_object_set_new(c, "trend", json_string("n/a"));
        json_object_set_new(c, "na_reason", json_string(json_is_number(a) ? "n/a in B" : "n/a in A"));
        return c;
    }
    double x = json_number_value(a), y = json_number_value(b);
    json_object_set_new(c, "change", json_real(y - x));
    json_object_set_new(c, "trend",
                        json_string(!mpp_compare_exceeds(x, y, o->rtol, o->atol) ? "unchanged"
                                    : y > x                                      ? "grew"
                                                                                 : "shrank"));
    json_object_set_new(c, "share_a", json_number_value(ta) > 0 ? json_real(x / json_number_value(ta)) : json_null());
    json_object_set_new(c, "share_b", json_number_value(tb) > 0 ? json_real(y / json_number_value(tb)) : json_null());
    return c;
}

static json_t *interval_json(json_t *ia, json_t *ib, const mpp_compare_options_t *o)
{
    json_t *ma = json_object_get(json_object_get(ia, "real"), "main");
    json_t *mb = json_object_get(json_object_get(ib, "real"), "main");
    json_t *ea = json_object_get(ma, "execution_time"), *eb = json_object_get(mb, "execution_time");
    json_t *ka = json_object_get(ma, "parallelization_efficiency"),
           *kb = json_object_get(mb, "parallelization_efficiency");
    json_t *pa = json_object_get(ma, "processors"), *pb = json_object_get(mb, "processors");
    char *where = mpp_compare_interval_label(ia);
    json_t *out = json_pack("{s:s?, s:[oo], s:[oo], s:[oo]}", "where", where, "execution_time", number_or_null(ea),
                            number_or_null(eb), "parallelization_efficiency", number_or_null(ka), number_or_null(kb),
                            "processors", number_or_null(pa), number_or_null(pb));
    free(where);
    if (!out)
        return NULL;
    const char *na = NULL;
    if (!json_is_number(ea) || !json_is_number(eb))
        na = "an execution time is n/a";
    else if (!(json_number_value(eb) > 0))
        na = "the execution time in B is 0";
    double speedup = na ? NAN : json_number_value(ea) / json_number_value(eb);
    json_object_set_new(out, "speedup", na ? json_null() : json_real(speedup));
    if (na)
        json_object_set_new(out, "speedup_na_reason", json_string(na));
    if (json_is_number(pa) && json_is_number(pb) && json_number_value(pa) != json_number_value(pb))
        json_object_set_new(out, "scaling_efficiency",
                            na ? json_null() : json_real(speedup * json_number_value(pa) / json_number_value(pb)));
    json_object_set_new(out, "efficiency_change",
                        json_is_number(ka) && json_is_number(kb)
                            ? json_real(json_number_value(kb) - json_number_value(ka))
                            : json_null());
    json_t *list = json_array();
    for (size_t k = 0; list && k < sizeof components / sizeof *components; k++)
        json_array_append_new(list, component_json(&components[k], ma, mb, o));
    json_object_set_new(out, "components", list ? list : json_null());
    return out;
}

json_t *mpp_compare_summary(json_t *a, json_t *b, const mpp_compare_t *c, const mpp_compare_options_t *options)
{
    json_t *pa = json_object_get(json_object_get(a, "parameters"), "processes");
    json_t *pb = json_object_get(json_object_get(b, "parameters"), "processes");
    json_t *ia = json_object_get(a, "intervals"), *ib = json_object_get(b, "intervals");
    json_t *list = json_array();
    json_t *out =
        json_pack("{s:[OO], s:o}", "processes", pa ? pa : json_null(), pb ? pb : json_null(), "intervals", list);
    for (size_t i = 0; out && i < c->npairs; i++) {
        json_t *one = interval_json(json_array_get(ia, c->pair_a[i]), json_array_get(ib, c->pair_b[i]), options);
        if (!one || json_array_append_new(list, one) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}
