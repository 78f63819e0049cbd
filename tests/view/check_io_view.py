#!/usr/bin/env python3
"""check_io_view.py SHOTS PAGE.html PROT.json: the page of io_bytes.c's
protocol (tests/mpi/characteristics) in headless Chromium: the SRC table of
interval 0 gives each SRC point's bytes read and written as the JSON has
them (the MPI-IO points' bytes sent and received 0), an MPI-IO point's
details its bytes and bandwidth, and an interval's I/O figures (interval 0
and the nested "write phase") are its JSON "io"."""
import json
import math
import sys

import view_browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def fail(msg):
    print("FAIL: check_io_view: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    shots, page, prot = sys.argv[1:4]
    doc = json.load(open(prot))
    points = {s["id"]: s for s in doc["intervals"][0]["src"]}
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        rows = driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr[data-src]")
        if len(rows) != len(points):
            fail("%d rows in the SRC table of interval 0, the JSON has %d SRC points" % (len(rows), len(points)))
        io_row = None
        for tr in rows:
            s = points[int(tr.get_attribute("data-src"))]
            for key in ("bytes_read", "bytes_written", "bytes_sent", "bytes_recv"):
                td = tr.find_element(By.CSS_SELECTOR, 'td[data-key="%s"]' % key)
                shown = int(td.text.replace("\u2009", "").replace("\u00a0", " ").replace(" B", "").replace(" ", ""))
                if float(td.get_attribute("data-value")) != s[key] or shown != s[key]:
                    fail("SRC %d %s: %s on the page, %s in the JSON" % (s["id"], key, td.text, s[key]))
            if s["function"] == "MPI_File_read_at_all":
                io_row = tr
        if io_row is None:
            fail("no MPI_File_read_at_all in interval 0's SRC table")
        s = points[int(io_row.get_attribute("data-src"))]
        io_row.click()
        # the page rounds as JavaScript's Math.round (halves up), not as Python's round (halves to even)
        want = "%d B read, %d B written at %d B/s" % (s["bytes_read"], s["bytes_written"], math.floor(s["bandwidth"] + 0.5))

        def detail_text(d):
            return d.find_element(By.ID, "src-detail").text.replace("\u2009", "").replace("\u00a0", " ")
        try:  # the details are drawn after the click's handler has run
            WebDriverWait(driver, 10).until(lambda d: want in detail_text(d))
        except Exception:
            pass
        detail = detail_text(driver)
        if want not in detail:
            fail("the details of SRC %d lack %r: %s" % (s["id"], want, detail[:400]))
        view_browser.element_shot(driver, "#interval-panel", shots + "/io_src_table.png")
        # the I/O figures of interval 0, then of "write phase" (selected in the tree)
        for iv in (doc["intervals"][0], [x for x in doc["intervals"] if x["name"] == "write phase"][0]):
            if iv["id"]:
                driver.find_element(By.CSS_SELECTOR, '#tree [data-interval="%d"]' % iv["id"]).click()
            spans = {e.get_attribute("data-key"): e for e in driver.find_elements(By.CSS_SELECTOR, "#io-figures span[data-key]")}
            for key in ("calls", "bytes_read", "bytes_written", "time", "share", "bandwidth"):
                e = spans.get(key)
                if e is None or float(e.get_attribute("data-value")) != iv["io"][key]:
                    fail("interval %d's I/O %s on the page %s, in the JSON %s"
                         % (iv["id"], key, e and e.get_attribute("data-value"), iv["io"][key]))
            t = spans["bytes_written"].text.replace("\u2009", "").replace("\u00a0", " ").replace(" ", "")
            if t != "%dB" % iv["io"]["bytes_written"]:
                fail("interval %d's bytes written read %r on the page, %d in the JSON" % (iv["id"], t, iv["io"]["bytes_written"]))
        view_browser.element_shot(driver, "#interval-panel", shots + "/io_interval.png")
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_io_view: ok")


main()
