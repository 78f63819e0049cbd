"""What a generated wrapper counts of a call besides its time, for
gen_wrappers.py (C and Fortran entry points alike, their arguments read
through a view: gen_views.py): the bytes it moved, by the @bytes formula
of its operation, and the model's price of it, by its @model operation
(src/analyze/model.h)."""
import re

from gen_description import COLLECTIVE_OPS, FORMULA_OPS
from gen_views import OmpiFortranView


def model_op(fn, model_rules):
    """The @model operation of a function's requests or call: its name
    without MPI_ and _c first, then its OPERATION; "measured" otherwise."""
    return model_rules.get(fn.base, model_rules.get(fn.operation(), "measured"))


def call_model_op(fn, model_rules):
    """How the call's own time is predicted (mpp_functions[].model_op): a
    persistent request's creation is set-up, measured; its transfer counts
    at MPI_Start."""
    if "persistent" in fn.actions:
        return "measured"
    return model_op(fn, model_rules)


def model_code(fn, model_rules, view, ok):
    """The model's price of the call (model.h), for the operations priced
    by a formula: bytes as counted above, the communicator size for
    collectives, the link to the partner's node."""
    op = model_op(fn, model_rules)
    if op not in FORMULA_OPS:
        return []
    has = fn.by_name
    comm = view("comm") if "comm" in has else None
    if op in COLLECTIVE_OPS and comm:
        procs, link = "mpp_comm_size(%s)" % comm, "mpp_model_link_comm(%s)" % comm
    elif "dest" in has and "source" in has and comm:
        procs, link = "2", "mpp_model_link2(%s, %s, %s)" % (comm, view("dest"), view("source"))
    elif ("dest" in has or "source" in has) and comm:
        procs, link = "2", "mpp_model_link(%s, %s)" % (comm, view("dest" if "dest" in has else "source"))
    else:
        procs, link = "2", "mpp_model_link_unknown()"
    return ["    if (mpp_model_on && %s)" % ok,
            "        mpp_model_call_price(&call.model, MPP_OP_%s, call.bytes_sent, call.bytes_recv, %s, %s);"
            % (op.upper(), procs, link)]


def count_expr(fn, name, view):
    """C expression for one factor of a @bytes product."""
    neighbor = fn.operation().startswith("Neighbor_")

    comm = view("comm") if "comm" in fn.by_name else "MPI_COMM_NULL"

    def length(array_name):
        if neighbor:
            return "mpp_comm_degree(%s, %d)" % (comm, 1 if array_name.startswith("send") else 0)
        return "mpp_comm_size(%s)" % comm

    def param(pname):
        if pname not in fn.by_name:
            raise SystemExit("%s: @bytes names unknown parameter %s" % (fn.name, pname))
        return fn.by_name[pname]

    if name == "P":
        return "mpp_comm_size(%s)" % comm
    if name in ("NOUT", "NIN"):
        return "mpp_comm_degree(%s, %d)" % (comm, name == "NOUT")
    m = re.match(r'^sum\((\w+)\)$', name)
    if m:
        p = param(m.group(1))
        suffix = "_c" if "MPI_Count" in p.type else ""
        return "mpp_sum_counts%s(%s, %s)" % (suffix, view(p.name), length(p.name))
    m = re.match(r'^sumw\((\w+),(\w+)\)$', name)
    if m:
        p = param(m.group(1))
        suffix = "_c" if "MPI_Count" in p.type else ""
        if isinstance(view, OmpiFortranView):
            suffix = "_f"  # Fortran handles of the types, converted one by one
        return "mpp_sum_counts_types%s(%s, %s, %s)" % (suffix, view(p.name), view(m.group(2)), length(p.name))
    m = re.match(r'^(\w+)\[rank\]$', name)
    if m:
        return "(int64_t)%s[mpp_comm_rank(%s)]" % (view(param(m.group(1)).name), comm)
    p = param(name)
    if p.base_type == "MPI_Datatype":
        return "mpp_type_bytes(%s)" % view(p.name)
    return "(int64_t)(%s)" % view(p.name)


def bytes_code(fn, rule, view):
    ok = view.ok
    lines = []
    for direction in ("sent", "recv"):
        expr = rule.get(direction)
        if not expr:
            continue
        cond = [ok]
        if expr.endswith("@root"):
            expr = expr[:-5]
            cond.append("mpp_is_root(%s, %s)" % (view("comm"), view("root")))
        elif expr.endswith("@nonroot"):
            expr = expr[:-8]
            cond.append("mpp_is_nonroot(%s, %s)" % (view("comm"), view("root")))
        factors = expr.split("*")
        if "sendbuf" in fn.by_name and any(re.search(r'\bsend', f) for f in factors):
            cond.append(view.not_in_place("sendbuf"))
        lines.append("    if (%s) {" % " && ".join(cond))
        lines.append("        int64_t b = %s;" % count_expr(fn, factors[0], view))
        for f in factors[1:]:
            lines.append("        if (b) b *= %s;" % count_expr(fn, f, view))
        lines.append("        call.bytes_%s += b;" % direction)
        lines.append("    }")
    return lines
