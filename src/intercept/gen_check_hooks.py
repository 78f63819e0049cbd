"""The correctness checks' hooks of a generated wrapper, for
gen_wrappers.py: those of the @check roles (src/intercept/check/local.h:
handles created and freed, requests' states, call-outside-mpi on the path
of a call not profiled) and the checks between processes (messages.h,
collectives.h) on the calls the wait-state analysis follows.  The argument
and buffer checks are gen_checks.py's, the one-sided ones gen_rma.py's."""
import re

import gen_rma
from gen_sync import COMPLETIONS, completion_code, sync_role


def coll_args(fn, names, v):
    """A collective's arguments for the checks (mpp_chk_coll_t), read
    through view v."""
    has = fn.by_name
    op = "MPI_" + fn.operation()
    fields = [".operation = MPP_FN_%s" % (op if op in names else fn.name)]
    if "request" in has and "persistent" not in fn.actions:
        fields.append(".nonblocking = 1")
    if "root" in has:
        fields += [".has_root = 1", ".root = %s" % v("root")]
    for name in ("sendbuf", "recvbuf"):
        if name in has:
            fields.append(".%s = %s" % (name, v.in_place(name)))
    for name in ("op", "sendcount", "recvcount", "sendtype", "recvtype", "count"):
        if name in has:
            fields.append(".%s = %s" % (name, v(name)))
    if "datatype" in has:
        fields.append(".type = %s" % v("datatype"))
        if "recvcount" in has and "count" not in has:  # MPI_Reduce_scatter_block
            fields.append(".count = %s" % v("recvcount"))
    if "recvcounts" in has:
        fields.append(".recvcounts%s = %s" % ("_c" if "MPI_Count" in has["recvcounts"].type else "", v("recvcounts")))
    return "&(mpp_chk_coll_t){%s}" % ", ".join(fields)


def check_between(fn, sync_rules, names, v):
    """The checks between processes, after mpp_call_end and before the
    wait-state hooks (the instance a collective makes takes its values; a
    matched receive's probe is still known), the arguments read through
    view v.  A receive that returned a truncation took its message all the
    same."""
    role = sync_role(fn, sync_rules)
    has = fn.by_name
    err = v.error
    ok, took = v.ok, "mpp_chk_took_message(%s)" % err
    body = []

    def args(*names_):
        return ", ".join(v.buffer(x) if x.endswith("buf") else v(x) for x in names_)

    if role == "send":
        body.append((ok, "mpp_chk_send(&call, %s);" % args("comm", "dest", "tag", "buf", "count", "datatype")))
    elif role == "recv":
        body.append((took, "mpp_chk_recv(&call, %s, %s, %s, %s);"
                     % (v("comm"), v.status("status"), args("buf", "count", "datatype"), err)))
    elif role == "sendrecv":
        s = ("buf", "count", "datatype") if "sendbuf" not in has else ("sendbuf", "sendcount", "sendtype")
        r = ("buf", "count", "datatype") if "recvbuf" not in has else ("recvbuf", "recvcount", "recvtype")
        # a _replace form's buffer holds the received message by now: no checksum
        send = ("mpp_chk_send(&call, %s);" % args("comm", "dest", "sendtag", *s) if "sendbuf" in has
                else "mpp_chk_send_replaced(&call, %s);" % args("comm", "dest", "sendtag", "count", "datatype"))
        if "request" in has:
            body.append((ok, send))
            body.append((ok, "mpp_chk_irecv(&call, %s, %s, 0);" % (args("comm", "source", "recvtag", *r),
                                                                   v.out("request"))))
        else:
            body.append((took, send))
            body.append((took, "mpp_chk_recv(&call, %s, %s, %s, %s);"
                         % (v("comm"), v.status("status"), args(*r), err)))
    elif role == "irecv":
        body.append((ok, "mpp_chk_irecv(&call, %s, %s, %d);" % (args("comm", "source", "tag", "buf", "count", "datatype"),
                                                                v.out("request"), "persistent" in fn.actions)))
    elif role == "psend":
        body.append((ok, "mpp_chk_send_init(&call, %s, %s);" % (args("comm", "dest", "tag", "buf", "count", "datatype"),
                                                                v.out("request"))))
    elif role == "mrecv" and "request" in has:
        body.append((ok, "mpp_chk_imrecv(&call, mpp_ws_message, %s, %s);" % (args("buf", "count", "datatype"),
                                                                            v.out("request"))))
    elif role == "mrecv":
        body.append((took, "mpp_chk_mrecv(&call, mpp_ws_message, %s, %s, %s);"
                     % (v.status("status"), args("buf", "count", "datatype"), err)))
    elif fn.cls == "collective" and "comm" in has and "persistent" in fn.actions:
        body.append((ok, "mpp_chk_collective_init(&call, %s, %s, %s);" % (v("comm"), v.out("request"),
                                                                         coll_args(fn, names, v))))
    elif fn.cls == "collective" and "comm" in has:
        body.append((ok, "mpp_chk_collective(&call, %s, %s);" % (v("comm"), coll_args(fn, names, v))))
    if fn.base in COMPLETIONS:
        done = [b.replace("mpp_chk_completed(&call, ", "mpp_chk_completed(&call, %s, " % err)
                for b in completion_code(fn, v, "mpp_chk_completed")]
        body.append(("%s == MPI_SUCCESS || %s == MPI_ERR_IN_STATUS || %s" % (err, err, took), done))
        coll = [re.sub(r'mpp_chk_coll_completed\(&call, (&handled, [^,]+, [^,]+), [^;]*\);',
                       r'mpp_chk_coll_completed(\1);', b)
                for b in completion_code(fn, v, "mpp_chk_coll_completed")]
        body.append((ok, coll))
    elif "start" in fn.actions:
        body.append((ok, "mpp_chk_started(&call, &handled);"))
    elif "free" in fn.actions:
        body.append((ok, ["mpp_chk_freed(&handled);", "mpp_chk_coll_freed_set(&handled);"]))
    elif "cancel" in fn.actions:
        body.append((ok, "mpp_chk_cancelled(&handled);"))
    if not body:
        return []
    out = ["    if (MPP_CHECKS_ON(MPP_CHECK_BASIC)) {"]
    for cond, lines in body:
        lines = lines if isinstance(lines, list) else [lines]
        if len(lines) == 1:
            out += ["        if (%s)" % cond, "            " + lines[0]]
        else:
            out += ["        if (%s) {" % cond] + ["            " + x for x in lines] + ["        }"]
    return out + ["    }"]


def check_outside(fn, lines):
    """The path of a call not profiled (before MPI_Init, after MPI_Finalize,
    MPI's own calls, MPIPROF_DISABLE): `lines` (the PMPI call, return),
    after the call-outside-mpi check of a function the standard does not
    allow outside MPI (one predicted branch: mpp_check_outside_on is set
    only before MPI_Init and after MPI_Finalize)."""
    if "anytime" in fn.checks:
        return ["    if (!mpp_mode)" if len(lines) == 1 else "    if (!mpp_mode) {"] + \
            ["    " + ln for ln in lines] + ([] if len(lines) == 1 else ["    }"])
    return ["    if (!mpp_mode) {",
            "        if (MPP_UNLIKELY(atomic_load_explicit(&mpp_check_outside_on, memory_order_relaxed)))",
            "            mpp_check_outside(%s, __builtin_return_address(0), __builtin_frame_address(0));" % fn.fid] + \
        ["    " + ln for ln in lines] + ["    }"]


def check_before(fn, view):
    """Before the call is begun: a handle freed leaves the leak check's
    table, also when MPI calls the destructor itself (a delete callback)."""
    if not fn.handle or fn.handle[0] != "frees":
        return []
    _, kind, name = fn.handle
    return ["    if (MPP_CHECKS_ON(MPP_CHECK_BASIC) && %s)" % name,
            "        mpp_check_handle_freed(MPP_HANDLE_%s, MPP_HANDLE_KEY(%s));" % (kind.upper(), view.out(name))]


def check_request_state(fn):
    """MPI_Request_free and MPI_Cancel: the request's state before the call."""
    if not fn.actions & {"free", "cancel"}:
        return []
    return ["    int mpp_check_req = MPP_CHECKS_ON(MPP_CHECK_BASIC) ? mpp_check_request_state(&handled) : 0;"]


def check_after(fn, view):
    """The correctness checks' hooks after mpp_call_end (the call's cell,
    whose frames a request or handle keeps, is known), each behind
    MPP_CHECKS_ON."""
    on, ok, out = "MPP_CHECKS_ON(MPP_CHECK_BASIC)", view.ok, []
    if fn.handle and fn.handle[0] == "creates":
        _, kind, name = fn.handle
        out += ["    if (%s && %s)" % (on, ok),
                "        mpp_check_handle_created(&call, MPP_HANDLE_%s, MPP_HANDLE_KEY(%s));"
                % (kind.upper(), view.out(name))]
    if fn.actions & {"request", "persistent"}:
        out += ["    if (%s && call.new_request)" % on, "        mpp_check_request_created(&call);"]
    if "start" in fn.actions:
        out += ["    if (%s && %s)" % (on, ok), "        mpp_check_requests_started(&handled);"]
    if fn.base in COMPLETIONS:  # persistent requests become inactive
        done = "(%s || %s)" % (ok, view.wait_failed()) if fn.base == "Wait" else ok
        out += ["    if (%s && handled.persistent && %s) {" % (on, done)] + \
            ["        " + ln for ln in completion_code(fn, view, "mpp_check_completed")] + ["    }"]
    for action, hook in (("free", "mpp_check_request_freed"), ("cancel", "mpp_check_request_cancelled")):
        if action in fn.actions:
            out += ["    if (MPP_UNLIKELY(mpp_check_req) && %s)" % ok, "        %s(&call, mpp_check_req);" % hook]
    if "peek" in fn.checks:
        out += ["    if (%s && %s && %s)" % (on, ok, view.out("flag")), "        mpp_check_request_peeked(&handled);"]
    if "setattr" in fn.checks:
        out += ["    if (%s && %s)" % (on, ok), "        mpp_check_attr_set(%s);" % view("comm")]
    return out + gen_rma.after(fn, view)
