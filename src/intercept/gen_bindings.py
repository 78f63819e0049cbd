"""The entry points of an MPI function, for gen_wrappers.py: its C wrapper
(wrapper), MPICH's mpi_f08 entry point (f08_wrapper) and Open MPI's
Fortran ones (ompi_fortran_wrappers), each the same frame (begin, the
path of a call not profiled, the PMPI call, stop, end) around the code of
gen_measure.py (bytes, model price), gen_sync.py (wait states, matrix),
gen_trace.py (trace mode), gen_check_hooks.py, gen_checks.py and
gen_rma.py (correctness checks), the arguments read through a view
(gen_views.py)."""
import re

import gen_checks
import gen_rma
from gen_check_hooks import (check_after, check_before, check_between, check_outside,
                             check_request_state)
from gen_description import CATEGORY
from gen_measure import bytes_code, model_code
from gen_sync import matrix_after, sync_after, sync_before
from gen_trace import trace_after
from gen_views import CView, F08View, OmpiFortranView


def request_array(fn):
    """(C expression of the MPI_Request array, its length) a call handles."""
    if "array_of_requests" in fn.by_name:
        n = "count" if "count" in fn.by_name else "incount"
        return "array_of_requests", n
    p = fn.by_name["request"]
    return ("request" if "*" in p.type else "&request"), "1"


def watch_code(fn, view, handles):
    """The hang watchdog's record of the call (src/intercept/watch_support.h):
    one line before the PMPI call, a predicted branch while
    MPIPROF_HANG_TIMEOUT is unset.  Roles by parameter name, as in
    model_code (gen_measure.py); a count only when it counts the elements
    of a buffer."""
    has = fn.by_name

    def scalar(*names):
        for name in names:
            p = has.get(name)
            if p and not p.array and ("*" not in p.type or view.fortran):
                return view(name)
        return "MPP_WATCH_NONE"

    comm = "MPI_COMM_NULL"
    if "comm" in has:
        comm = "*comm" if "*" in has["comm"].type and not view.fortran else view("comm")
    buffers = {"buf", "sendbuf", "recvbuf", "buffer", "inbuf", "outbuf", "origin_addr"}
    count = scalar("count", "sendcount", "recvcount") if buffers & set(has) else "MPP_WATCH_NONE"
    count = "-1" if count == "MPP_WATCH_NONE" else "(int64_t)" + count
    keys = "handled.keys, handled.n" if handles else "NULL, 0"
    return ["    MPP_WATCH_ENTER(mpp_mode, &call, %s, %s, %s, %s, %s, %s, %s, %s);"
            % (keys, comm, scalar("dest"), scalar("source"), scalar("root"), scalar("tag", "recvtag"),
               scalar("sendtag"), count)]


def call_uses(fn, bytes_lines, model_lines, handles):
    """What the call uses besides its time (MPP_USES_*, thread_state.h): the
    inline fast path sets and adds only that."""
    uses = []
    # MPI_Start(all) adds the bytes and model price its persistent requests
    # were created with (mpp_reqset_before); a persistent request keeps
    # them from its creating call, so that call has them set (zero when it
    # has no rule: MPI_Barrier_init's were left unset and its MPI_Start
    # added whatever the stack held).
    keeps = "start" in handles or "persistent" in fn.actions
    if bytes_lines or keeps:
        uses.append("MPP_USES_BYTES")
    if model_lines or keeps:
        uses.append("MPP_USES_MODEL")
    if handles or fn.actions & {"request", "persistent"}:
        uses.append("MPP_USES_REQUESTS")
    return " | ".join(uses) or "0"


def call_end(fn, category, uses):
    return ("    mpp_call_end(&call, mpp_mode, %s, %s, %s, __builtin_return_address(0), __builtin_frame_address(0));"
            % (fn.fid, category, uses))


def wrapper(fn, bytes_rules, model_rules, sync_rules, names=frozenset()):
    params = ", ".join(p.text for p in fn.params) or "void"
    args = ", ".join(p.name for p in fn.params)
    head = "%s %s(%s)" % (fn.ret, fn.name, params)
    if fn.cls == "untimed":
        return ["MPP_EXPORT %s" % head, "{", "    return %s(%s);" % (fn.pname, args), "}", ""]
    out = []
    if "fortranlib" in fn.actions:
        # Implemented by the MPI Fortran library, which a C program may not
        # link: reference it weakly and fail like MPI when it is absent.
        out += ["#pragma weak %s" % fn.pname]
    out += ["MPP_EXPORT %s" % head, "{"]
    if "fortranlib" in fn.actions:
        out += ["    if (!%s)" % fn.pname, "        return MPI_ERR_OTHER;"]
    handles = fn.actions & {"complete", "start", "cancel", "free"}
    rule = bytes_rules.get(fn.operation())
    bytes_lines = bytes_code(fn, rule, CView(fn)) if rule else []
    model_lines = model_code(fn, model_rules, CView(fn), "ret == MPI_SUCCESS")
    uses = call_uses(fn, bytes_lines, model_lines, handles)
    out += check_before(fn, CView(fn))
    out += ["    mpp_call_t call;",
            "    int mpp_mode = mpp_call_begin(&call, %s, %s, __builtin_frame_address(0));" % (fn.fid, uses)]
    unprofiled = ["    return %s(%s);" % (fn.pname, args)]
    forget = gen_checks.unseen_args(fn)
    if forget:  # requests and datatypes the buffer checks follow, changed where they cannot see
        unprofiled = ["    if (MPP_CHK_ON())", "        mpp_chk_unseen(%d, %d);" % forget] + unprofiled
    out += check_outside(fn, gen_rma.unseen(fn, CView(fn)) + unprofiled)
    out += gen_checks.before(fn, rule)
    out += gen_rma.before(fn, CView(fn))
    arr, n = request_array(fn) if handles else (None, None)
    if handles:
        out += ["    mpp_reqset_t handled;",
                "    mpp_reqset_before(&call, &handled, %s, %s, %d);" % (arr, n, "start" in handles)]
        out += check_request_state(fn)
    out += sync_before(fn, sync_rules, CView(fn))
    out += watch_code(fn, CView(fn), handles)
    out += ["    %s ret = %s(%s);" % (fn.ret, fn.pname, args), "    mpp_call_stop(&call, mpp_mode);"]
    if handles:
        out.append("    mpp_reqset_after(&call, &handled, %s, %s, %d);" % (arr, n, "complete" in handles))
    out += bytes_lines + model_lines
    if fn.actions & {"request", "persistent"}:
        kind = CATEGORY[fn.cls]
        out.append("    if (ret == MPI_SUCCESS) mpp_request_created(&call, *request, %s, %d);"
                   % (kind, "persistent" in fn.actions))
    out += [call_end(fn, CATEGORY[fn.cls], uses)]
    out += check_after(fn, CView(fn))
    out += gen_checks.after(fn, rule, arr, n)
    out += check_between(fn, sync_rules, names, CView(fn))
    if fn.ret == "int":  # (after the message checks: a truncation they report is no mpi-error)
        out.append("    if (MPP_CHECKS_ON(MPP_CHECK_BASIC) && ret != MPI_SUCCESS) mpp_check_mpi_error(&call, ret);")
    out += sync_after(fn, sync_rules, CView(fn))
    out += matrix_after(fn, sync_rules, CView(fn))
    out += trace_after(fn, sync_rules, CView(fn), "MPP_USES_BYTES" in uses)
    out += ["    return ret;", "}", ""]
    return out


def f08_symbol(fn, profiling=False):
    """MPICH's mpi_f08 symbol of a function: mpi_send_f08ts_, its large-count
    mpi_send_f08ts_large_, and the profiling versions pmpir_..., pmpixr_..."""
    m = re.match(r'^(MPIX?)_(\w+?)(_c)?$', fn.name)
    family = m.group(1).lower()
    prefix = "p%sr" % family if profiling else family
    variant = "f08ts" if "f08ts" in fn.actions else "f08"
    return "%s_%s_%s_%s" % (prefix, m.group(2).lower(), variant, "large_" if m.group(3) else "")


def f08_wrapper(fn, bytes_rules, model_rules, sync_rules, mine=None, real=None, view=None, ret="intptr_t",
                names=frozenset()):
    """An mpi_f08 entry point: times the call and forwards every argument
    (references, then ierror, then the hidden lengths of CHARACTER
    arguments) to MPICH's pmpir_ entry point, referenced weakly because
    only Fortran programs load the library that defines it.  Bytes, model,
    requests and wait states as in the C wrapper, from the arguments read
    through F08View (the checks between processes too: a Fortran INTEGER
    sent and REAL received is a wrong-datatype; and the argument checks
    that need no buffer's address).  MPICH's pmpir_*_f08ts_ entry points call the C MPI_
    functions (their MPIR_*_cdesc glue), the others PMPI_: a C wrapper
    reached so finds its thread inside this call and passes the call
    through (mpp_call_enter), so each call counts once, here."""
    nchar = sum(1 for p in fn.params if "char" in p.type)
    params = [p.name for p in fn.params] + ["ierror"] + ["len%d" % i for i in range(nchar)]
    decl = ", ".join("void *%s" % n for n in params)
    args = ", ".join(params)
    mine, real = mine or f08_symbol(fn), real or f08_symbol(fn, profiling=True)
    category = CATEGORY[fn.cls]
    out = ["%s %s(%s) __attribute__((weak));" % (ret, real, decl),
           "MPP_EXPORT %s %s(%s)" % (ret, mine, decl), "{",
           "    if (MPP_UNLIKELY(!%s))" % real,
           '        mpp_f08_missing("%s", "%s");' % (mine, real)]
    view = view or F08View(fn)
    # a void entry point (Open MPI's) returns nothing
    pre, args, post = f08_errhandler(fn, args)
    out += pre
    call_real = ("%s(%s)" % (real, args)) if ret == "void" else None
    handles = fn.actions & {"complete", "start", "cancel", "free"}
    rule = bytes_rules.get(fn.operation())
    bytes_lines = bytes_code(fn, rule, view) if rule else []
    model_lines = model_code(fn, model_rules, view, "mpp_f08_ok(ierror)")
    uses = call_uses(fn, bytes_lines, model_lines, handles)
    out += check_before(fn, view)
    out += ["    mpp_call_t call;",
            "    int mpp_mode = mpp_call_begin(&call, %s, %s, __builtin_frame_address(0));" % (fn.fid, uses)]
    unseen = gen_rma.unseen(fn, view)
    if call_real:
        out += check_outside(fn, unseen + ["    %s;" % call_real] + post + ["    return;"])
    elif post:
        out += check_outside(fn, unseen + ["    intptr_t ret = %s(%s);" % (real, args)] + post + ["    return ret;"])
    else:
        out += check_outside(fn, unseen + ["    return %s(%s);" % (real, args)])
    out += gen_checks.f08_before(fn, rule, view)
    out += gen_rma.before(fn, view)
    if handles:
        if "array_of_requests" in fn.by_name:
            n = "*(const int *)%s" % ("count" if "count" in fn.by_name else "incount")
            arr = view.requests("array_of_requests", n)
        else:
            arr, n = view.requests("request", "1"), "1"
        out += ["    mpp_reqset_t handled;",
                "    mpp_reqset_before(&call, &handled, %s, %s, %d);" % (arr, n, "start" in handles)]
        out += check_request_state(fn)
    out += sync_before(fn, sync_rules, view)
    out += watch_code(fn, view, handles)
    if call_real:
        out += ["    %s;" % call_real, "    mpp_call_stop(&call, mpp_mode);"]
    else:
        out += ["    intptr_t ret = %s(%s);" % (real, args), "    mpp_call_stop(&call, mpp_mode);"]
    out += post
    if handles:  # (Open MPI: the handles converted again, as the call left them)
        out.append("    mpp_reqset_after(&call, &handled, %s, %s, %d);" % (arr, n, "complete" in handles))
    out += bytes_lines + model_lines
    if fn.actions & {"request", "persistent"}:
        out.append("    if (mpp_f08_ok(ierror)) mpp_request_created(&call, PMPI_Request_f2c(*(MPI_Fint *)request), %s, %d);"
                   % (category, "persistent" in fn.actions))
    out += [call_end(fn, category, uses)]
    out += check_after(fn, view)
    out += gen_checks.f08_after(fn)
    out += check_between(fn, sync_rules, names, view)
    out.append("    if (MPP_CHECKS_ON(MPP_CHECK_BASIC) && !mpp_f08_ok(ierror)) mpp_check_mpi_error(&call, *(int *)ierror);")
    out += sync_after(fn, sync_rules, view)
    out += matrix_after(fn, sync_rules, view)
    out += trace_after(fn, sync_rules, view, "MPP_USES_BYTES" in uses)
    out += ["    return;" if call_real else "    return ret;", "}", ""]
    return out


def f08_errhandler(fn, args):
    """A Fortran entry point of a function marked +errhandler calls MPI's
    own, which calls PMPI_ (not the C wrapper): the program's view of error
    handlers by its handles, around that call, profiled or not (errors.h).
    Lines before it, its arguments, lines after it."""
    if "errhandler" not in fn.actions:
        return [], args, []
    pre, post = [], []
    eh = fn.by_name.get("errhandler")
    if eh and "*" not in eh.type:  # set: ours for a fatal one
        pre = ["    MPI_Fint mpp_eh = mpp_errh_f08_in(%s, errhandler);" % fn.fid]
        args = ", ".join("&mpp_eh" if a == "errhandler" else a for a in args.split(", "))
    elif eh:  # get: the one ours stands in for
        post = ["    if (mpp_f08_ok(ierror)) mpp_errh_f08_out(%s, errhandler);" % fn.fid]
    if "win" in fn.by_name and "*" in fn.by_name["win"].type:  # a new window
        post = ["    if (mpp_f08_ok(ierror)) mpp_errh_f08_new_win(win);"]
    return pre, args, post


def fortran_exports(paths):
    """The Fortran entry points the MPI Fortran libraries define."""
    import subprocess
    names = set()
    for path in paths:
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True,
                             check=True).stdout
        names |= {line.split()[-1] for line in out.splitlines() if line.split()}
    return names


def ompi_fortran_wrappers(fn, bytes_rules, model_rules, sync_rules, exported, names):
    """Open MPI's Fortran entry points of fn that its Fortran libraries
    define: mpi_NAME_ (mpif.h, use mpi) and mpi_NAME_f08_ (use mpi_f08),
    each forwarding to its pmpi_ twin.  Both call PMPI_ directly (through
    ompi_NAME_f), so the C wrapper does not see the call."""
    base = re.sub(r'^MPI_', '', fn.name).lower()
    out = []
    for mine in ("mpi_%s_" % base, "mpi_%s_f08_" % base):
        if mine in exported and "p" + mine in exported:
            out += f08_wrapper(fn, bytes_rules, model_rules, sync_rules, mine=mine, real="p" + mine,
                               view=OmpiFortranView(fn), ret="void", names=names)
    return out
