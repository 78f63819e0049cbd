/* correctness: what an MPI program sees of MPI, written as a canonical
 * transcript, for tests/mpi/correctness/test_correctness.sh, which compares the
 * transcripts of a plain run and of profiled runs byte for byte.
 *
 *   mpiexec -n 2 ./correctness PREFIX      (writes PREFIX.0 and PREFIX.1)
 *
 * Each rank writes one line per observation: return codes (with error
 * class and the error string, addresses masked), status contents
 * (MPI_SOURCE, MPI_TAG, MPI_ERROR, MPI_Get_count, MPI_Get_elements,
 * MPI_Test_cancelled; status fields are preset to -77 so that an untouched
 * field shows), flags, indices and counts of MPI_Test/Testany/Testsome/
 * Testall/Waitany/Waitsome/Waitall, received data, request handles becoming
 * MPI_REQUEST_NULL or staying (inactive persistent requests).  Covered:
 * blocking and nonblocking point-to-point, probes, matched probes,
 * MPI_PROC_NULL peers, persistent requests restarted several times,
 * MPI_Request_free of an active request, cancel of an unmatched MPI_Irecv,
 * generalized requests (MPI_Grequest_start/complete, with the callbacks
 * counted), and, under MPI_ERRORS_RETURN, provoked errors (invalid rank,
 * count, datatype, tag, root, communicator after MPI_Comm_free, truncated
 * receives), then the same errors again with a user error handler
 * (MPI_Comm_create_errhandler) whose calls are counted per communicator.
 *
 * Nothing in the transcript depends on timing: a request that may or may
 * not have completed is never tested for it; only requests whose message
 * cannot have been sent yet (the sender waits at a barrier) are tested
 * incomplete, and a Waitany/Waitsome has one message to find at a time.
 * Run with exactly 2 processes. */
#include <ctype.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static int rank, size, peer;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

/* "MPI_SUCCESS" or the error class and string (addresses masked). */
static const char *rc_text(int rc)
{
    static char text[4][MPI_MAX_ERROR_STRING + 128];
    static int next;
    char *t = text[next++ % 4];
    if (rc == MPI_SUCCESS)
        return "MPI_SUCCESS";
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    /* mask addresses (0x...) and join lines */
    char masked[MPI_MAX_ERROR_STRING];
    size_t j = 0;
    for (size_t i = 0; msg[i] && j + 4 < sizeof masked; i++) {
        if (msg[i] == '0' && msg[i + 1] == 'x' && isxdigit((unsigned char)msg[i + 2])) {
            memcpy(masked + j, "0x?", 3);
            j += 3;
            for (i += 2; isxdigit((unsigned char)msg[i + 1]); i++)
                ;
            continue;
        }
        masked[j++] = msg[i] == '\n' ? '|' : msg[i];
    }
    masked[j] = '\0';
    /* not the code itself: MPICH's codes of the same error differ from run to run */
    snprintf(t, sizeof text[0], "class=%d \"%s\"", cls, masked);
    return t;
}

static void preset(MPI_Status *st)
{
    memset(st, 0, sizeof *st);
    st->MPI_SOURCE = st->MPI_TAG = st->MPI_ERROR = -77;
}

static void show_status_of(const char *label, const MPI_Status *st, int with_count)
{
    int count = -99, elements = -99, cancelled = -99;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Get_elements(st, MPI_INT, &elements);
    MPI_Test_cancelled(st, &cancelled);
    if (with_count)
        say("%s: source=%d tag=%d error=%d count=%d elements=%d cancelled=%d", label, st->MPI_SOURCE, st->MPI_TAG,
            st->MPI_ERROR, count, elements, cancelled);
    else
        say("%s: source=%d tag=%d error=%d cancelled=%d", label, st->MPI_SOURCE, st->MPI_TAG, st->MPI_ERROR,
            cancelled);
}

static void show_status(const char *label, const MPI_Status *st) { show_status_of(label, st, 1); }

/* A truncated receive's count is whatever MPICH's request object held
 * before (one more receive pending on another communicator changes it,
 * without any profiler): not compared. */
static void show_truncated_status(const char *label, const MPI_Status *st) { show_status_of(label, st, 0); }

static void show_data(const char *label, const int *buf, int n)
{
    char line[512];
    int k = snprintf(line, sizeof line, "%s: data", label);
    for (int i = 0; i < n && k < (int)sizeof line - 16; i++)
        k += snprintf(line + k, sizeof line - (size_t)k, " %d", buf[i]);
    say("%s", line);
}

static const char *req_state(MPI_Request r) { return r == MPI_REQUEST_NULL ? "null" : "not null"; }

static void fill(int *buf, int n, int base)
{
    for (int i = 0; i < n; i++)
        buf[i] = base + i;
}

static void barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

/* --- point-to-point and status contents --- */

static void point_to_point(void)
{
    int buf[16], rc;
    MPI_Status st;
    MPI_Message msg;

    say("== blocking send/recv, any source, any tag");
    if (rank == 0) {
        fill(buf, 5, 100);
        say("send rc %s", rc_text(MPI_Send(buf, 5, MPI_INT, 1, 7, MPI_COMM_WORLD)));
    } else {
        preset(&st);
        memset(buf, 0, sizeof buf);
        rc = MPI_Recv(buf, 10, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        say("recv rc %s", rc_text(rc));
        show_status("recv", &st);
        show_data("recv", buf, 6);
    }

    say("== probe, iprobe, mprobe/mrecv");
    if (rank == 0) {
        fill(buf, 3, 200);
        MPI_Send(buf, 3, MPI_INT, 1, 8, MPI_COMM_WORLD);
        MPI_Send(buf, 4, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Send(buf, 2, MPI_INT, 1, 11, MPI_COMM_WORLD);
    } else {
        int flag = 0;
        preset(&st);
        say("probe rc %s", rc_text(MPI_Probe(0, 8, MPI_COMM_WORLD, &st)));
        show_status("probe", &st);
        MPI_Recv(buf, 16, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        preset(&st);
        while (!flag)
            MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, &st);
        say("iprobe flag %d", flag);
        show_status("iprobe", &st);
        MPI_Recv(buf, 16, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        preset(&st);
        say("mprobe rc %s", rc_text(MPI_Mprobe(0, 11, MPI_COMM_WORLD, &msg, &st)));
        show_status("mprobe", &st);
        preset(&st);
        say("mrecv rc %s", rc_text(MPI_Mrecv(buf, 16, MPI_INT, &msg, &st)));
        say("message after mrecv: %s", msg == MPI_MESSAGE_NULL ? "null" : "not null");
        show_status("mrecv", &st);
        show_data("mrecv", buf, 2);
    }

    say("== sendrecv, sendrecv_replace");
    int in[4];
    fill(buf, 4, 300 + rank * 10);
    preset(&st);
    rc = MPI_Sendrecv(buf, 4, MPI_INT, peer, 10, in, 4, MPI_INT, peer, 10, MPI_COMM_WORLD, &st);
    say("sendrecv rc %s", rc_text(rc));
    show_status("sendrecv", &st);
    show_data("sendrecv", in, 4);
    fill(buf, 3, 400 + rank * 10);
    preset(&st);
    rc = MPI_Sendrecv_replace(buf, 3, MPI_INT, peer, 12, peer, 12, MPI_COMM_WORLD, &st);
    say("sendrecv_replace rc %s", rc_text(rc));
    show_status("sendrecv_replace", &st);
    show_data("sendrecv_replace", buf, 3);

    say("== MPI_PROC_NULL peers");
    MPI_Request r;
    int flag = -1;
    say("send to PROC_NULL rc %s", rc_text(MPI_Send(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD)));
    preset(&st);
    say("recv from PROC_NULL rc %s", rc_text(MPI_Recv(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st)));
    show_status("recv from PROC_NULL", &st);
    say("isend to PROC_NULL rc %s", rc_text(MPI_Isend(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r)));
    preset(&st);
    rc = MPI_Wait(&r, &st);
    say("wait rc %s, request %s", rc_text(rc), req_state(r));
    show_status("wait isend PROC_NULL", &st);
    say("irecv from PROC_NULL rc %s", rc_text(MPI_Irecv(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r)));
    preset(&st);
    rc = MPI_Test(&r, &flag, &st);
    say("test rc %s flag %d request %s", rc_text(rc), flag, req_state(r));
    show_status("test irecv PROC_NULL", &st);
    preset(&st);
    rc = MPI_Sendrecv(buf, 2, MPI_INT, MPI_PROC_NULL, 1, in, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    say("sendrecv PROC_NULL rc %s", rc_text(rc));
    show_status("sendrecv PROC_NULL", &st);
    preset(&st);
    say("probe PROC_NULL rc %s", rc_text(MPI_Probe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st)));
    show_status("probe PROC_NULL", &st);
    barrier();
}

/* --- completion functions: flags, indices, counts --- */

static void completions(void)
{
    int buf[4][4], flag, index, outcount, indices[4], rc;
    MPI_Request r[4];
    MPI_Status st, sts[4];

    say("== test of a request whose message is not sent yet, then wait");
    if (rank == 1) {
        MPI_Irecv(buf[0], 4, MPI_INT, 0, 20, MPI_COMM_WORLD, &r[0]);
        preset(&st);
        flag = -1;
        rc = MPI_Test(&r[0], &flag, &st);
        say("test rc %s flag %d request %s", rc_text(rc), flag, req_state(r[0]));
        show_status("test (incomplete)", &st);
    }
    barrier();
    if (rank == 0) {
        fill(buf[0], 4, 500);
        MPI_Send(buf[0], 4, MPI_INT, 1, 20, MPI_COMM_WORLD);
    } else {
        preset(&st);
        rc = MPI_Wait(&r[0], &st);
        say("wait rc %s request %s", rc_text(rc), req_state(r[0]));
        show_status("wait", &st);
        show_data("wait", buf[0], 4);
    }

    say("== testany, waitany (one message at a time)");
    if (rank == 1) {
        r[0] = MPI_REQUEST_NULL;
        MPI_Irecv(buf[1], 4, MPI_INT, 0, 21, MPI_COMM_WORLD, &r[1]);
        MPI_Irecv(buf[2], 4, MPI_INT, 0, 22, MPI_COMM_WORLD, &r[2]);
        preset(&st);
        flag = index = -1;
        rc = MPI_Testany(3, r, &index, &flag, &st);
        say("testany rc %s flag %d index %d", rc_text(rc), flag, index);
    }
    barrier();
    if (rank == 0) {
        fill(buf[2], 4, 622);
        MPI_Send(buf[2], 4, MPI_INT, 1, 22, MPI_COMM_WORLD);
    } else {
        preset(&st);
        index = -1;
        rc = MPI_Waitany(3, r, &index, &st);
        say("waitany rc %s index %d requests %s %s %s", rc_text(rc), index, req_state(r[0]), req_state(r[1]),
            req_state(r[2]));
        show_status("waitany", &st);
        show_data("waitany", buf[2], 4);
    }
    barrier();
    if (rank == 0) {
        fill(buf[1], 4, 621);
        MPI_Send(buf[1], 4, MPI_INT, 1, 21, MPI_COMM_WORLD);
    } else {
        preset(&st);
        index = -1;
        rc = MPI_Waitany(3, r, &index, &st);
        say("waitany rc %s index %d", rc_text(rc), index);
        show_status("waitany", &st);
        preset(&st);
        index = -1;
        rc = MPI_Waitany(3, r, &index, &st);
        say("waitany (all null) rc %s index %d", rc_text(rc), index);
        show_status("waitany (all null)", &st);
        preset(&st);
        flag = index = -1;
        rc = MPI_Testany(3, r, &index, &flag, &st);
        say("testany (all null) rc %s flag %d index %d", rc_text(rc), flag, index);
        show_status("testany (all null)", &st);
        rc = MPI_Testany(0, NULL, &index, &flag, &st);
        say("testany (none) rc %s flag %d index %d", rc_text(rc), flag, index);
    }

    say("== testsome, waitsome, testall, waitall");
    if (rank == 1) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(buf[i], 4, MPI_INT, 0, 30 + i, MPI_COMM_WORLD, &r[i]);
        outcount = -1;
        rc = MPI_Testsome(3, r, &outcount, indices, sts);
        say("testsome rc %s outcount %d", rc_text(rc), outcount);
        flag = -1;
        rc = MPI_Testall(3, r, &flag, sts);
        say("testall rc %s flag %d", rc_text(rc), flag);
    }
    barrier();
    if (rank == 0) {
        fill(buf[1], 4, 731);
        MPI_Send(buf[1], 4, MPI_INT, 1, 31, MPI_COMM_WORLD);
    } else {
        for (int i = 0; i < 4; i++)
            preset(&sts[i]);
        outcount = -1;
        rc = MPI_Waitsome(3, r, &outcount, indices, sts);
        say("waitsome rc %s outcount %d index %d", rc_text(rc), outcount, indices[0]);
        show_status("waitsome", &sts[0]);
    }
    barrier();
    if (rank == 0) {
        fill(buf[0], 4, 730);
        MPI_Send(buf[0], 4, MPI_INT, 1, 30, MPI_COMM_WORLD);
        fill(buf[2], 4, 732);
        MPI_Send(buf[2], 4, MPI_INT, 1, 32, MPI_COMM_WORLD);
    } else {
        for (int i = 0; i < 4; i++)
            preset(&sts[i]);
        rc = MPI_Waitall(3, r, sts);
        say("waitall rc %s requests %s %s %s", rc_text(rc), req_state(r[0]), req_state(r[1]), req_state(r[2]));
        for (int i = 0; i < 3; i++) {
            char label[32];
            snprintf(label, sizeof label, "waitall[%d]", i);
            show_status(label, &sts[i]); /* [1] was null already: an empty status */
        }
        show_data("waitall[0]", buf[0], 4);
        show_data("waitall[2]", buf[2], 4);
        outcount = -1;
        rc = MPI_Waitsome(3, r, &outcount, indices, sts);
        say("waitsome (all null) rc %s outcount %d", rc_text(rc), outcount);
        outcount = -1;
        rc = MPI_Testsome(3, r, &outcount, indices, sts);
        say("testsome (all null) rc %s outcount %d", rc_text(rc), outcount);
        flag = -1;
        rc = MPI_Testall(3, r, &flag, sts);
        say("testall (all null) rc %s flag %d", rc_text(rc), flag);
    }
    barrier();
}

/* --- persistent requests, freeing active requests, cancel --- */

static void persistent_and_cancel(void)
{
    int sbuf[4], rbuf[4], flag, index, rc;
    MPI_Request p[2];
    MPI_Status st, sts[2];

    say("== persistent requests, restarted 5 times");
    rc = MPI_Send_init(sbuf, 4, MPI_INT, peer, 60, MPI_COMM_WORLD, &p[0]);
    say("send_init rc %s", rc_text(rc));
    rc = MPI_Recv_init(rbuf, 4, MPI_INT, peer, 60, MPI_COMM_WORLD, &p[1]);
    say("recv_init rc %s", rc_text(rc));
    preset(&st);
    flag = -1;
    rc = MPI_Test(&p[1], &flag, &st);
    say("test of an inactive persistent request rc %s flag %d request %s", rc_text(rc), flag, req_state(p[1]));
    show_status("test inactive", &st);
    for (int round = 0; round < 5; round++) {
        fill(sbuf, 4, 1000 * (round + 1) + rank * 100);
        memset(rbuf, 0, sizeof rbuf);
        if (round % 2 == 0) {
            rc = MPI_Start(&p[1]);
            int rc2 = MPI_Start(&p[0]);
            say("round %d: start rc %s %s", round, rc_text(rc), rc_text(rc2));
            preset(&sts[0]);
            preset(&sts[1]);
            rc = MPI_Waitall(2, p, sts);
        } else {
            rc = MPI_Startall(2, p);
            say("round %d: startall rc %s", round, rc_text(rc));
            preset(&sts[1]);
            rc = MPI_Wait(&p[1], &sts[1]);
            say("round %d: wait recv rc %s", round, rc_text(rc));
            rc = MPI_Wait(&p[0], &sts[0]);
        }
        say("round %d: rc %s requests %s %s", round, rc_text(rc), req_state(p[0]), req_state(p[1]));
        show_status("persistent recv", &sts[1]);
        show_data("persistent recv", rbuf, 4);
    }
    preset(&st);
    index = flag = -1;
    rc = MPI_Testany(2, p, &index, &flag, &st);
    say("testany of inactive persistent requests rc %s flag %d index %d", rc_text(rc), flag, index);
    rc = MPI_Waitany(2, p, &index, &st);
    say("waitany of inactive persistent requests rc %s index %d", rc_text(rc), index);
    rc = MPI_Request_free(&p[0]);
    int rc2 = MPI_Request_free(&p[1]);
    say("request_free rc %s %s requests %s %s", rc_text(rc), rc_text(rc2), req_state(p[0]), req_state(p[1]));
    barrier();

    say("== request_free of an active send");
    static int kept[4];
    if (rank == 0) {
        MPI_Request r;
        fill(kept, 4, 4000);
        rc = MPI_Isend(kept, 4, MPI_INT, 1, 40, MPI_COMM_WORLD, &r);
        say("isend rc %s", rc_text(rc));
        rc = MPI_Request_free(&r);
        say("request_free of the active isend rc %s request %s", rc_text(rc), req_state(r));
    } else {
        int got[4];
        preset(&st);
        rc = MPI_Recv(got, 4, MPI_INT, 0, 40, MPI_COMM_WORLD, &st);
        say("recv rc %s", rc_text(rc));
        show_status("recv of the freed isend", &st);
        show_data("recv of the freed isend", got, 4);
    }
    barrier();

    say("== cancel of an unmatched irecv");
    MPI_Request c;
    rc = MPI_Irecv(rbuf, 4, MPI_INT, peer, 99, MPI_COMM_WORLD, &c);
    say("irecv rc %s", rc_text(rc));
    rc = MPI_Cancel(&c);
    say("cancel rc %s request %s", rc_text(rc), req_state(c));
    preset(&st);
    rc = MPI_Wait(&c, &st);
    say("wait rc %s request %s", rc_text(rc), req_state(c));
    show_status("cancelled irecv", &st);
    barrier();
}

/* --- generalized requests --- */

typedef struct {
    int queries, frees, cancels, last_cancel_complete;
    int cancelled;
} greq_state_t;

static int greq_query(void *extra, MPI_Status *status)
{
    greq_state_t *s = extra;
    s->queries++;
    status->MPI_SOURCE = 123;
    status->MPI_TAG = 456;
    status->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(status, MPI_INT, 7);
    MPI_Status_set_cancelled(status, s->cancelled);
    return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
    ((greq_state_t *)extra)->frees++;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    greq_state_t *s = extra;
    s->cancels++;
    s->last_cancel_complete = complete;
    if (!complete)
        s->cancelled = 1;
    return MPI_SUCCESS;
}

static void generalized(void)
{
    greq_state_t a = {0}, b = {0};
    MPI_Request g, list[2];
    MPI_Status st;
    int flag, index, rc;

    say("== generalized requests");
    rc = MPI_Grequest_start(greq_query, greq_free, greq_cancel, &a, &g);
    say("grequest_start rc %s", rc_text(rc));
    preset(&st);
    flag = -1;
    rc = MPI_Test(&g, &flag, &st);
    say("test before complete rc %s flag %d request %s", rc_text(rc), flag, req_state(g));
    say("grequest_complete rc %s", rc_text(MPI_Grequest_complete(g)));
    preset(&st);
    rc = MPI_Wait(&g, &st);
    say("wait rc %s request %s", rc_text(rc), req_state(g));
    show_status("grequest", &st);
    say("callbacks: query %d free %d cancel %d", a.queries, a.frees, a.cancels);

    rc = MPI_Grequest_start(greq_query, greq_free, greq_cancel, &b, &list[1]);
    list[0] = MPI_REQUEST_NULL;
    say("grequest_start rc %s", rc_text(rc));
    rc = MPI_Cancel(&list[1]);
    say("cancel rc %s request %s", rc_text(rc), req_state(list[1]));
    say("grequest_complete rc %s", rc_text(MPI_Grequest_complete(list[1])));
    preset(&st);
    index = -1;
    rc = MPI_Waitany(2, list, &index, &st);
    say("waitany rc %s index %d request %s", rc_text(rc), index, req_state(list[1]));
    show_status("cancelled grequest", &st);
    say("callbacks: query %d free %d cancel %d (complete=%d)", b.queries, b.frees, b.cancels,
        b.last_cancel_complete);
    barrier();
}

/* --- collectives --- */

static void collectives(void)
{
    int v = rank + 1, sum = -1, b[3] = {0, 0, 0}, rc;
    MPI_Request r;
    MPI_Status st;
    say("== collectives");
    rc = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    say("allreduce rc %s sum %d", rc_text(rc), sum);
    if (rank == 0)
        fill(b, 3, 77);
    rc = MPI_Bcast(b, 3, MPI_INT, 0, MPI_COMM_WORLD);
    say("bcast rc %s", rc_text(rc));
    show_data("bcast", b, 3);
    rc = MPI_Ibarrier(MPI_COMM_WORLD, &r);
    preset(&st);
    int rc2 = MPI_Wait(&r, &st);
    say("ibarrier rc %s wait rc %s request %s", rc_text(rc), rc_text(rc2), req_state(r));
    show_status("ibarrier", &st);
    rc = MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r);
    preset(&st);
    rc2 = MPI_Wait(&r, &st);
    say("iallreduce rc %s wait rc %s max %d", rc_text(rc), rc_text(rc2), sum);
    show_status("iallreduce", &st);
}

/* --- errors --- */

static int handler_calls_world, handler_calls_self, handler_calls_other;
static char handler_log[4096];

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    int cls = -1;
    MPI_Error_class(*code, &cls);
    if (*comm == MPI_COMM_WORLD)
        handler_calls_world++;
    else if (*comm == MPI_COMM_SELF)
        handler_calls_self++;
    else
        handler_calls_other++;
    size_t n = strlen(handler_log);
    snprintf(handler_log + n, sizeof handler_log - n, " %s:%d",
             *comm == MPI_COMM_WORLD ? "world" : *comm == MPI_COMM_SELF ? "self" : "other", cls);
}

static void provoke_errors(const char *pass)
{
    int buf[16] = {0}, rc;
    MPI_Comm dup, freed;
    MPI_Request r;
    MPI_Status st, sts[2];

    say("== errors (%s)", pass);
    say("send to an invalid rank: %s", rc_text(MPI_Send(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD)));
    say("send of count -1: %s", rc_text(MPI_Send(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD)));
    say("send of MPI_DATATYPE_NULL: %s", rc_text(MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD)));
    say("send with tag -5: %s", rc_text(MPI_Send(buf, 1, MPI_INT, peer, -5, MPI_COMM_WORLD)));
    rc = MPI_Isend(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD, &r);
    say("isend to an invalid rank: %s", rc_text(rc));
    say("bcast with an invalid root: %s", rc_text(MPI_Bcast(buf, 1, MPI_INT, size + 3, MPI_COMM_WORLD)));
    /* (not MPI_Allreduce of count -1: MPICH 4.0.2 crashes in yaksa instead of returning MPI_ERR_COUNT) */
    say("barrier on MPI_COMM_NULL: %s", rc_text(MPI_Barrier(MPI_COMM_NULL)));
    int r0 = -1;
    say("comm_rank of MPI_COMM_NULL: %s", rc_text(MPI_Comm_rank(MPI_COMM_NULL, &r0)));
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    freed = dup;
    rc = MPI_Comm_free(&dup);
    say("comm_free: %s, handle %s", rc_text(rc), dup == MPI_COMM_NULL ? "null" : "not null");
#if !defined(OMPI_MAJOR_VERSION) /* Open MPI's handles are pointers: a freed one is dangling, the send undefined */
    say("send on a freed communicator: %s", rc_text(MPI_Send(buf, 1, MPI_INT, peer, 0, freed)));
#else
    (void)freed;
#endif
    int tsize = -1;
    say("type_size of MPI_DATATYPE_NULL: %s", rc_text(MPI_Type_size(MPI_DATATYPE_NULL, &tsize)));

    /* truncated receives */
    if (rank == 0) {
        int ten[10];
        fill(ten, 10, 900);
        MPI_Send(ten, 10, MPI_INT, 1, 50, MPI_COMM_WORLD);
        MPI_Send(ten, 10, MPI_INT, 1, 51, MPI_COMM_WORLD);
        MPI_Send(ten, 3, MPI_INT, 1, 52, MPI_COMM_WORLD);
        MPI_Send(ten, 10, MPI_INT, 1, 53, MPI_COMM_WORLD);
    } else {
        preset(&st);
        say("recv of 10 ints into 5: %s", rc_text(MPI_Recv(buf, 5, MPI_INT, 0, 50, MPI_COMM_WORLD, &st)));
        show_truncated_status("truncated recv", &st);
        MPI_Irecv(buf, 5, MPI_INT, 0, 51, MPI_COMM_WORLD, &r);
        preset(&st);
        rc = MPI_Wait(&r, &st);
        say("wait of a truncated irecv: %s, request %s", rc_text(rc), req_state(r));
        show_truncated_status("truncated irecv", &st);
        MPI_Request two[2];
        MPI_Irecv(buf, 5, MPI_INT, 0, 52, MPI_COMM_WORLD, &two[0]);
        MPI_Irecv(buf + 8, 5, MPI_INT, 0, 53, MPI_COMM_WORLD, &two[1]);
        preset(&sts[0]);
        preset(&sts[1]);
        rc = MPI_Waitall(2, two, sts);
        say("waitall with one truncated: %s, requests %s %s", rc_text(rc), req_state(two[0]), req_state(two[1]));
        show_status("waitall[0]", &sts[0]);
        show_truncated_status("waitall[1]", &sts[1]);
        say("status errors: %s | %s", rc_text(sts[0].MPI_ERROR), rc_text(sts[1].MPI_ERROR));
    }
    barrier();
}

static void errors(void)
{
    MPI_Errhandler mine;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    provoke_errors("MPI_ERRORS_RETURN");

    say("create_errhandler: %s", rc_text(MPI_Comm_create_errhandler(count_errors, &mine)));
    int rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
    say("set_errhandler on MPI_COMM_WORLD: %s", rc_text(rc));
    rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, mine);
    say("set_errhandler on MPI_COMM_SELF: %s", rc_text(rc));
    provoke_errors("user error handler");
    say("user error handler calls: MPI_COMM_WORLD %d, MPI_COMM_SELF %d, other %d", handler_calls_world,
        handler_calls_self, handler_calls_other);
    say("user error handler saw (communicator:class):%s", handler_log);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    say("errhandler_free: %s", rc_text(MPI_Errhandler_free(&mine)));
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc < 2) {
        fprintf(stderr, "usage: correctness PREFIX\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "correctness: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    snprintf(path, sizeof path, "%s.%d", argv[1], rank);
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    setvbuf(out, NULL, _IOLBF, 0); /* whatever happens, the lines so far are there */
    say("rank %d of %d", rank, size);
    point_to_point();
    completions();
    persistent_and_cancel();
    generalized();
    collectives();
    errors();
    say("== end");
    fclose(out);
    MPI_Finalize();
    if (rank == 0)
        printf("correctness: transcripts written\n");
    return 0;
}
