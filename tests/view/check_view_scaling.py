"""Drive the page of three protocols in a real headless Chromium, for
tests/view/test_view_scaling.sh:

    check_view_scaling.py SHOTS THREE.html KNOWN.json FIRST.json MIDDLE.json LAST.json

THREE.html is mpiprof-view's page of run_1.json, run_2.json, run_4.json
(make_scaling_runs.py: KNOWN.json their known numbers; LAST.json's
intervals and SRC frames 3 lines lower than FIRST.json's).  Checks: the
page loads with no console error; its title names the program, each P and
date; the Scaling panel shows the three charts with a point (or bar) per
P at the known values, the table with the known times, speedups, scaling
efficiencies and K_eff, Lost time by part, the part that grew fastest
(Collective), the fits marked as fits with predictions at P = 8 and 16;
the Differences of the first and the last pair their moved intervals and
SRC points (the matching of mpiprof-compare, carried in the page), say
"Scaling efficiency" and the growth of Productive time; the By-process
panel says which run it shows; the Differences' chooser offers run_2 and
run_4 (selected), and choosing run_2 compares the first with it
(MIDDLE.json's time of MPI_Allreduce in "solve").  Screenshots go to SHOTS.  Exit 0, or 1."""
import json
import os
import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import view_browser


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check_scaling(driver, known):
    panel = driver.find_element(By.ID, "scaling")
    if not panel.is_displayed():
        fail("the three-run page shows no Scaling panel")
    ps = [1, 2, 4]
    t1 = known["1"]["execution_time"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#scaling-table tbody tr")
    if [r.get_attribute("data-p") for r in rows] != ["1", "2", "4"]:
        fail("the scaling table's rows are %s, not P = 1, 2, 4" % [r.get_attribute("data-p") for r in rows])
    for p, row in zip(ps, rows):
        k = known[str(p)]
        want = {"execution_time": k["execution_time"], "speedup": t1 / k["execution_time"],
                "scaling_efficiency": t1 / k["execution_time"] / p,
                "parallelization_efficiency": k["parallelization_efficiency"], "lost_time": k["lost_time"]}
        for key, value in want.items():
            td = row.find_element(By.CSS_SELECTOR, 'td[data-key="%s"]' % key)
            if not close(float(td.get_attribute("data-value")), value):
                fail("P = %d: %s is %s on the page, %s known" % (p, key, td.get_attribute("data-value"), value))
        text = row.find_element(By.CSS_SELECTOR, 'td[data-key="execution_time"]').text
        if "%.6f" % k["execution_time"] not in text:
            fail("P = %d: the execution time reads %r, not %.6f s" % (p, text, k["execution_time"]))
        text = row.find_element(By.CSS_SELECTOR, 'td[data-key="speedup"]').text
        if text != "%.3f" % (t1 / k["execution_time"]):
            fail("P = %d: the speedup reads %r, not %.3f" % (p, text, t1 / k["execution_time"]))
    # the charts: a point per P at the known times, a bar of Collective per P
    for chart, cls, values in (("chart-time", "time", [known[str(p)]["execution_time"] for p in ps]),
                               ("chart-efficiency", "efficiency",
                                [t1 / known[str(p)]["execution_time"] / p for p in ps])):
        dots = driver.find_elements(By.CSS_SELECTOR, "#%s circle.%s" % (chart, cls))
        got = [(int(float(d.get_attribute("data-p"))), float(d.get_attribute("data-value"))) for d in dots]
        if len(got) != 3 or any(g[0] != p or not close(g[1], v) for g, p, v in zip(got, ps, values)):
            fail("the chart %s has the points %s, not %s" % (chart, got, list(zip(ps, values))))
    bars = driver.find_elements(By.CSS_SELECTOR, '#chart-lost rect[data-part="collective"]')
    got = [(int(float(b.get_attribute("data-p"))), float(b.get_attribute("data-value"))) for b in bars]
    want = [(p, known[str(p)]["per_process"]["collective"]) for p in ps if known[str(p)]["per_process"]["collective"] > 0]
    if len(got) != len(want) or any(g[0] != w[0] or not close(g[1], w[1]) for g, w in zip(got, want)):
        fail("the stacked Lost time chart's Collective bars are %s, not %s" % (got, want))
    fastest = driver.find_element(By.ID, "scaling-fastest")
    if fastest.get_attribute("data-part") != "collective" or "Collective" not in fastest.text:
        fail("the part that grew fastest is %r, not Collective" % fastest.text)
    fit = driver.find_element(By.CSS_SELECTOR, '#scaling-fits tr[data-key="execution_time"]').text
    if "fit at P = 8:" not in fit or "P = 16:" not in fit:
        fail("the execution time's model %r has no prediction at P = 8 and 16 marked as a fit" % fit)
    if "fitted, not measured" not in panel.text:
        fail("the models are not marked as fits")


def check_compare(driver, first, last, program):
    title = driver.find_element(By.ID, "title").text
    for p, doc in ((1, first), (4, last)):
        if "P = %d (%s)" % (p, doc["parameters"]["started"]) not in title or program not in title:
            fail("the title %r does not name the program, P = %d and its date" % (title, p))
    section = driver.find_element(By.ID, "comparison")
    if not section.find_elements(By.CSS_SELECTOR, 'li[data-key="scaling_efficiency"]') or \
            "Relative efficiency" in section.text:
        fail("the Differences do not say Scaling efficiency: %r" % section.text[:400])
    if not section.find_elements(By.CSS_SELECTOR, 'tr[data-key="productive_time"]'):
        fail("the Change table has no row of Productive time")
    if driver.find_elements(By.CSS_SELECTOR, "#tree .missing-b"):
        fail("the tree says intervals of the first are not in the last: moved intervals not matched")
    which = driver.find_element(By.CSS_SELECTOR, "#processes .which-run")
    if which.get_attribute("data-run") != "run_1" or "run_1" not in which.text:
        fail("the By-process panel does not say it shows run_1: %r" % which.text)
    # the moved SRC point of MPI_Allreduce in "solve": paired with the last's
    solve = [iv for iv in last["intervals"] if iv["name"] == "solve"][0]
    want = [s for s in solve["src"] if s["function"] == "MPI_Allreduce"][0]["time"]["sum"]
    got = allreduce_b(driver)
    if not got or not close(float(got), want):
        fail("MPI_Allreduce of 'solve' (3 lines lower in the last run) shows %r for the last run, not %s" % (got, want))


def allreduce_b(driver):
    """The time the SRC table gives the second run for MPI_Allreduce of 'solve'."""
    for item in driver.find_elements(By.CSS_SELECTOR, "#tree [role=treeitem]"):
        node = item.find_element(By.CSS_SELECTOR, ":scope > .node .name")
        if node.text.split(" ", 1)[1] == "solve":
            node.click()
            break
    rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr") if "MPI_Allreduce" in r.text]
    return rows[0].find_element(By.CSS_SELECTOR, 'td[data-key="time_b"]').get_attribute("data-value") if rows else ""


def check_chooser(driver, page, middle):
    """The Differences title chooses the run compared with the first: the
    last at first, then run_2 (the page drawn anew for it)."""
    chooser = driver.find_elements(By.ID, "compare-with")
    if not chooser:
        fail("a page of three protocols has no chooser of the run compared with the first: %r"
             % driver.find_element(By.ID, "comparison-title").text)
    picker = Select(chooser[0])
    labels = [o.text for o in picker.options]
    if len(labels) != 2 or not labels[0].startswith("run_2") or not labels[1].startswith("run_4") or \
            picker.first_selected_option.text != labels[1]:
        fail("the chooser offers %r with %r selected, not run_2 and run_4 (selected)"
             % (labels, picker.first_selected_option.text))
    picker.select_by_value("1")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "return location.hash === '#compare=1' && document.body.dataset.ready && "
        "document.getElementById('compare-with') && document.getElementById('compare-with').value === '1'"))
    view_browser.no_console_errors(driver, page)
    title = driver.find_element(By.ID, "comparison-title").text
    if "run_1 (first) and" not in title:
        fail("after choosing run_2 the title reads %r" % title)
    solve = [iv for iv in middle["intervals"] if iv["name"] == "solve"][0]
    want = [s for s in solve["src"] if s["function"] == "MPI_Allreduce"][0]["time"]["sum"]
    got = allreduce_b(driver)
    if not got or not close(float(got), want):
        fail("after choosing run_2, MPI_Allreduce of 'solve' shows %r for the second run, not run_2's %s" % (got, want))


def main():
    if len(sys.argv) != 7:
        fail("usage: check_view_scaling.py SHOTS THREE.html KNOWN.json FIRST.json MIDDLE.json LAST.json")
    shots, page, known_path, first_path, middle_path, last_path = sys.argv[1:]
    docs = []
    for path in (known_path, first_path, middle_path, last_path):
        with open(path) as f:
            docs.append(json.load(f))
    known, first, middle, last = docs
    os.makedirs(shots, exist_ok=True)
    driver = view_browser.start(1400, 900)
    try:
        view_browser.load(driver, page)
        driver.save_screenshot(os.path.join(shots, "1-loaded.png"))
        check_scaling(driver, known)
        driver.execute_script("document.getElementById('scaling').scrollIntoView()")
        driver.save_screenshot(os.path.join(shots, "2-scaling.png"))
        driver.find_element(By.ID, "scaling").screenshot(os.path.join(shots, "3-scaling-panel.png"))
        check_compare(driver, first, last, first["parameters"]["program"])
        driver.save_screenshot(os.path.join(shots, "4-compare-solve.png"))
        check_chooser(driver, page, middle)
        driver.save_screenshot(os.path.join(shots, "5-compare-run_2.png"))
        view_browser.no_console_errors(driver, page)
        print("check_view_scaling: every check passed; screenshots in %s" % shots)
    except TimeoutException as e:
        fail("the page did not get ready in time: %s" % e)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
