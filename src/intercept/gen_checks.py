"""The argument and buffer checks of a generated C wrapper
(MPIPROF_CHECK=full, or a checksum asked for: src/intercept/check/argcheck.h),
for gen_wrappers.py.

Every check follows from a parameter's role, its MPI standard name, never
from a list of functions:
  count, sendcount, recvcount, incount, origin/target/result_count
        not negative (in a function with a buffer, a request array or a
        new datatype: the number of elements, requests or blocks)
  dest, source          a rank of comm's group (the remote group of an
        intercommunicator), MPI_PROC_NULL, and for source MPI_ANY_SOURCE
  root                  a rank of comm; MPI_ROOT or MPI_PROC_NULL on an
        intercommunicator
  tag, sendtag, recvtag 0 to MPI_TAG_UB, a receive's also MPI_ANY_TAG (in a
        function with dest or source)
  comm, op, oldtype     not MPI_COMM_NULL, MPI_OP_NULL, MPI_DATATYPE_NULL
        (nor a freed datatype)
  request, status       pointers not NULL (MPI_STATUS_IGNORE allowed), and
        their arrays with a count
  buffers               the sides of the function's @bytes formula: `sent`
        is read from sendbuf (else buf, buffer, origin_addr, inbuf), `recv`
        written to recvbuf (else result_addr, buf, buffer, origin_addr); its
        count the formula's factors, its datatype the MPI_Datatype one;
        @root/@nonroot say where it matters; a peer MPI_PROC_NULL moves no
        byte; per-process displacements (a *displs parameter) leave its
        bytes unknown.  Its datatype must be valid and committed, a NULL
        address touch no byte of the first page, and for point-to-point,
        collective and I/O functions the send and receive buffers must not
        share a byte, nor share one with a pending operation's; the origin
        buffers of one-sided operations (@check rma-op) too, and they stay
        pending until their epoch closes (mpp_chk_rma_issued).
Requests a call creates, completes, frees or starts (its actions) and the
MPI_Datatype handles it leaves (MPI_Datatype * parameters) are followed
after the call; a completion or datatype call that goes by unseen (not
profiled) makes the checks forget what they knew.
The Fortran entry points the profiler wraps apart (mpi_f08, Open MPI's
bindings) check the same single arguments and the buffers' counts and
datatypes through their view (gen_views.py: f08_before), not the
pointers nor the buffers' addresses."""
import re

from gen_views import CView

BUFFERS_SENT = ("sendbuf", "buf", "buffer", "origin_addr", "inbuf")
BUFFERS_RECV = ("recvbuf", "result_addr", "buf", "buffer", "origin_addr")
BUFFERS = set(BUFFERS_SENT + BUFFERS_RECV + ("outbuf", "compare_addr"))
COUNTS = ("count", "sendcount", "recvcount", "incount", "origin_count", "target_count", "result_count")
TRACKED = ("sendrecv", "collective", "io")
PEERS = {"sent": ("dest", "target_rank"), "recv": ("source", "target_rank")}


def scalar(fn, name, *types):
    p = fn.by_name.get(name)
    return p is not None and not p.array and "*" not in p.type and p.base_type in types


def pointer(fn, name, base):
    p = fn.by_name.get(name)
    return p is not None and not p.array and "*" in p.type and p.base_type == base


def array_length(fn):
    return "count" if "count" in fn.by_name else "incount"


def handle_outputs(fn, base_type):
    """The parameters of type base_type * (not arrays): handles the call leaves."""
    return [p.name for p in fn.params if not p.array and "*" in p.type and p.base_type == base_type
            and "const" not in p.type]


def frees_comm(fn):
    """MPI_Comm_free, MPI_Comm_disconnect (their @check frees:comm role)."""
    return bool(getattr(fn, "handle", None) and fn.handle[:2] == ("frees", "comm"))


def type_outputs(fn):
    return handle_outputs(fn, "MPI_Datatype")


def outputs(fn):
    """The handles whose value before and after the call the checks follow:
    (parameter, the function told): datatypes and communicators, freed or
    made (a freed one is an invalid argument, not to be asked MPI about)."""
    return ([(t, "mpp_chk_type_out") for t in type_outputs(fn)] +
            [(c, "mpp_chk_comm_out") for c in handle_outputs(fn, "MPI_Comm")])


def type_arrays(fn):
    """MPI_Datatype arrays the call may write (MPI_Type_get_contents)."""
    return [p.name for p in fn.params if p.array and p.base_type == "MPI_Datatype" and "const" not in p.type]


def side_factor(fn, factor, v):
    """A @bytes factor as a count expression (None: the datatype), the
    arguments read through view v."""
    has = fn.by_name
    if factor in has and has[factor].base_type == "MPI_Datatype":
        return None
    comm = v("comm") if "comm" in has else "MPI_COMM_NULL"
    if factor == "P":
        return "mpp_comm_size(%s)" % comm
    if factor in ("NOUT", "NIN"):
        return "mpp_comm_degree(%s, %d)" % (comm, factor == "NOUT")
    m = re.match(r'^sum\((\w+)\)$', factor)
    if m:
        suffix = "_c" if "MPI_Count" in has[m.group(1)].type else ""
        length = ("mpp_comm_degree(%s, %d)" % (comm, m.group(1).startswith("send"))
                  if fn.operation().startswith("Neighbor_") else "mpp_comm_size(%s)" % comm)
        return "mpp_sum_counts%s(%s, %s)" % (suffix, v(m.group(1)), length)
    m = re.match(r'^(\w+)\[rank\]$', factor)
    if m:
        return "(%s ? (int64_t)%s[mpp_comm_rank(%s)] : 0)" % (v(m.group(1)), v(m.group(1)), comm)
    return "(int64_t)(%s)" % v(factor)


def buffer_lines(fn, rule, v=None):
    """mpp_chk_buffer calls for the @bytes sides of the call.  Through a
    Fortran view v (the arguments of a Fortran entry point) a buffer's
    address is not known: its datatype and count are checked, not its
    address nor its bytes (MPP_NO_BUFFER, never tracked)."""
    has, out = fn.by_name, []
    v = v or CView(fn)
    for direction in ("sent", "recv"):
        expr = (rule or {}).get(direction)
        names = BUFFERS_SENT if direction == "sent" else BUFFERS_RECV
        param = next((n for n in names if n in has), None)
        if not expr or not param or expr.startswith("sumw("):
            continue
        which = "MPP_CHK_ALL"
        for suffix, w in (("@root", "MPP_CHK_ROOT"), ("@nonroot", "MPP_CHK_NONROOT")):
            if expr.endswith(suffix):
                expr, which = expr[:-len(suffix)], w
        factors = expr.split("*")
        types = [f for f in factors if side_factor(fn, f, v) is None]
        if len(types) != 1:
            continue
        counts = [side_factor(fn, f, v) for f in factors if f != types[0]] or ["1"]
        # a _replace form's one buffer is written too: its send side keeps no checksum
        replaced = fn.cls == "sendrecv" and direction == "sent" and (rule or {}).get("recv") and \
            next((n for n in BUFFERS_RECV if n in has), None) == param
        flags = ["MPP_CHK_WRITTEN"] if direction == "recv" or replaced else []
        if (fn.cls in TRACKED and "partitions" not in has) or "rma-op" in getattr(fn, "checks", ()):
            flags.append("MPP_CHK_TRACK")
        if any(f.startswith("sum(") for f in factors) and any("displs" in p.name for p in fn.params):
            flags.append("MPP_CHK_NOLAYOUT")
        inert = ["%s == MPI_PROC_NULL" % p for p in PEERS[direction] if scalar(fn, p, "int")]
        if direction == "recv" and pointer(fn, "message", "MPI_Message"):
            inert.append("(message && *message == MPI_MESSAGE_NO_PROC)")
        flag = " | ".join(flags) or "0"
        if inert:
            flag = "%s | (%s ? MPP_CHK_INERT : 0)" % (flag, " || ".join(inert))
        addr = param
        if v.fortran:  # MPI_IN_PLACE (of a collective) or an address not known
            flag = "0"
            addr = ("(%s ? MPP_NO_BUFFER : MPI_IN_PLACE)" % v.not_in_place(param)
                    if param in ("sendbuf", "recvbuf") else "MPP_NO_BUFFER")
        calls = ["mpp_chk_count_of(&mpp_chk, \"%s\", %s, %s);" % (c, v(c), addr) for c in side_counts(fn, factors)]
        calls.append("mpp_chk_buffer(&mpp_chk, \"%s\", %s, %s, \"%s\", %s, %s);" % (
            param, addr, " * ".join(counts), types[0], v(types[0]), flag))
        cond = []
        if "root" in has and "comm" in has:
            cond.append("mpp_chk_used(%s, %s, %s)" % (v("comm"), v("root"), which))
        if direction == "sent" and param == "origin_addr" and scalar(fn, "op", "MPI_Op"):
            cond.append("%s != MPI_NO_OP" % v("op"))  # MPI_NO_OP: the origin buffer is not used
        if cond:
            out += ["if (%s) {" % " && ".join(cond)] + ["    " + c for c in calls] + ["}"]
        else:
            out += calls
    return out


def side_counts(fn, factors):
    """The count parameters of a @bytes side: checked where the side
    matters (MPI_IN_PLACE, a non-root's receive count: any value)."""
    names = [re.sub(r'\[rank\]$', '', f) for f in factors]
    return [n for n in names if n in COUNTS and scalar(fn, n, "int", "MPI_Count")]


def buffer_counts(fn, rule):
    out = set()
    for direction in ("sent", "recv"):
        expr = (rule or {}).get(direction) or ""
        out.update(side_counts(fn, re.sub(r'@\w+$', '', expr).split("*")))
    return out


def argument_lines(fn, rule, v=None):
    """The checks of single arguments (read through view v; through a
    Fortran one not the pointers: every argument is a reference there)."""
    has, out = fn.by_name, []
    v = v or CView(fn)
    counted = (BUFFERS & set(has)) or "array_of_requests" in has or "newtype" in has
    for name in COUNTS:
        if counted and scalar(fn, name, "int", "MPI_Count") and name not in buffer_counts(fn, rule):
            out.append("mpp_chk_count(&mpp_chk, \"%s\", %s);" % (name, v(name)))
    comm = scalar(fn, "comm", "MPI_Comm")
    for name, receive in (("dest", 0), ("source", 1)):
        if comm and scalar(fn, name, "int"):
            out.append("mpp_chk_rank(&mpp_chk, \"%s\", %s, %d);" % (name, v(name), receive))
    if comm and scalar(fn, "root", "int"):
        out.append("mpp_chk_root(&mpp_chk, %s);" % v("root"))
    if "dest" in has or "source" in has:
        for name in ("tag", "sendtag", "recvtag"):
            receive = name == "recvtag" or (name == "tag" and "dest" not in has)
            if scalar(fn, name, "int"):
                out.append("mpp_chk_tag(&mpp_chk, \"%s\", %s, %d);" % (name, v(name), receive))
    if scalar(fn, "op", "MPI_Op"):
        out.append("mpp_chk_op(&mpp_chk, %s);" % v("op"))
    if scalar(fn, "oldtype", "MPI_Datatype"):
        out.append("mpp_chk_type(&mpp_chk, \"oldtype\", %s);" % v("oldtype"))
    if v.fortran:
        return out
    if pointer(fn, "request", "MPI_Request"):
        out.append("mpp_chk_null(&mpp_chk, \"request\", request == NULL);")
    if pointer(fn, "status", "MPI_Status"):
        out.append("mpp_chk_null(&mpp_chk, \"status\", status == NULL && status != MPI_STATUS_IGNORE);")
    n = array_length(fn)
    if "array_of_requests" in has and n in has:
        out.append("mpp_chk_null(&mpp_chk, \"array_of_requests\", array_of_requests == NULL && %s > 0);" % n)
    if "array_of_statuses" in has and n in has:
        out.append("mpp_chk_null(&mpp_chk, \"array_of_statuses\", array_of_statuses == NULL && "
                   "array_of_statuses != MPI_STATUSES_IGNORE && %s > 0);" % n)
    return out


def before(fn, rule):
    """The wrapper's lines before the PMPI call (after its mode is known)."""
    comm = scalar(fn, "comm", "MPI_Comm")
    args, bufs = argument_lines(fn, rule), buffer_lines(fn, rule)
    outs = outputs(fn)
    out = ["    %s mpp_chk_%s = %s;" % (("MPI_Datatype", t, "MPI_DATATYPE_NULL") if f == "mpp_chk_type_out"
                                      else ("MPI_Comm", t, "MPI_COMM_NULL")) for t, f in outs]
    capture = ["if (%s) mpp_chk_%s = *%s;" % (t, t, t) for t, _ in outs]
    if frees_comm(fn):  # known freed before MPI can give the handle to another thread's new communicator
        capture = ["if (%s) {" % t for t, _ in outs] + \
            ["    mpp_chk_%s = *%s;" % (t, t) for t, _ in outs] + \
            ["    mpp_chk_comm_out(mpp_chk_%s, MPI_COMM_NULL, 1);" % t for t, _ in outs] + ["}"]
    if not (args or bufs):
        return out + (["    if (MPP_CHK_ON()) {"] + ["        " + c for c in capture] + ["    }"] if outs else [])
    body = ["mpp_chk_begin(&mpp_chk, &call, %s, %d);" % ("comm" if comm else "MPI_COMM_NULL", comm)] + args
    if bufs and comm:  # counts of P, the rank, significance: comm's (not asked of a null or freed one)
        body += ["if (mpp_chk.comm != MPI_COMM_NULL) {"] + ["    " + b for b in bufs] + ["}"]
    else:
        body += bufs
    if bufs:
        body.append("mpp_chk_end(&mpp_chk, %d);" % ("persistent" in fn.actions))
    body += capture
    return ["    mpp_chk_t mpp_chk;"] + out + ["    if (MPP_CHK_ON()) {"] + ["        " + b for b in body] + ["    }"]


def after(fn, rule, arr, n):
    """The wrapper's lines after mpp_call_end: requests created, handled;
    datatype handles left."""
    body = []
    tracked = any("MPP_CHK_TRACK" in b for b in buffer_lines(fn, rule))
    if tracked and "rma-op" in fn.checks:  # origin buffers pending until the epoch closes (or the request completes)
        body.append("if (ret == MPI_SUCCESS) mpp_chk_rma_issued(&mpp_chk, win, target_rank, %s, "
                    "__builtin_return_address(0));" % ("*request" if "request" in fn.actions else "MPI_REQUEST_NULL"))
    elif tracked and fn.actions & {"request", "persistent"}:
        body.append("if (ret == MPI_SUCCESS) mpp_chk_created(&mpp_chk, *request, %d, __builtin_return_address(0));"
                    % ("persistent" in fn.actions))
    for action, what in (("complete", "MPP_CHK_COMPLETE"), ("free", "MPP_CHK_FREE"), ("start", "MPP_CHK_START")):
        if action in fn.actions:
            call = "mpp_chk_handled(&call, &handled, %s, %s, %s);" % (arr, n, what)
            body.append("if (ret == MPI_SUCCESS) " + call if action == "start" else call)
    for t, told in outputs(fn):
        if frees_comm(fn):  # marked freed before the call: not freed after all
            body.append("if (ret != MPI_SUCCESS && %s) mpp_chk_comm_out(MPI_COMM_NULL, mpp_chk_%s, 0);" % (t, t))
        elif told == "mpp_chk_comm_out":
            body.append("if (ret == MPI_SUCCESS && %s) mpp_chk_comm_out(mpp_chk_%s, *%s, 0);" % (t, t, t))
        else:
            body.append("if (ret == MPI_SUCCESS && %s) %s(mpp_chk_%s, *%s);" % (t, told, t, t))
    if type_arrays(fn):
        body.append("mpp_chk_unseen(0, 1);")
    if not body:
        return []
    return ["    if (MPP_CHK_ON()) {"] + ["        " + b for b in body] + ["    }"]


def unseen_args(fn):
    """What a call of fn that is not profiled makes the checks forget."""
    requests = bool(fn.actions & {"complete", "free"})
    types = bool(outputs(fn) or type_arrays(fn))
    return (int(requests), int(types)) if requests or types else None


def passthrough(fn, call):
    """The wrapper's lines for a call it does not profile."""
    forget = unseen_args(fn)
    if not forget:
        return ["    if (!mpp_mode)", "        return %s;" % call]
    return ["    if (!mpp_mode) {", "        if (MPP_CHK_ON())", "            mpp_chk_unseen(%d, %d);" % forget,
            "        return %s;" % call, "    }"]


def f08_before(fn, rule, v):
    """An mpi_f08 (or Open MPI Fortran) entry point's lines before the
    call: the checks of single arguments and of the buffers' counts and
    datatypes, read through view v (no buffer's address, no pointer; no
    handle followed)."""
    args, bufs = argument_lines(fn, rule, v), buffer_lines(fn, rule, v)
    if not (args or bufs):
        return []
    has_comm = scalar(fn, "comm", "MPI_Comm")
    body = ["mpp_chk_begin(&mpp_chk, &call, %s, %d);" % (v("comm") if has_comm else "MPI_COMM_NULL", has_comm)]
    body += args
    if bufs and has_comm:
        body += ["if (mpp_chk.comm != MPI_COMM_NULL) {"] + ["    " + b for b in bufs] + ["}"]
    else:
        body += bufs
    return ["    mpp_chk_t mpp_chk;", "    if (MPP_CHK_ON()) {"] + ["        " + b for b in body] + ["    }"]


def f08_after(fn):
    """An mpi_f08 (or Open MPI Fortran) entry point's lines after
    mpp_call_end: requests it completed or freed leave (which ones it does
    not tell); datatype calls are not followed."""
    body = []
    if fn.actions & {"complete", "free"}:
        body.append("mpp_chk_forget(&handled);")
    if outputs(fn) or type_arrays(fn):
        body.append("mpp_chk_unseen(0, 1);")
    return ["    if (MPP_CHK_ON()) {"] + ["        " + b for b in body] + ["    }"] if body else []
