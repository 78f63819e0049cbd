"""The digest, the SRC table's fit and its inclusive toggle on a page of
view_known.c's protocol in a headless Chromium, for
tests/view/test_view_digest.sh:

    check_view_digest.py SHOTS SOURCE.c PAGE.html PROTOCOL.json PROTOCOL.txt

The run is view_known's with rank 1 computing 0.1 s more before each
MPI_Allreduce of "solve": rank 0 waits for it there, so Collective is the
largest part of Lost time and that MPI_Allreduce (the call at
MARK:allreduce reached from MARK:reduce_solve) the top SRC point.  In a
1400x900 viewport, without scrolling, the page shows K_eff, that part and
that SRC point, with the figures of the JSON, which the text protocol's
digest prints too; Parameters start collapsed.  The SRC table fits its
pane, and after a row is selected (a click, and Enter) the MPI function
column is within the pane and the window.  Interval 0 lists the calls made
in it (MPI_Comm_rank, MPI_Comm_size, MPI_Barrier); the toggle "with its
sub-intervals" lists every SRC point of the run, with the JSON's inclusive
sums.  Screenshots of each state go to SHOTS.  Exit 0, or 1 with the
reason."""
import json
import os
import re
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import view_browser

WIDTH, HEIGHT = 1400, 900


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def marker_line(source, name):
    pat = re.compile(r"MARK:%s(?![A-Za-z0-9_])" % re.escape(name))
    with open(source) as f:
        hits = [n for n, ln in enumerate(f, 1) if pat.search(ln)]
    if len(hits) != 1:
        fail("MARK:%s on lines %r of %s" % (name, hits, source))
    return hits[0]


def rect(driver, el):
    return driver.execute_script("var r = arguments[0].getBoundingClientRect();"
                                 "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};", el)


def on_first_screen(driver, el, what):
    r = rect(driver, el)
    if not (r["top"] >= 0 and r["bottom"] <= HEIGHT and r["left"] >= 0 and r["right"] <= WIDTH and
            el.is_displayed()):
        fail("%s is not on the first screen (%dx%d): at %r" % (what, WIDTH, HEIGHT, r))


def check_first_screen(driver, shots, source, doc, text_lines):
    d = doc["digest"]
    if driver.execute_script("return [window.scrollX, window.scrollY, window.innerWidth, window.innerHeight]") != \
            [0, 0, WIDTH, HEIGHT]:
        fail("the page is not at the top of a %dx%d viewport" % (WIDTH, HEIGHT))
    driver.save_screenshot(os.path.join(shots, "1-first-screen.png"))
    if driver.execute_script("return document.getElementById('parameters').open"):
        fail("Parameters are open when the page opens; they start collapsed")
    # K_eff as the JSON and the text say it
    keff = driver.find_element(By.CSS_SELECTOR, '#digest [data-key="keff"] .keff')
    on_first_screen(driver, keff, "K_eff")
    want = "%.4f" % d["parallelization_efficiency"]
    if keff.text != want:
        fail("the page's K_eff is %r, the JSON's %s" % (keff.text, want))
    if not any(re.match(r"^   K_eff +%s " % re.escape(want), ln) for ln in text_lines[:40]):
        fail("the text's first 40 lines do not give K_eff %s" % want)
    # the largest part of Lost time: Collective (rank 0 waits in MPI_Allreduce)
    largest = driver.find_element(By.CSS_SELECTOR, "#digest ul.lost-parts li.largest")
    on_first_screen(driver, largest, "the largest part of Lost time")
    part = d["lost_parts"][0]
    if part["key"] != "collective" or largest.get_attribute("data-key") != "collective":
        fail("the largest part of Lost time is %r in the JSON, %r on the page; expected collective"
             % (part["key"], largest.get_attribute("data-key")))
    secs = "%.6f" % part["seconds"]
    if secs not in largest.text or float(largest.get_attribute("data-value")) != part["seconds"]:
        fail("the page's Collective is %r, the JSON's %s s" % (largest.text, secs))
    if not any(re.match(r"^      Collective +%s s " % re.escape(secs), ln) for ln in text_lines[:40]):
        fail("the text's first 40 lines do not give Collective %s s" % secs)
    # the top SRC point: MPI_Allreduce reached from MARK:reduce_solve
    top = d["top_src"][0]
    solve = marker_line(source, "reduce_solve")
    stack = None
    for iv in doc["intervals"]:
        for s in iv["src"]:
            if s["id"] == top["id"]:
                stack = s["stack"]
    if top["function"] != "MPI_Allreduce" or not stack or len(stack) < 2 or stack[1]["line"] != solve:
        fail("the top SRC point is %r (stack %r), expected the MPI_Allreduce reached from line %d"
             % (top, stack, solve))
    row = driver.find_element(By.CSS_SELECTOR, "#digest table.top-src tbody tr")
    on_first_screen(driver, row, "the top SRC point")
    if int(row.get_attribute("data-src")) != top["id"] or "MPI_Allreduce" not in row.text or \
            "%.6f" % top["time"] not in row.text or "%.1f" % (100 * top["share_of_lost"]) not in row.text:
        fail("the page's top SRC point %r, the JSON's %r" % (row.text, top))
    line = r"^      #1 SRC %d MPI_Allreduce at .*: %s s in %d calls?, %s%% of Lost time$" % (
        top["id"], re.escape("%.6f" % top["time"]), top["calls"], re.escape("%.1f" % (100 * top["share_of_lost"])))
    if not any(re.match(line, ln) for ln in text_lines[:40]):
        fail("the text's first 40 lines lack /%s/" % line)
    print("first screen: K_eff %s, Collective %s s, SRC %d MPI_Allreduce %.6f s, as in the JSON and the text"
          % (want, secs, top["id"], top["time"]))


def src_rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr")


def check_fit(driver, shots, what):
    wrap = driver.find_element(By.CSS_SELECTOR, "#interval-panel .table-wrap")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", wrap)
    sizes = driver.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", wrap)
    if sizes[0] > sizes[1] + 1:
        fail("%s: the SRC table (%d px) is wider than its pane (%d px)" % (what, sizes[0], sizes[1]))
    rows = src_rows(driver)
    for how, row in (("click", rows[-1]), ("Enter", rows[0])):
        if how == "click":
            row.find_elements(By.TAG_NAME, "td")[2].click()
        else:
            row.send_keys(Keys.ENTER)
        if row.get_attribute("aria-selected") != "true":
            fail("%s: selecting a row by %s did not select it" % (what, how))
        fn = row.find_elements(By.TAG_NAME, "td")[1]
        r, w = rect(driver, fn), rect(driver, wrap)
        if not (r["left"] >= w["left"] - 1 and r["right"] <= w["right"] + 1 and r["left"] >= 0 and
                r["right"] <= WIDTH):
            fail("%s: after selecting a row by %s its MPI function cell (%r) is out of the pane (%r) "
                 "or the window" % (what, how, r, w))
    driver.save_screenshot(os.path.join(shots, "2-row-selected-%s.png" % what.replace(" ", "-")))
    print("%s: the SRC table (%d px) fits its pane (%d px); the function stays in view after a click and Enter"
          % (what, sizes[0], sizes[1]))


def table_ids(driver):
    return [int(tr.get_attribute("data-src")) for tr in src_rows(driver)]


def check_toggle(driver, shots, doc):
    iv0 = doc["intervals"][0]
    own = sorted(s["function"] for s in iv0["src"])
    if own != ["MPI_Barrier", "MPI_Comm_rank", "MPI_Comm_size"]:
        fail("interval 0's own SRC points are %r, expected MPI_Barrier, MPI_Comm_rank, MPI_Comm_size" % own)
    every = sorted({s["id"] for iv in doc["intervals"] for s in iv["src"]})
    inclusive = {s["id"]: s for s in iv0["src_inclusive"]}
    if sorted(inclusive) != every or len(every) != 7:
        fail("interval 0's src_inclusive lists %r, the run's SRC points are %r (7 expected)"
             % (sorted(inclusive), every))
    if sorted(table_ids(driver)) != sorted(s["id"] for s in iv0["src"]):
        fail("interval 0's table lists %r, its own calls are %r" % (table_ids(driver), own))
    toggle = driver.find_element(By.CSS_SELECTOR, 'input[name="src-mode"][value="inclusive"]')
    toggle.click()
    ids = table_ids(driver)
    if sorted(ids) != every:
        fail("with its sub-intervals, interval 0's table lists %r, expected every SRC point %r" % (ids, every))
    for tr in src_rows(driver):
        s = inclusive[int(tr.get_attribute("data-src"))]
        cell = tr.find_element(By.CSS_SELECTOR, 'td[data-key="time"]')
        if abs(float(cell.get_attribute("data-value")) - s["time"]["sum"]) > 1e-12 or \
                "%.6f" % s["time"]["sum"] not in cell.text:
            fail("SRC %d: the table's inclusive time %r, the JSON's %r" % (s["id"], cell.text, s["time"]["sum"]))
    sendrecv = [s for s in inclusive.values() if s["function"] == "MPI_Sendrecv"]
    if len(sendrecv) != 1 or sendrecv[0]["calls"] != 20:
        fail("interval 0 inclusive MPI_Sendrecv: %r, expected 20 calls (10 steps x 2 ranks)" % sendrecv)
    driver.save_screenshot(os.path.join(shots, "3-inclusive.png"))
    check_fit(driver, shots, "interval 0 inclusive")
    driver.find_element(By.CSS_SELECTOR, 'input[name="src-mode"][value="exclusive"]').click()
    if sorted(table_ids(driver)) != sorted(s["id"] for s in iv0["src"]):
        fail("back to the calls made in interval 0, the table lists %r" % table_ids(driver))
    print("toggle: interval 0 lists its %d own SRC points, with its sub-intervals all %d, with the JSON's sums"
          % (len(own), len(every)))


def check_digest_link(driver, doc):
    driver.execute_script("window.scrollTo(0, 0)")
    top = doc["digest"]["top_src"][0]
    driver.find_element(By.CSS_SELECTOR, '#digest button[data-digest-src="%d"]' % top["id"]).click()
    detail = driver.find_element(By.ID, "src-detail")
    if not detail.is_displayed() or not detail.text.startswith("SRC %d MPI_Allreduce in interval 0" % top["id"]):
        fail("the digest's SRC %d did not show it in interval 0: %r" % (top["id"], detail.text[:200]))
    if not driver.find_element(By.CSS_SELECTOR, 'input[name="src-mode"][value="inclusive"]').is_selected():
        fail("the digest's SRC link did not switch the table to the calls with sub-intervals")
    print("the digest's top SRC point opens it in interval 0, sub-intervals included")


def main():
    if len(sys.argv) != 6:
        fail(__doc__)
    shots, source, page, json_path, text_path = sys.argv[1:]
    with open(json_path) as f:
        doc = json.load(f)
    with open(text_path) as f:
        text_lines = f.read().splitlines()
    driver = view_browser.start(WIDTH, HEIGHT)
    try:
        # the viewport itself 1400x900, whatever the window's frame takes
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        view_browser.load(driver, page)
        check_first_screen(driver, shots, source, doc, text_lines)
        check_fit(driver, shots, "interval 0")
        check_toggle(driver, shots, doc)
        check_digest_link(driver, doc)
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_view_digest: every check passed; screenshots in %s" % shots)


if __name__ == "__main__":
    main()
