"""The description of the MPI functions (mpi_functions.txt), read for
gen_wrappers.py and check_coverage.py: each function's line (its class,
actions, return and parameter types: Function, Param) and the rules its
roles follow (@bytes formulas, @model operations, @sync wait-state roles,
@check correctness roles), each checked against the roles known here.
CATEGORY: the protocol's category of a function's class."""
import re

import gen_rma


CATEGORY = {"sendrecv": "MPP_CAT_SENDRECV", "collective": "MPP_CAT_COLLECTIVE",
            "system": "MPP_CAT_SYSTEM", "io": "MPP_CAT_IO",
            # waits and tests take the category of their requests; SendRecv
            # when none of them is tracked (MPI_REQUEST_NULL only)
            "bykind": "MPP_CAT_SENDRECV"}


class Param:
    def __init__(self, text):
        self.text = text
        m = re.match(r'^(.*?)(\w+)\s*((?:\[\s*\w*\s*\])*)$', text)
        if not m:
            raise SystemExit("cannot parse parameter: " + text)
        self.type = m.group(1).strip()
        self.name = m.group(2)
        self.array = bool(m.group(3))

    @property
    def base_type(self):
        return self.type.replace("const", "").replace("*", "").strip()


class Function:
    def __init__(self, line):
        m = re.match(r'^(\w+)\s+(\S+)\s+(.+?)\s*\((.*)\)\s*$', line)
        if not m:
            raise SystemExit("cannot parse line: " + line)
        self.name, cls, self.ret, params = m.groups()
        parts = cls.split("+")
        self.cls, self.actions = parts[0], set(parts[1:])
        self.params = []
        if self.cls != "handwritten" and params.strip() not in ("", "void"):
            self.params = [Param(p.strip()) for p in split_top(params)]
        self.by_name = {p.name: p for p in self.params}

    def adopt_header(self, declared):
        """Take the return and parameter types of mpi.h's declaration
        (`declared`: mpi_header's (return type, [parameter text])), keeping
        the description's names."""
        ret, params = declared
        if len(params) != len(self.params):
            raise SystemExit("%s: mpi.h declares %d parameters, the description %d"
                             % (self.name, len(params), len(self.params)))
        self.ret = ret
        adopted = []
        for mine, text in zip(self.params, params):
            m = re.match(r'^(.*?)(\w+)\s*((?:\[\s*\w*\s*\])*)$', text)
            if not m:
                raise SystemExit("%s: cannot parse mpi.h's parameter %s" % (self.name, text))
            adopted.append(Param("%s%s%s" % (m.group(1), mine.name, m.group(3))))
        self.params = adopted
        self.by_name = {p.name: p for p in self.params}

    @property
    def pname(self):
        if "errhandler" in self.actions:
            return re.sub(r'^MPIX?_', 'mpp_errh_', self.name)
        return "P" + self.name

    @property
    def fid(self):
        return "MPP_FN_" + self.name

    @property
    def base(self):
        """Name without MPI_ and _c: the first key of a @model line."""
        return re.sub(r'_c$', '', re.sub(r'^MPIX?_', '', self.name))

    def operation(self):
        """Name without MPI_, _c, _init and the I of nonblocking calls."""
        op = re.sub(r'^MPIX?_', '', self.name)
        op = re.sub(r'_c$', '', op)
        op = re.sub(r'_init$', '', op)
        op = re.sub(r'^File_i(?=[a-z])', 'File_', op)
        if re.match(r'^I[a-z]', op):
            op = op[1].upper() + op[2:]
        return op


def split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


# Model operations of src/analyze/model.c (mpp_model_op_t, same order).
MODEL_OPS = ["measured", "zero", "started", "p2p", "probe", "barrier", "bcast", "reduce", "allreduce", "scan",
             "gather", "gatherv", "scatter", "scatterv", "allgather", "alltoall", "alltoallv", "reduce_scatter",
             "neighbor"]
# Operations whose calls are priced by mpp_model_call_price in the wrapper.
FORMULA_OPS = MODEL_OPS[MODEL_OPS.index("p2p"):]
COLLECTIVE_OPS = FORMULA_OPS[FORMULA_OPS.index("barrier"):]


SYNC_ROLES = ["send", "recv", "sendrecv", "irecv", "psend", "probe", "mrecv", "newcomm", "groupcomm", "idup",
              "freecomm"]


# Correctness checks (@check, src/intercept/check/local.h): the handle
# kinds, their C types and the hooks' names of them.
HANDLE_KINDS = {"comm": "MPI_Comm", "group": "MPI_Group", "type": "MPI_Datatype", "op": "MPI_Op",
                "win": "MPI_Win", "info": "MPI_Info", "file": "MPI_File"}
CHECK_ROLES = ["send", "recv", "anytime", "anythread", "setattr", "peek"] + \
    ["%s:%s" % (verb, kind) for verb in ("creates", "frees") for kind in HANDLE_KINDS]
CHECK_ROLES += list(gen_rma.ROLES)  # (gen_rma.py)
# the bits of mpp_functions[].check (function_table.h)
CHECK_BITS = [("send", "MPP_FCHECK_SEND"), ("recv", "MPP_FCHECK_RECV"), ("anytime", "MPP_FCHECK_ANYTIME"),
              ("anythread", "MPP_FCHECK_ANYTHREAD"), ("rma-op", "MPP_FCHECK_RMA")]


def set_checks(functions, check_rules):
    """Each function's @check roles (by its name without MPI_ and _c), and
    the handle parameter of its creates/frees role."""
    bases = {f.base for f in functions}
    for name in check_rules:
        if name not in bases:
            raise SystemExit("@check names %s, which is no function" % name)
    for f in functions:
        f.checks = check_rules.get(f.base, set()) if f.cls not in ("handwritten", "untimed") else set()
        f.handle = None
        roles = [r for r in f.checks if ":" in r]
        if len(roles) > 1:
            raise SystemExit("%s: more than one creates/frees role" % f.name)
        if roles:
            verb, kind = roles[0].split(":")
            ptrs = [p.name for p in f.params if not p.array and "*" in p.type and p.base_type == HANDLE_KINDS[kind]]
            if len(ptrs) != 1:
                raise SystemExit("%s: @check %s needs exactly one %s * parameter" % (f.name, roles[0],
                                                                                 HANDLE_KINDS[kind]))
            f.handle = (verb, kind, ptrs[0])


def read_description(path):
    """(functions, @bytes rules, @model rules: name -> operation,
    @sync rules: name -> wait-state role).  @check roles are set on the
    functions (Function.checks)."""
    functions, bytes_rules, model_rules, sync_rules, check_rules = [], {}, {}, {}, {}
    for raw in open(path):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@check"):
            words = line.split()[1:]
            if not words or words[0] not in CHECK_ROLES:
                raise SystemExit("@check: unknown role in: " + line)
            for name in words[1:]:
                check_rules.setdefault(name, set()).add(words[0])
            continue
        if line.startswith("@sync"):
            words = line.split()[1:]
            if not words or words[0] not in SYNC_ROLES:
                raise SystemExit("@sync: unknown role in: " + line)
            for name in words[1:]:
                if name in sync_rules:
                    raise SystemExit("@sync names %s twice" % name)
                sync_rules[name] = words[0]
            continue
        if line.startswith("@model"):
            words = line.split()[1:]
            if not words or words[0] not in MODEL_OPS:
                raise SystemExit("@model: unknown operation in: " + line)
            for name in words[1:]:
                if name in model_rules:
                    raise SystemExit("@model names %s twice" % name)
                model_rules[name] = words[0]
            continue
        if line.startswith("@bytes"):
            words = line.split()[1:]
            ops = [w for w in words if "=" not in w]
            exprs = dict(w.split("=", 1) for w in words if "=" in w)
            for op in ops:
                bytes_rules[op] = exprs
            continue
        functions.append(Function(line))
    set_checks(functions, check_rules)
    return functions, bytes_rules, model_rules, sync_rules
