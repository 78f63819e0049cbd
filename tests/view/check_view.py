"""Drive mpiprof-view's pages in a real headless Chromium (selenium), for
tests/view/test_view_page.sh:

    check_view.py SHOTS SOURCE.c ONE.html A.json TWO.html B.json

ONE.html is the page of protocol A.json of view_known.c (SOURCE.c), TWO.html
the page of A.json and B.json side by side (B: the run with rank 1's extra
computation).  One browser session checks, in order: each page loads with
no console error; the interval tree shows view_known's intervals; clicking
the SRC point of its MPI_Allreduce shows the source line of the call, and
its source line lists both SRC points there; sorting by time orders the
rows; the function filter and the keyboard work; the two-protocol page
names Collective as the part of Lost time that grew, with the speedup of
the JSONs.  Screenshots of these states go to SHOTS.  Exit 0, or 1 with
the reason."""
import json
import os
import re
import sys
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import view_browser


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def marker_line(source, name):
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if "MARK:%s " % name in line or line.rstrip().endswith("MARK:%s */" % name):
                return n
    fail("no MARK:%s in %s" % (name, source))


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr")


def column_values(driver, key):
    cells = driver.find_elements(By.CSS_SELECTOR, '#src-table tbody td[data-key="%s"]' % key)
    return [float(c.get_attribute("data-value")) if c.get_attribute("data-value") else None for c in cells]


def select_interval(driver, name):
    for item in driver.find_elements(By.CSS_SELECTOR, "#tree [role=treeitem]"):
        node = item.find_element(By.CSS_SELECTOR, ":scope > .node .name")
        if node.text.split(" ", 1)[1] == name:
            node.click()
            return
    fail("no interval %r in the tree" % name)


def check_single(driver, shots, source, page, doc):
    view_browser.load(driver, page)
    # --- the interval tree: view_known's intervals, depth-first, with their numbers
    items = driver.find_elements(By.CSS_SELECTOR, "#tree [role=treeitem]")
    shown = [(i.get_attribute("data-interval"),
              i.find_element(By.CSS_SELECTOR, ":scope > .node .name").text) for i in items]
    expected = [(str(k), "%d %s" % (iv["id"], iv["name"])) for k, iv in enumerate(doc["intervals"])]
    if shown != expected:
        fail("the interval tree shows %s, the protocol has %s" % (shown, expected))
    names = [iv["name"] for iv in doc["intervals"]]
    if names != ["whole program", "setup", "solve", "exchange"]:
        fail("view_known's protocol has the intervals %s, not whole program, setup, solve, exchange" % names)
    solve = doc["intervals"][2]
    text = items[2].find_element(By.CSS_SELECTOR, ":scope > .node").text
    keff = re.search(r"eff\s*(\d\.\d{4})", text)
    if "%d\u00d7" % solve["executions"] not in text or not keff or \
            abs(float(keff.group(1)) - solve["real"]["main"]["parallelization_efficiency"]) > 1.5e-4:
        fail("the tree item of 'solve' does not show its executions and K_eff: %r" % text)
    driver.save_screenshot(os.path.join(shots, "1-loaded.png"))

    # --- sorting by time orders the rows (interval 0 has several SRC points)
    n = len(rows(driver))
    if n < 3:
        fail("interval 0 shows %d SRC points, view_known's has at least 3" % n)
    times = column_values(driver, "time")
    if times != sorted(times, reverse=True):
        fail("SRC points are not by descending time at first: %s" % times)
    header = driver.find_element(By.CSS_SELECTOR, '#src-table button[data-sort="time"]')
    header.click()
    times = column_values(driver, "time")
    if times != sorted(times):
        fail("after one click on Time the rows are not by ascending time: %s" % times)
    sort = driver.find_element(By.CSS_SELECTOR, '#src-table button[data-sort="time"]').find_element(By.XPATH, "..")
    if sort.get_attribute("aria-sort") != "ascending":
        fail("the Time column says aria-sort=%s after sorting ascending" % sort.get_attribute("aria-sort"))
    driver.save_screenshot(os.path.join(shots, "2-sorted-by-time.png"))
    # the keyboard sorts too: Enter on the header (focus stays on it)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    times = column_values(driver, "time")
    if times != sorted(times, reverse=True):
        fail("Enter on the Time header did not sort by descending time: %s" % times)
    driver.find_element(By.CSS_SELECTOR, '#src-table button[data-sort="calls"]').click()
    calls = column_values(driver, "calls")
    if calls != sorted(calls, reverse=True):
        fail("rows not by descending calls: %s" % calls)
    expected_calls = sorted((s["calls"] for s in doc["intervals"][0]["src"]), reverse=True)
    if calls != expected_calls:
        fail("the table's calls %s are not the protocol's %s" % (calls, expected_calls))
    # the filter by MPI function
    driver.execute_script("var s = document.getElementById('function-filter'); s.value = 'MPI_Barrier';"
                          "s.dispatchEvent(new Event('change'));")
    functions = [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows(driver)]
    if functions != ["MPI_Barrier"]:
        fail("filtered by MPI_Barrier, the table shows %s" % functions)

    # --- the SRC point of MPI_Allreduce in "solve": the source line of its call
    select_interval(driver, "solve")
    allreduce = [r for r in rows(driver) if "MPI_Allreduce" in r.text]
    if len(allreduce) != 1:
        fail("interval 'solve' shows %d MPI_Allreduce SRC points, not 1: %s" % (len(allreduce), [r.text for r in rows(driver)]))
    allreduce[0].click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "src-detail").is_displayed())
    frames = driver.find_elements(By.CSS_SELECTOR, "#src-detail .frame")
    if len(frames) < 2:
        fail("the stack of MPI_Allreduce in 'solve' shows %d frames, not reduce_step <- main" % len(frames))
    call = frames[0].find_element(By.CSS_SELECTOR, ".excerpt tr.call")
    want = marker_line(source, "allreduce")
    if call.get_attribute("data-line") != str(want) or "MPI_Allreduce(&value" not in call.text:
        fail("frame #0 highlights line %s %r, not the MPI_Allreduce call at line %d" %
             (call.get_attribute("data-line"), call.text, want))
    call1 = frames[1].find_element(By.CSS_SELECTOR, ".excerpt tr.call")
    if call1.get_attribute("data-line") != str(marker_line(source, "reduce_solve")):
        fail("frame #1 highlights line %s, not reduce_step's call in solve" % call1.get_attribute("data-line"))
    if len(frames[0].find_elements(By.CSS_SELECTOR, ".excerpt tr")) < 5:
        fail("frame #0 shows fewer than 5 lines of source around the call")
    driver.save_screenshot(os.path.join(shots, "3-src-point-source.png"))

    # --- its source line: every SRC point there, in every interval
    frames[0].find_element(By.CSS_SELECTOR, "button[data-line]").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "line-detail").is_displayed())
    hits = driver.find_elements(By.CSS_SELECTOR, "#line-detail tbody tr")
    where = sorted(h.find_elements(By.TAG_NAME, "td")[0].text for h in hits)
    if where != ["1 setup", "2 solve"]:
        fail("the MPI_Allreduce line lists SRC points in %s, not in setup and solve" % where)
    driver.save_screenshot(os.path.join(shots, "4-source-line.png"))

    # --- keyboard alone: the tree's arrow keys and Enter, a row's Enter
    item = driver.find_element(By.CSS_SELECTOR, '#tree [data-interval="2"]')
    item.send_keys(Keys.ARROW_DOWN)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    title = driver.find_element(By.ID, "interval-title").text
    if "exchange" not in title:
        fail("ArrowDown then Enter from 'solve' selected %r, not 'exchange'" % title)
    first = rows(driver)[0]
    first.send_keys(Keys.ENTER)
    detail = driver.find_element(By.ID, "src-detail")
    if not detail.is_displayed() or "MPI_Sendrecv" not in detail.text:
        fail("Enter on the first SRC row of 'exchange' did not show its MPI_Sendrecv")
    line = marker_line(source, "sendrecv")
    call = detail.find_element(By.CSS_SELECTOR, ".frame .excerpt tr.call")
    if call.get_attribute("data-line") != str(line):
        fail("MPI_Sendrecv's frame highlights line %s, not %d" % (call.get_attribute("data-line"), line))
    view_browser.no_console_errors(driver, page)


def check_compare(driver, shots, page, a, b):
    view_browser.load(driver, page)
    section = driver.find_element(By.ID, "comparison")
    if not section.is_displayed():
        fail("the two-protocol page shows no Differences section")
    grew = section.find_element(By.CSS_SELECTOR, 'li[data-key="grew"]')
    ma, mb = a["intervals"][0]["real"]["main"], b["intervals"][0]["real"]["main"]
    parts = ["insufficient_parallelism", "sendrecv", "collective", "system", "idle_time"]
    growth = {k: mb[k] - ma[k] for k in parts}
    # the known difference of the two runs: rank 1's 0.1 s more computation
    # is rank 0's wait in MPI_Allreduce, Collective
    if max(growth, key=growth.get) != "collective" or growth["collective"] < 0.05:
        fail("the runs do not differ as known (Collective +0.1 s): growth %s" % growth)
    if grew.get_attribute("data-grew") != "collective" or "Collective" not in grew.text:
        fail("the page says %r grew most (%r), not Collective" % (grew.get_attribute("data-grew"), grew.text))
    shown = re.search(r"\+(\d+\.\d{6})\s*s", grew.text)
    if not shown or abs(float(shown.group(1)) - growth["collective"]) > 1.5e-6:
        fail("the page's growth of Collective %r is not the protocols' %+.6f s" % (grew.text, growth["collective"]))
    speedup = section.find_element(By.CSS_SELECTOR, 'li[data-key="speedup"]')
    want = ma["execution_time"] / mb["execution_time"]
    shown = re.search(r"(\d+\.\d{4})", speedup.text)
    if abs(float(speedup.get_attribute("data-value")) - want) > 1e-9 or not shown or \
            abs(float(shown.group(1)) - want) > 1.5e-4:
        fail("the page's speedup %r is not the protocols' %.4f" % (speedup.text, want))
    row = section.find_element(By.CSS_SELECTOR, 'tr[data-key="collective"]')
    if "grew" not in row.get_attribute("class"):
        fail("the Collective row of the lost-time table is not marked as grown")
    # the SRC table pairs the runs' SRC points: MPI_Allreduce in solve, both times
    select_interval(driver, "solve")
    cells = [r for r in rows(driver) if "MPI_Allreduce" in r.text]
    if len(cells) != 1:
        fail("the two-protocol table of 'solve' has %d MPI_Allreduce rows" % len(cells))
    ta = float(cells[0].find_element(By.CSS_SELECTOR, 'td[data-key="time"]').get_attribute("data-value"))
    tb = float(cells[0].find_element(By.CSS_SELECTOR, 'td[data-key="time_b"]').get_attribute("data-value"))
    sa = [s for s in a["intervals"][2]["src"] if s["function"] == "MPI_Allreduce"][0]["time"]["sum"]
    sb = [s for s in b["intervals"][2]["src"] if s["function"] == "MPI_Allreduce"][0]["time"]["sum"]
    if abs(ta - sa) > 1e-9 or abs(tb - sb) > 1e-9:
        fail("MPI_Allreduce's times %s, %s are not the protocols' %s, %s" % (ta, tb, sa, sb))
    select_interval(driver, "whole program")
    driver.save_screenshot(os.path.join(shots, "5-two-protocols.png"))
    view_browser.no_console_errors(driver, page)


def main():
    if len(sys.argv) != 7:
        fail("usage: check_view.py SHOTS SOURCE.c ONE.html A.json TWO.html B.json")
    shots, source, one, a_path, two, b_path = sys.argv[1:]
    os.makedirs(shots, exist_ok=True)
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    driver = view_browser.start()
    try:
        t0 = time.time()
        check_single(driver, shots, source, one, a)
        check_compare(driver, shots, two, a, b)
        print("check_view: every check passed in %.1f s of browser; screenshots in %s" % (time.time() - t0, shots))
    except TimeoutException as e:
        fail("the page did not get ready in time: %s" % e)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
