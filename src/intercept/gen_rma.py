"""The correctness checks of one-sided communication in the generated
wrappers (src/intercept/check/rma.c): the @check rma-* roles of
mpi_functions.txt, what each call does to its window's epochs.  A call
that can misuse an epoch is checked before its PMPI call
(mpp_check_rma_before; MPI may abort on the misuse), every epoch call
after it (mpp_check_rma_after), and on the unprofiled path a window's
epochs are not known any more (mpp_check_rma_unseen).  The origin
buffers of the operations (rma-op) are gen_checks.py's.  `view` is the
wrapper's view of its arguments (gen_views.py: CView, the f08 one)."""

# rma-* roles: what a call does to its window's epochs (local.h, MPP_RMA_*);
# those that can misuse an epoch are checked before the PMPI call too
ROLES = {"rma-op": "MPP_RMA_OP", "rma-fence": "MPP_RMA_FENCE", "rma-start": "MPP_RMA_START",
         "rma-complete": "MPP_RMA_COMPLETE", "rma-post": "MPP_RMA_POST", "rma-wait": "MPP_RMA_WAIT",
         "rma-test": "MPP_RMA_TEST", "rma-lock": "MPP_RMA_LOCK", "rma-unlock": "MPP_RMA_UNLOCK",
         "rma-lockall": "MPP_RMA_LOCK_ALL", "rma-unlockall": "MPP_RMA_UNLOCK_ALL", "rma-flush": "MPP_RMA_FLUSH",
         "rma-free": "MPP_RMA_FREE", "rma-new": None}
BEFORE = ("rma-op", "rma-complete", "rma-wait", "rma-test", "rma-unlock", "rma-unlockall", "rma-flush", "rma-free")


def role_of(fn):
    roles = [r for r in fn.checks if r in ROLES]
    if len(roles) > 1:
        raise SystemExit("%s: more than one rma-* role" % fn.name)
    return roles[0] if roles else None


def window(fn, view):
    """The window of an rma-* call (MPI_Win_free's as the call gets it)."""
    if "*" not in fn.by_name["win"].type:
        return view("win")
    return view.out("win") if view.fortran else "(win ? *win : MPI_WIN_NULL)"


def target(fn, view):
    return next((view(n) for n in ("target_rank", "rank") if n in fn.by_name), "-1")


def unseen(fn, view):
    """The unprofiled path of an epoch call: its window's epochs are not
    known any more."""
    role = role_of(fn)
    if not role or role in ("rma-op", "rma-new"):
        return []
    return ["    if (MPP_CHECKS_ON(MPP_CHECK_BASIC))",
            "        mpp_check_rma_unseen(%s, %d);" % (window(fn, view), role == "rma-free")]


def before(fn, view):
    """Before the PMPI call: the epoch misuse the call would be (MPI may
    abort on it); MPI_Win_free's window, which the call sets to null."""
    role = role_of(fn)
    if role == "rma-post":  # the exposure epoch known before an origin's record of it can come
        return ["    if (MPP_CHECKS_ON(MPP_CHECK_FULL))",
                "        mpp_check_rma_group(%s, MPP_RMA_POST, %s);" % (view("win"), view("group"))]
    if role not in BEFORE:
        return []
    return ["    MPI_Win mpp_rma_win = MPI_WIN_NULL;",
            "    if (MPP_CHECKS_ON(MPP_CHECK_BASIC)) {",
            "        mpp_rma_win = %s;" % window(fn, view),
            "        mpp_check_rma_before(&call, %s, mpp_rma_win, %s);" % (ROLES[role], target(fn, view)),
            "    }"]


# what an operation does to its target's bytes (check/rma_conflicts.h)
READS, WRITES = ("Get", "Rget"), ("Put", "Rput")


def access(fn, view):
    """After a one-sided operation went to MPI (full): the bytes of its
    target it accesses, for rma-conflict between origins (rma_between.c)."""
    base = fn.name[4:-2] if fn.name.endswith("_c") else fn.name[4:]
    kind = "MPP_RMA_READ" if base in READS else "MPP_RMA_WRITE" if base in WRITES else "MPP_RMA_ACCUMULATE"
    count = view("target_count") if "target_count" in fn.by_name else "1"
    datatype = view("target_datatype" if "target_datatype" in fn.by_name else "datatype")
    return ["    if (MPP_CHECKS_ON(MPP_CHECK_FULL) && %s)" % view.ok,
            "        mpp_check_rma_access(&call, %s, %s, %s, %s, %s, %s);"
            % (view("win"), target(fn, view), view("target_disp"), count, datatype, kind)]


def after(fn, view):
    role = role_of(fn)
    if role == "rma-op":
        return access(fn, view)
    if not role:
        return []
    on = "MPP_CHECKS_ON(MPP_CHECK_BASIC) && %s" % view.ok
    if role == "rma-new":
        return ["    if (%s)" % on, "        mpp_check_rma_new(%s, %s);" % (view.out("win"), view("comm"))]
    arg = view("assert") if role == "rma-fence" else view.out("flag") if role == "rma-test" else "0"
    win = "mpp_rma_win" if role in BEFORE else view("win")
    out = ["    if (%s)" % on,
           "        mpp_check_rma_after(&call, %s, %s, %s, %s);" % (ROLES[role], win, target(fn, view), arg)]
    if role == "rma-start":  # its group: whose epochs meet (rma-conflict between origins)
        out += ["    if (MPP_CHECKS_ON(MPP_CHECK_FULL) && %s)" % view.ok,
                "        mpp_check_rma_group(%s, %s, %s);" % (win, ROLES[role], view("group"))]
    return out
