"""The wait-state analysis' hooks of a generated wrapper
(src/intercept/waitstates/hooks.h) and the communication matrix's
(matrix_hook.h), for gen_wrappers.py: they follow a function's @sync role
(send, recv, ..., newcomm) and, in waits and tests, the requests the call
completed (COMPLETIONS, which the checks' and trace mode's hooks read
too).  The arguments are read through a view (gen_views.py)."""


def sync_role(fn, sync_rules):
    """The @sync role of a function (None: none)."""
    return sync_rules.get(fn.base, sync_rules.get(fn.operation()))


def new_comm_param(fn):
    outs = [p.name for p in fn.params if p.type == "MPI_Comm *"]
    if len(outs) != 1:
        raise SystemExit("%s: @sync newcomm needs exactly one MPI_Comm * parameter" % fn.name)
    return outs[0]


def parent_comm_param(fn):
    """The communicator a @sync newcomm constructor is collective over."""
    ins = [p.name for p in fn.params if p.type == "MPI_Comm"]
    if len(ins) != 1:
        raise SystemExit("%s: @sync newcomm needs exactly one MPI_Comm parameter (the parent)" % fn.name)
    return ins[0]


def comm_created(fn, role, view):
    """The hook of a communicator constructor (@sync newcomm, groupcomm,
    idup), its arguments as view gives them."""
    has = fn.by_name
    new = view.out(new_comm_param(fn))
    if role == "newcomm":
        return "mpp_comm_created(%s, %s);" % (view(parent_comm_param(fn)), new)
    if role == "idup":  # the handle is written when the request completes: its address
        return "mpp_ws_comm_idup(&call, %s, %s, %d, %s);" % (view("comm"), new_comm_param(fn), view.fortran,
                                                            view.out("request"))
    parent = view("comm") if "comm" in has else "MPI_COMM_NULL"
    tag = view("tag") if "tag" in has else "-1"
    if "stringtag" not in has:
        stringtag = "NULL, 0"
    elif view.fortran:  # a CHARACTER argument: its length is the first hidden one
        stringtag = "(const char *)stringtag, (size_t)len0"
    else:
        stringtag = "stringtag, stringtag ? strlen(stringtag) : 0"
    return "mpp_comm_created_by_group(%s, %s, %s, %s);" % (parent, tag, stringtag, new)


# Completion calls: (how many completed, the parameter of their indexes
# (None: all of them), their statuses, the condition that any did; None:
# always) - from MPI's parameter names, read through a view.
COMPLETIONS = {
    "Wait": ("1", None, "status", None),
    "Test": ("1", None, "status", "flag"),
    "Waitall": ("count", None, "array_of_statuses", None),
    "Testall": ("count", None, "array_of_statuses", "flag"),
    "Waitany": ("1", "indx", "status", "indx"),
    "Testany": ("1", "indx", "status", "flag indx"),
    "Waitsome": ("outcount", "array_of_indices", "array_of_statuses", "outcount"),
    "Testsome": ("outcount", "array_of_indices", "array_of_statuses", "outcount"),
}


def completion_code(fn, view, hook="mpp_ws_completed"):
    """The hook of a wait or test (the wait-state analysis', or trace
    mode's): the requests it completed, with their statuses.  Indexes of
    mpi_f08 calls are converted to C's (mpp_f08_indices, from the base
    sync_before found)."""
    n, which, statuses, cond = COMPLETIONS[fn.base]
    count = "1" if n == "1" else view.out(n) if n == "outcount" else view(n)
    tests = []
    for word in (cond or "").split():
        # flag: set; an index or count: defined
        tests.append(view.out(word) + ("" if word == "flag" else " != MPI_UNDEFINED"))
    statuses = (view.status if statuses == "status" else view.statuses)(statuses)
    if not which:
        call = "%s(&call, &handled, %s, NULL, %s);" % (hook, count, statuses)
    elif not view.fortran:
        call = "%s(&call, &handled, %s, %s, %s);" % (hook, count, which, statuses)
    else:
        tests.append("(mpp_ws_which = mpp_f08_indices(%s, %s, mpp_ws_base))" % (which, count))
        call = "%s(&call, &handled, %s, mpp_ws_which, %s);" % (hook, count, statuses)
    out = ["const int *mpp_ws_which;"] if which and view.fortran else []
    return out + [("if (%s) " % " && ".join(tests) if tests else "") + call]


def sync_before(fn, sync_rules, view):
    """Wait-state code before the PMPI call: statuses the analysis reads even
    when the program ignores them, a freed communicator's last batches, the
    message a matched receive takes, where an mpi_f08 binding's indexes
    begin."""
    role = sync_role(fn, sync_rules)
    out = []
    ws = "MPP_UNLIKELY(mpp_ws_on)"
    # statuses and indexes: trace mode reads them too
    wst = "MPP_UNLIKELY(mpp_ws_on || mpp_trace_on)"
    if "status" in fn.by_name and (role in ("recv", "sendrecv", "probe", "mrecv") or
                                   fn.base in COMPLETIONS):
        # Not only when the analysis is on: a status MPI fills costs less
        # than testing the switch.  (An mpi_f08 TYPE(MPI_Status) has the
        # layout of MPI_Status.)
        out += ["    MPI_Status mpp_ws_status;",
                "    if (status == %s)" % view.status_ignore,
                "        status = &mpp_ws_status;"]
    if "array_of_statuses" in fn.by_name and fn.base in COMPLETIONS:
        n = view("count" if "count" in fn.by_name else "incount")
        if view.fortran:  # a failed scratch allocation keeps ignoring them
            out += ["    if (%s && array_of_statuses == %s) {" % (wst, view.statuses_ignore),
                    "        MPI_Status *mpp_ws_scratch = mpp_ws_statuses(%s);" % n,
                    "        if (mpp_ws_scratch != MPI_STATUSES_IGNORE)",
                    "            array_of_statuses = mpp_ws_scratch;",
                    "    }"]
        else:
            out += ["    if (%s && array_of_statuses == MPI_STATUSES_IGNORE)" % wst,
                    "        array_of_statuses = mpp_ws_statuses(%s);" % n]
    if view.fortran and fn.base in COMPLETIONS and COMPLETIONS[fn.base][1]:
        out += ["    int mpp_ws_base = MPP_UNLIKELY(mpp_ws_on || mpp_trace_on || mpp_check_level) ? %s : 0;"
                % view.index_base]
    if role == "freecomm":
        out += ["    if (%s && comm)" % ws, "        mpp_ws_comm_freeing(%s);" % view.out("comm")]
    if role == "mrecv":
        out += ["    MPI_Message mpp_ws_message = message ? %s : MPI_MESSAGE_NULL;" % view.out("message")]
    return out


def sync_after(fn, sync_rules, view):
    """Wait-state code after mpp_call_end (the call's cell is known)."""
    role = sync_role(fn, sync_rules)
    has = fn.by_name
    v, out = view, view.out
    body = []
    if role == "send":
        body.append("mpp_ws_send(&call, %s, %s, %s);" % (v("comm"), v("dest"), v("tag")))
    elif role == "recv":
        body.append("mpp_ws_recv(&call, %s, %s);" % (v("comm"), v.status("status")))
    elif role == "sendrecv":
        body.append("mpp_ws_send(&call, %s, %s, %s);" % (v("comm"), v("dest"), v("sendtag")))
        if "request" in has:
            body.append("mpp_ws_irecv(&call, %s, %s, %s, %s, 0);"
                        % (v("comm"), v("source"), v("recvtag"), out("request")))
        else:
            body.append("mpp_ws_recv(&call, %s, %s);" % (v("comm"), v.status("status")))
    elif role == "irecv":
        body.append("mpp_ws_irecv(&call, %s, %s, %s, %s, %d);"
                    % (v("comm"), v("source"), v("tag"), out("request"), "persistent" in fn.actions))
    elif role == "psend":
        body.append("mpp_ws_send_init(&call, %s, %s, %s, %s);" % (v("comm"), v("dest"), v("tag"), out("request")))
    elif role == "probe":
        msg = out("message") if "message" in has else "MPI_MESSAGE_NULL"
        call = "mpp_ws_probe(&call, %s, %s, %s);" % (v("comm"), v.status("status"), msg)
        body.append(("if (%s) " % out("flag") + call) if "flag" in has else call)
    elif role == "mrecv":
        if "request" in has:
            body.append("mpp_ws_imrecv(&call, mpp_ws_message, %s);" % out("request"))
        else:
            body.append("mpp_ws_mrecv(&call, mpp_ws_message, %s);" % v.status("status"))
    elif role in ("newcomm", "groupcomm", "idup"):
        body.append(comm_created(fn, role, view))
    elif fn.cls == "collective" and "comm" in has:
        if "request" in has:
            body.append("mpp_ws_icollective(&call, %s, %s, %d);"
                        % (v("comm"), out("request"), "persistent" in fn.actions))
        else:
            body.append("mpp_ws_collective(&call, %s);" % v("comm"))
    if fn.base in COMPLETIONS:
        body += completion_code(fn, view)
    elif "start" in fn.actions:
        body.append("mpp_ws_started(&call, &handled);")
    elif "free" in fn.actions:
        body.append("mpp_ws_freed(&handled);")
    if not body:
        return []
    if role == "probe" and "flag" in has:  # a probe loop mostly finds nothing: test that first
        return ["    if (%s && MPP_UNLIKELY(mpp_ws_on) && %s)" % (out("flag"), view.ok), "        " + call]
    return (["    if (MPP_UNLIKELY(mpp_ws_on) && %s) {" % view.ok] + ["        " + b for b in body] + ["    }"])


def matrix_role(fn, sync_rules):
    """How the communication matrix counts a call (the function table's
    MPP_FMATRIX_*, which mpiprof-analyze replays by): a send (a persistent
    one's message is not counted; MPI_Isendrecv's receive is not either), a
    blocking receive, MPI_Sendrecv (both sides), a nonblocking receive's
    posting; None: not at all."""
    role = sync_role(fn, sync_rules)
    if role == "send" or (role == "sendrecv" and "request" in fn.by_name):
        return "send"
    if role in ("recv", "sendrecv"):
        return role
    if role == "irecv" and "persistent" not in fn.actions:
        return "irecv"
    return None


def matrix_after(fn, sync_rules, view):
    """The communication matrix's hook (matrix_hook.h) after a counted
    point-to-point call that succeeded, by its matrix_role."""
    role = matrix_role(fn, sync_rules)
    v = view
    if role == "send":
        call = "mpp_matrix_send(&call, %s, %s);" % (v("comm"), v("dest"))
    elif role == "recv":
        call = "mpp_matrix_recv(&call, %s, %s);" % (v("comm"), v.status("status"))
    elif role == "sendrecv":
        call = "mpp_matrix_sendrecv(&call, %s, %s, %s);" % (v("comm"), v("dest"), v.status("status"))
    elif role == "irecv":
        call = "mpp_matrix_irecv(&call, %s, %s);" % (v("comm"), v("source"))
    else:
        return []
    return ["    if (mpp_matrix_on && call.cell && %s)" % view.ok, "        " + call]
