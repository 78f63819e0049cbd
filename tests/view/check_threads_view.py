"""Drive the page of thread_times' protocol (test_view_threads.sh).

usage: check_threads_view.py PAGE.html PROT.json

The SRC point that two threads per process called (thread_times.c's
MPI_Sendrecv), selected in the table, shows a By-thread table: a row per
thread index and a column for all processes and for each process, each
cell the JSON's time (read from its data-value), and the sentence with the
most threads of one process and the least and most time of one thread.
An SRC point called by one thread shows none.
"""
import json
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import view_browser


def fail(msg):
    print("FAIL: check_threads_view: " + msg, file=sys.stderr)
    sys.exit(1)


def select(driver, sid):
    driver.find_element(By.CSS_SELECTOR, '#src-table tbody tr[data-src="%d"]' % sid).click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "src-detail").is_displayed() and
                                    ("SRC %d " % sid) in d.find_element(By.ID, "src-detail").text)


def main(page, prot):
    doc = json.load(open(prot))
    points = doc["intervals"][0]["src"]
    threaded = [s for s in points if s.get("threads") and s["threads"]["shown_in_text"]]
    single = [s for s in points if not (s.get("threads") and s["threads"]["shown_in_text"])]
    if len(threaded) != 1 or threaded[0]["function"] != "MPI_Sendrecv":
        fail("expected one SRC point with per-thread times (MPI_Sendrecv): %r" % [s["function"] for s in threaded])
    s, t = threaded[0], threaded[0]["threads"]
    columns = [("all processes", t["by_index"])] + [("rank %d" % p["rank"], p["by_index"]) for p in t["by_process"]]
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        select(driver, s["id"])
        tables = driver.find_elements(By.CSS_SELECTOR, "#src-detail .by-thread table.per-thread")
        if len(tables) != 1:
            fail("SRC %d (called by %d threads of a process) shows %d By-thread tables"
                 % (s["id"], t["threads_max"], len(tables)))
        heads = [th.text for th in tables[0].find_elements(By.CSS_SELECTOR, "thead th")][1:]
        if heads != [c[0] for c in columns]:
            fail("the By-thread columns are %r, the JSON's %r" % (heads, [c[0] for c in columns]))
        indexes = sorted({int(k) for _, by in columns for k in by})
        rows = tables[0].find_elements(By.CSS_SELECTOR, "tbody tr")
        beyond = [("all processes", t["beyond"])] + [("rank %d" % p["rank"], p["beyond"]) for p in t["by_process"]]
        if any(b for _, b in beyond):  # the threads past the indexed ones: a row of their own, last
            last = rows.pop()
            if last.get_attribute("data-thread") != "beyond" or \
                    "%d and beyond" % t["beyond"]["first_index"] not in last.text:
                fail("no row of the threads past the indexed ones: %r" % last.text)
            for (label, b), td in zip(beyond, last.find_elements(By.CSS_SELECTOR, "td.num")):
                got = td.get_attribute("data-value")
                if (b is None and got) or (b is not None and (not got or abs(float(got) - b["time"]) > 1e-12 or
                                                              "(%d threads)" % b["threads"] not in td.text)):
                    fail("threads past the indexed ones, %s: %r (%r) on the page, %r in the JSON"
                         % (label, got, td.text, b))
        if [r.get_attribute("data-thread") for r in rows] != [str(i) for i in indexes]:
            fail("the By-thread rows are %r, the JSON's thread indexes %r"
                 % ([r.get_attribute("data-thread") for r in rows], indexes))
        for r, i in zip(rows, indexes):
            cells = r.find_elements(By.CSS_SELECTOR, "td.num")
            for (label, by), td in zip(columns, cells):
                want, got = by.get(str(i)), td.get_attribute("data-value")
                if (want is None and got != "") or (want is not None and (not got or abs(float(got) - want) > 1e-12)):
                    fail("thread %d, %s: %r on the page, %r in the JSON" % (i, label, got, want))
        text = driver.find_element(By.CSS_SELECTOR, "#src-detail .by-thread p").text
        if "%d threads of one process at most (rank %d)" % (t["threads_max"], t["threads_max_rank"]) not in text:
            fail("the By-thread sentence reads %r" % text)
        print("by thread: %s; %d rows" % (text, len(rows)))
        for other in single:
            select(driver, other["id"])
            if driver.find_elements(By.CSS_SELECTOR, "#src-detail .by-thread"):
                fail("SRC %d (%s, one thread) shows a By-thread table" % (other["id"], other["function"]))
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_threads_view: ok")


if __name__ == "__main__":
    main(*sys.argv[1:3])
