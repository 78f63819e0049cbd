"""Drive the trace links of mpiprof-view's pages in a headless Chromium
(selenium), for tests/view/test_view_trace.sh:

    check_trace_view.py SHOTS N_SENDS N_BARRIERS T_LATE LINKED.html FIRST.html N PLAIN.html PROTOCOL.json

LINKED.html is the page of view_trace_known's protocol PROTOCOL.json with
its trace (the default number of calls carried), FIRST.html the same with
mpiprof-view --events N, PLAIN.html a page without a trace.  Checks:
selecting the SRC point of MPI_Recv shows a timeline with rank 0's
N_SENDS calls (rank 1 none), each with a wait part of at least T_LATE / 4
(Real sync: rank 1 sends late), MPI_Send rank 1's N_SENDS calls without
wait, MPI_Barrier (one SRC number in two intervals) 1 call on each process in
interval "first barrier" and N_BARRIERS - 1 in "later barriers", the wait
part on rank 0 only (Potential sync, T_LATE / 4 a call at least in all); the calls per process are the protocol's; on
FIRST.html the table holds N calls of rank 0 and says how many more, and
the page control shows fewer; PLAIN.html has no trace panel.  Screenshots
go to SHOTS.  Exit 0, or 1 with the reason."""
import json
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import view_browser


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def select_interval(driver, name):
    for node in driver.find_elements(By.CSS_SELECTOR, "#tree [role=treeitem] > .node .name"):
        if node.text.split(" ", 1)[1] == name:
            node.click()
            return
    fail("no interval %r in the tree" % name)


def select(driver, function):
    rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr") if function in r.text]
    if len(rows) != 1:
        fail("the interval shows %d SRC points of %s, not 1" % (len(rows), function))
    rows[0].click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "src-detail").is_displayed())


def lanes(driver):
    """rank -> (data-calls, calls drawn, wait parts drawn with their seconds)"""
    out = {}
    for g in driver.find_elements(By.CSS_SELECTOR, "#trace-links svg g.lane"):
        waits = [float(w.get_attribute("data-wait")) for w in g.find_elements(By.CSS_SELECTOR, "rect.wait")]
        out[int(g.get_attribute("data-rank"))] = (int(g.get_attribute("data-calls")),
                                                  len(g.find_elements(By.CSS_SELECTOR, "rect.call")), waits)
    return out


def shot(driver, path):
    """The trace panel from its top (an element's screenshot is what is in view)."""
    driver.execute_script("document.getElementById('trace-links').scrollIntoView({block: 'start'})")
    driver.save_screenshot(path)


def protocol_calls(doc, function, interval="whole program"):
    iv = [i for i in doc["intervals"] if i["name"] == interval][0]
    src = [s for s in iv["src"] if s["function"] == function]
    if len(src) != 1:
        fail("the protocol's interval %r has %d SRC points of %s" % (interval, len(src), function))
    by = src[0]["by_process"]
    return {r: c for r, c in zip(by["ranks"], by["calls"]) if c}


def check_linked(driver, shots, n_sends, n_barriers, late, page, doc):
    view_browser.load(driver, page)
    select(driver, "MPI_Recv")
    got = lanes(driver)
    if set(got) != {0}:
        fail("MPI_Recv's timeline has the lanes of ranks %s, not rank 0 alone" % sorted(got))
    calls, drawn, waits = got[0]
    if calls != n_sends or drawn != n_sends:
        fail("MPI_Recv on rank 0: %d calls said, %d drawn, not %d" % (calls, drawn, n_sends))
    if len(waits) != n_sends or sum(waits) < n_sends * late / 2:
        fail("MPI_Recv on rank 0: wait parts %s, not %d of %g s in all at least (rank 1 sends late)" %
             (waits, n_sends, n_sends * late / 2))
    if {r: c for r, (c, _, _) in got.items()} != protocol_calls(doc, "MPI_Recv"):
        fail("MPI_Recv: the trace's calls per process %s are not the protocol's %s" % (got, protocol_calls(doc, "MPI_Recv")))
    summary = driver.find_element(By.CSS_SELECTOR, '#trace-links table.trace-summary tr[data-rank="0"]')
    if summary.get_attribute("data-calls") != str(n_sends):
        fail("the summary of MPI_Recv says %s calls on rank 0" % summary.get_attribute("data-calls"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#trace-links table.trace-events tbody tr[data-index]")
    if len(rows) != n_sends or driver.find_elements(By.CSS_SELECTOR, "#trace-links tr.more"):
        fail("the events table of MPI_Recv has %d rows, not its %d calls and no more" % (len(rows), n_sends))
    driver.save_screenshot(os.path.join(shots, "1-recv-selected.png"))
    shot(driver, os.path.join(shots, "2-recv-timeline.png"))

    select(driver, "MPI_Send")
    got = lanes(driver)
    if set(got) != {1} or got[1][:2] != (n_sends, n_sends) or got[1][2]:
        fail("MPI_Send's timeline: %s, not rank 1's %d calls without wait (the sender is late)" % (got, n_sends))

    # one call site in two intervals: the calls of each interval
    src_ids = set()
    for interval, n in (("first barrier", 1), ("later barriers", n_barriers - 1)):
        select_interval(driver, interval)
        select(driver, "MPI_Barrier")
        src_ids.add(driver.find_element(By.CSS_SELECTOR, "#src-table tr[aria-selected=true]").get_attribute("data-src"))
        got = lanes(driver)
        if set(got) != {0, 1} or any(got[r][:2] != (n, n) for r in got):
            fail("MPI_Barrier's timeline in %r: %s, not %d calls on each of ranks 0 and 1" % (interval, got, n))
        if len(got[0][2]) != n or sum(got[0][2]) < n * late / 4 or got[1][2]:
            fail("MPI_Barrier's wait parts in %r: rank 0 %s, rank 1 %s; rank 0 enters each first (at least %g s "
                 "of Potential sync in all), rank 1 last (none)" % (interval, got[0][2], got[1][2], n * late / 4))
        if {r: c for r, (c, _, _) in got.items()} != protocol_calls(doc, "MPI_Barrier", interval):
            fail("MPI_Barrier in %r: the trace's calls per process are not the protocol's %s" %
                 (interval, protocol_calls(doc, "MPI_Barrier", interval)))
        shot(driver, os.path.join(shots, "3-barrier-%s.png" % interval.replace(" ", "-")))
    if len(src_ids) != 1:
        fail("MPI_Barrier's SRC numbers in the two intervals are %s, not one call site" % src_ids)


def check_first(driver, shots, n_sends, page, first):
    view_browser.load(driver, page)
    select(driver, "MPI_Recv")
    calls, drawn, _ = lanes(driver)[0]
    if calls != n_sends or drawn != first:
        fail("with --events %d, MPI_Recv on rank 0: %d calls said, %d drawn" % (first, calls, drawn))
    rows = driver.find_elements(By.CSS_SELECTOR, '#trace-links table.trace-events tr[data-rank="0"][data-index]')
    more = driver.find_elements(By.CSS_SELECTOR, '#trace-links table.trace-events tr.more[data-rank="0"]')
    if len(rows) != first or len(more) != 1 or more[0].get_attribute("data-more") != str(n_sends - first):
        fail("with --events %d the table shows %d calls of rank 0 and %s more, not %d and %d more" %
             (first, len(rows), [m.get_attribute("data-more") for m in more], first, n_sends - first))
    if "--events" not in more[0].text:
        fail("the table does not say how to carry more calls: %r" % more[0].text)
    enters = [float(r.find_elements(By.TAG_NAME, "td")[2].text) for r in rows]
    if enters != sorted(enters):
        fail("the first calls are not in time order: %s" % enters)
    shot(driver, os.path.join(shots, "4-first-n.png"))
    # the page control: fewer
    driver.execute_script("var i = document.getElementById('trace-shown'); i.value = '2';"
                          "i.dispatchEvent(new Event('change'));")
    rows = driver.find_elements(By.CSS_SELECTOR, '#trace-links table.trace-events tr[data-rank="0"][data-index]')
    if len(rows) != 2 or lanes(driver)[0][1] != 2:
        fail("the page control set to 2 shows %d rows and %d calls drawn" % (len(rows), lanes(driver)[0][1]))
    shot(driver, os.path.join(shots, "5-control-2.png"))
    view_browser.no_console_errors(driver, page)


def check_plain(driver, page):
    view_browser.load(driver, page)
    select(driver, "MPI_Recv")
    if driver.find_elements(By.ID, "trace-links") or driver.find_elements(By.ID, "trace-shown"):
        fail("%s was made without a trace, yet it has a trace panel" % page)


def main():
    if len(sys.argv) != 10:
        fail("usage: check_trace_view.py SHOTS N_SENDS N_BARRIERS T_LATE LINKED.html FIRST.html N PLAIN.html "
             "PROTOCOL.json")
    shots, n_sends, n_barriers, late, linked, first_page, first, plain, protocol = sys.argv[1:]
    with open(protocol) as f:
        doc = json.load(f)
    driver = view_browser.start()
    try:
        check_linked(driver, shots, int(n_sends), int(n_barriers), float(late), linked, doc)
        check_first(driver, shots, int(n_sends), first_page, int(first))
        check_plain(driver, plain)
    finally:
        driver.quit()
    print("check_trace_view: the trace links show the known calls and waits")


if __name__ == "__main__":
    main()
