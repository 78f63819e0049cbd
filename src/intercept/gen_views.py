"""How a wrapper reads its function's parameters (for gen_wrappers.py,
gen_checks.py, gen_rma.py): a view turns a parameter's MPI name into a C
expression of its value, the C wrapper's as they are (CView), an mpi_f08
entry point's through their references and Fortran handles (F08View),
Open MPI's Fortran entry points' (OmpiFortranView)."""


class CView:
    """Parameters of a C wrapper: used as they are."""
    fortran = False
    ok = "ret == MPI_SUCCESS"
    error = "ret"  # the call's error code
    status_ignore, statuses_ignore = "MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE"

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, name):
        return name

    def out(self, name):
        """The value an output (or in-out) argument has: C passes a pointer."""
        return "*" + name

    def status(self, name):
        """A status argument as a C MPI_Status pointer."""
        return name

    def statuses(self, name):
        return name

    def not_in_place(self, buf):
        return "%s != MPI_IN_PLACE" % buf

    def buffer(self, name):
        """A choice buffer's address, for checksums (MPP_NO_BUFFER: not known)."""
        return name

    def in_place(self, name):
        """A choice buffer as C's MPI_IN_PLACE where it is, for the
        collective checks (they compare it with nothing else)."""
        return name

    def wait_failed(self):
        """MPI_Wait's request completed with an error (check/local.h)."""
        return "mpp_check_wait_failed(ret)"


class F08View(CView):
    """Parameters of an mpi_f08 entry point: every argument is a reference
    (choice buffers are Fortran descriptors), handles are MPI_Fint, statuses
    TYPE(MPI_Status) (C's layout: wrapper_support.h), LOGICAL flags nonzero
    when true."""
    fortran = True
    ok = "mpp_f08_ok(ierror)"
    error = "mpp_f08_error(ierror)"

    def buffer(self, name):
        """mpi_f08's choice buffers are descriptors in the Fortran
        compiler's own layout (MPICH's MPI_Send_f08ts is no BIND(C)
        procedure): their elements are not read, no checksum."""
        return "MPP_NO_BUFFER" if "f08ts" in self.fn.actions else name

    def in_place(self, name):
        return "(%s ? NULL : MPI_IN_PLACE)" % self.not_in_place(name)

    def wait_failed(self):
        return "(ierror && mpp_check_wait_failed(*(const int *)ierror))"
    status_ignore, statuses_ignore = "MPI_F08_STATUS_IGNORE", "MPI_F08_STATUSES_IGNORE"
    index_base = "mpp_f08_index_base()"
    HANDLES = {"MPI_Datatype": "Type", "MPI_Comm": "Comm", "MPI_Request": "Request", "MPI_Message": "Message",
               "MPI_Group": "Group", "MPI_Op": "Op", "MPI_Win": "Win", "MPI_Info": "Info", "MPI_File": "File"}

    def requests(self, name, n):
        """A Fortran array of n requests as C's (MPICH: the same integers)."""
        return "(MPI_Request *)%s" % name

    def __call__(self, name):
        p = self.fn.by_name[name]
        t = p.base_type
        if p.array:
            return "((const %s *)%s)" % ("MPI_Count" if t == "MPI_Count" else t, name)
        if t in self.HANDLES:
            return "PMPI_%s_f2c(*(const MPI_Fint *)%s)" % (self.HANDLES[t], name)
        if t in ("int", "MPI_Count", "MPI_Aint", "MPI_Offset"):
            return "(*(const %s *)%s)" % (t, name)
        raise SystemExit("%s: no Fortran view of parameter %s" % (self.fn.name, p.text))

    def out(self, name):
        return self(name)

    def status(self, name):
        return "(const MPI_Status *)%s" % name

    def statuses(self, name):
        return "mpp_f08_statuses(%s)" % name

    def not_in_place(self, buf):
        return "!mpp_f08_in_place(%s)" % buf


class OmpiFortranView(F08View):
    """Parameters of Open MPI's Fortran entry points (mpif.h and use mpi:
    mpi_send_; use mpi_f08: mpi_send_f08_): every argument a reference,
    choice buffers addresses, handles MPI_Fint (a TYPE(MPI_Comm) holds it
    first), statuses in C's layout (MPI_Status_c2f copies the integers),
    MPI_STATUS_IGNORE and MPI_IN_PLACE Open MPI's common blocks, indexes
    counted from 1.  Handle arrays are converted into a buffer of the
    thread's (mpp_ompi_f_requests) or read one by one."""
    status_ignore, statuses_ignore = "MPI_F_STATUS_IGNORE", "MPI_F_STATUSES_IGNORE"
    index_base = "1"

    def __call__(self, name):
        p = self.fn.by_name[name]
        if p.array and p.base_type in self.HANDLES:
            return "((const MPI_Fint *)%s)" % name  # read by the _f helpers of wrapper_support.h
        return F08View.__call__(self, name)

    def requests(self, name, n):
        return "mpp_ompi_f_requests(%s, %s)" % (name, n)

    def statuses(self, name):
        return "mpp_ompi_f_statuses(%s)" % name

    def buffer(self, name):
        """An address, but MPI_BOTTOM is a common block here: no checksum."""
        return "MPP_NO_BUFFER"

    def not_in_place(self, buf):
        return "!mpp_ompi_f_in_place(%s)" % buf
