"""Trace mode's hooks of a generated wrapper (src/intercept/trace_hooks.h),
for gen_wrappers.py: after mpp_call_end, the call's events by its @sync
role, the requests a wait or test completed, and the messages a call that
returned an error took all the same."""
from gen_sync import COMPLETIONS, completion_code, sync_role


def trace_after(fn, sync_rules, view, uses_bytes):
    """Trace mode's hooks after mpp_call_end, in the order of the events'
    times (trace.h): Enter, what happened at the call's entry, what at its
    return, Leave."""
    role = sync_role(fn, sync_rules)
    has = fn.by_name
    v = view
    # the call's fields the fast path sets only for calls that use them
    sent, recv = ("call.bytes_sent", "call.bytes_recv") if uses_bytes else ("0", "0")
    body = []
    # the message's count and type, for the checks' attributes (trace_local.h)
    def ct(count, datatype):
        return "%s, %s" % (v(count), v(datatype))
    if role == "send":
        body.append("mpp_trace_send(&call, %s, %s, %s, %s, %d, %s);"
                    % (v("comm"), v("dest"), v("tag"), sent, "request" in fn.actions, ct("count", "datatype")))
    elif role == "recv":
        body.append("mpp_trace_recv(&call, %s, %s, %s, %s);" % (v("comm"), v.status("status"), recv,
                                                               ct("count", "datatype")))
    elif role == "sendrecv":
        s = ("count", "datatype") if "sendcount" not in has else ("sendcount", "sendtype")
        r = ("count", "datatype") if "recvcount" not in has else ("recvcount", "recvtype")
        body.append("mpp_trace_send(&call, %s, %s, %s, %s, 0, %s);" % (v("comm"), v("dest"), v("sendtag"), sent,
                                                                      ct(*s)))
        if "request" in has:
            body.append("mpp_trace_irecv(&call, %s, %s, %s, %s, %s);" % (v("comm"), v("source"), v("recvtag"), recv,
                                                                        ct(*r)))
        else:
            body.append("mpp_trace_recv(&call, %s, %s, %s, %s);" % (v("comm"), v.status("status"), recv, ct(*r)))
    elif role == "irecv" and "persistent" not in fn.actions:
        body.append("mpp_trace_irecv(&call, %s, %s, %s, %s, %s);" % (v("comm"), v("source"), v("tag"), recv,
                                                                    ct("count", "datatype")))
    elif role == "irecv":
        body.append("mpp_trace_persistent(&call, MPP_TRACE_PRECV, %s, %s, %s, %s);"
                    % (v("comm"), v("source"), v("tag"), ct("count", "datatype")))
    elif role == "psend":
        body.append("mpp_trace_persistent(&call, MPP_TRACE_PSEND, %s, %s, %s, %s);"
                    % (v("comm"), v("dest"), v("tag"), ct("count", "datatype")))
    elif role == "probe":
        msg = v.out("message") if "message" in has else "MPI_MESSAGE_NULL"
        call = "mpp_trace_probe(&call, %s, %s, %s);" % (v("comm"), v.status("status"), msg)
        body.append(("if (%s) " % v.out("flag") + call) if "flag" in has else call)
    elif role == "mrecv":
        if "request" in has:
            body.append("mpp_trace_imrecv(&call, mpp_ws_message, %s, %s);" % (recv, ct("count", "datatype")))
        else:
            body.append("mpp_trace_mrecv(&call, mpp_ws_message, %s, %s, %s);" % (v.status("status"), recv,
                                                                                ct("count", "datatype")))
    elif fn.cls == "collective" and "comm" in has:
        root = v("root") if "root" in has else "MPI_PROC_NULL"
        if "persistent" in fn.actions:
            body.append("mpp_trace_persistent(&call, MPP_TRACE_PCOLLECTIVE, %s, %s, 0, 0, MPI_DATATYPE_NULL);"
                        % (v("comm"), root))
        else:
            body.append("mpp_trace_collective(&call, %s, %s, %s, %s, %d);"
                        % (v("comm"), root, sent, recv, "request" in fn.actions))
    if fn.base in COMPLETIONS:
        body += completion_code(fn, view, "mpp_trace_completed")
    elif "start" in fn.actions:
        body.append("mpp_trace_start_requests(&call, &handled);")
    elif "free" in fn.actions:
        body.append("mpp_trace_freed(&handled);")
    # calls the protocol does not count (made by the MPI library itself) are
    # not traced; paused ones are, without an SRC point (trace.h)
    out = ["    if (MPP_UNLIKELY(mpp_trace_on) && (call.cell || mpp_paused)) {", "        mpp_trace_enter(&call);"]
    if body:
        out += ["        if (%s) {" % view.ok] + ["            " + b for b in body] + ["        }"]
    # a call that returned an error but whose messages came all the same
    # (a truncation; MPI_ERR_IN_STATUS): the checks' part of them
    err = view.error
    took = "MPP_CHECKS_ON(MPP_CHECK_BASIC) && mpp_chk_took_message(%s)" % err
    if role == "recv":
        out += ["        else if (%s)" % took,
                "            mpp_trace_recv_truncated(&call, %s, %s, %s);" % (v("comm"), v.status("status"),
                                                                          ct("count", "datatype"))]
    elif role == "sendrecv" and "request" not in has:
        s = ("count", "datatype") if "sendcount" not in has else ("sendcount", "sendtype")
        r = ("count", "datatype") if "recvcount" not in has else ("recvcount", "recvtype")
        out += ["        else if (%s) {" % took,
                "            mpp_trace_send_truncated(&call, %s, %s, %s, %s);" % (v("comm"), v("dest"), v("sendtag"),
                                                                              ct(*s)),
                "            mpp_trace_recv_truncated(&call, %s, %s, %s);" % (v("comm"), v.status("status"), ct(*r)),
                "        }"]
    elif fn.base in COMPLETIONS:
        done = [b.replace("mpp_trace_completed_truncated(&call, ", "mpp_trace_completed_truncated(&call, %s, " % err)
                for b in completion_code(fn, view, "mpp_trace_completed_truncated")]
        out += ["        else if (MPP_CHECKS_ON(MPP_CHECK_BASIC) && (%s == MPI_ERR_IN_STATUS || "
                "mpp_chk_took_message(%s))) {" % (err, err)] + ["            " + b for b in done] + ["        }"]
    return out + ["        mpp_trace_leave(&call, %s, %s);" % (sent, recv), "    }"]
