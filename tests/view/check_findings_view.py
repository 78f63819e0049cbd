"""Drive the Correctness panel of mpiprof-view's pages in a headless
Chromium, for tests/view/test_view_findings.sh:

    check_findings_view.py SHOTS SOURCE.c F.html F.json CLEAN.html OFF.html OLD.html TWO.html TWO_OLD.html

F.json is a protocol of view_known.c (SOURCE.c) with the findings of
inject_findings.py, F.html its page; CLEAN.html the page of a run with
MPIPROF_CHECK=basic and no findings, OFF.html of a run with the checks off,
OLD.html of a protocol without "correctness" (an older mpiprof), TWO.html
the page of F.json and the clean protocol side by side, TWO_OLD.html of
F.json and the old one.  Checked: the panel
comes before Parameters and lists F's findings in the protocol's order with
their severity, kind, function, call site, ranks, count, details and other
side; selecting one (click, or the arrow keys and Enter) shows the marked
source line of its call and of the other side's frames, also for a finding
at a line no SRC point has; its SRC link selects that SRC point in the first
interval that has it, whose detail links back; the empty states of the
clean, off and old protocols; both lists on the two-protocol page, the
findings the other protocol lacks marked, unless its checks did not run.  Exit 0,
or 1 with the reason."""
import json
import os
import sys
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import view_browser
from check_view import fail, marker_line


def finding_rows(driver, protocol=0):
    return driver.find_elements(By.CSS_SELECTOR, "#findings-%d tbody tr" % protocol)


def ranks_text(f):
    if f["first_rank"] == f["last_rank"]:
        return "rank %d" % f["first_rank"]
    return "ranks %d-%d" % (f["first_rank"], f["last_rank"])


def detail_side(driver, side):
    panel = driver.find_element(By.ID, "finding-detail")
    if not panel.is_displayed():
        fail("selecting a finding shows no #finding-detail")
    found = panel.find_elements(By.CSS_SELECTOR, '.finding-side[data-side="%s"]' % side)
    if len(found) != 1:
        fail("the finding's detail has %d parts for the %s side, not 1: %r" % (len(found), side, panel.text))
    return found[0]


def marked_lines(part):
    """The highlighted line of each frame's excerpt: [(line, text)]."""
    out = []
    for frame in part.find_elements(By.CSS_SELECTOR, ".frame"):
        calls = frame.find_elements(By.CSS_SELECTOR, ".excerpt tr.call")
        out.append((int(calls[0].get_attribute("data-line")), calls[0].text) if calls else (None, frame.text))
    return out


def expect_marked(part, want, what):
    got = marked_lines(part)
    if [g[0] for g in got] != [w[0] for w in want]:
        fail("%s: the frames mark the lines %s, not %s" % (what, got, want))
    for (line, text), (_, needle) in zip(got, want):
        if needle not in text:
            fail("%s: line %d is shown as %r, not the call %r" % (what, line, text, needle))


def check_list(driver, doc):
    # the panel first: before Parameters, on the first screen
    if not driver.find_elements(By.ID, "correctness"):
        fail("the page has no Correctness panel (#correctness)")
    before = driver.execute_script(
        "return !!(document.getElementById('correctness').compareDocumentPosition("
        "document.getElementById('parameters')) & Node.DOCUMENT_POSITION_FOLLOWING);")
    top = driver.execute_script("return document.getElementById('correctness').getBoundingClientRect().top;")
    if not before or top > driver.execute_script("return window.innerHeight;"):
        fail("the Correctness panel is not before Parameters on the first screen (top %s)" % top)
    k = doc["correctness"]
    counts = driver.find_element(By.CSS_SELECTOR, "#correctness .correctness-counts")
    if counts.get_attribute("data-errors") != str(k["errors"]) or \
            "%d errors, %d warnings" % (k["errors"], k["warnings"]) not in counts.text:
        fail("the panel's counts %r are not the protocol's %d errors, %d warnings" %
             (counts.text, k["errors"], k["warnings"]))
    checks = driver.find_element(By.CSS_SELECTOR, "#correctness .checks").text
    if k["checks"] not in checks or "MPIPROF_CHECK=basic" not in checks:
        fail("the panel does not name the checks that ran: %r" % checks)
    rows = finding_rows(driver)
    if len(rows) != len(k["findings"]):
        fail("the panel lists %d findings, the protocol has %d" % (len(rows), len(k["findings"])))
    for row, f in zip(rows, k["findings"]):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        want = [f["severity"], f["kind"], f["function"], f["stack"][0]["text"], ranks_text(f), str(f["count"]),
                f["detail"]]
        if cells[:7] != want:
            fail("a finding's row shows %s, not %s" % (cells[:7], want))
        other = f["other"]["stack"][0]["text"] if f["other"] else ""
        if other not in cells[7] or (f["peer"] is not None and "rank %d" % f["peer"] not in cells[7]):
            fail("the other side of %s is shown as %r, not %r on rank %s" % (f["kind"], cells[7], other, f["peer"]))


def check_selection(driver, shots, source, doc):
    findings = doc["correctness"]["findings"]
    line = {m: marker_line(source, m) for m in ("bcast", "allreduce", "reduce_setup", "sendrecv", "abort")}
    finding_rows(driver)[0].click()
    expect_marked(detail_side(driver, "call"), [(line["bcast"], "MPI_Bcast(&value")], "collective-mismatch's call")
    expect_marked(detail_side(driver, "other"), [(line["allreduce"], "MPI_Allreduce(&value"),
                                                 (line["reduce_setup"], "reduce_step(value)")],
                  "collective-mismatch's other side")
    driver.save_screenshot(os.path.join(shots, "1-finding-selected.png"))

    # its SRC link: the SRC point in the first interval that has it
    src = findings[0]["src"]
    first = next(iv for iv in doc["intervals"] if any(s["id"] == src for s in iv["src"]))
    links = detail_side(driver, "call").find_elements(By.CSS_SELECTOR, "button.src-link")
    if len(links) != 1 or links[0].get_attribute("data-goto-src") != str(src):
        fail("the finding's call has no link to its SRC point %d: %s" % (src, [b.text for b in links]))
    links[0].click()
    title = driver.find_element(By.ID, "interval-title").text
    if "\u201c%s\u201d" % first["name"] not in title:
        fail("the link to SRC %d selected %r, not its first interval %r" % (src, title, first["name"]))
    detail = driver.find_element(By.ID, "src-detail")
    heading = detail.find_element(By.TAG_NAME, "h2").text
    if not detail.is_displayed() or not heading.startswith("SRC %d " % src):
        fail("the link to SRC %d shows %r" % (src, heading))
    if driver.switch_to.active_element != detail:
        fail("the link to SRC %d did not move the focus to its detail" % src)
    # and the SRC point's detail links back to its finding
    back = detail.find_elements(By.CSS_SELECTOR, 'button[data-goto-finding="0"]')
    if len(back) != 1:
        fail("SRC %d's detail does not link to its finding" % src)
    driver.save_screenshot(os.path.join(shots, "2-src-point-of-finding.png"))
    back[0].click()
    if driver.find_element(By.ID, "finding-detail").get_attribute("data-finding") != "0":
        fail("the SRC point's link to its finding did not select it")

    # the keyboard: ArrowDown then Enter selects the next finding (MPI_Abort,
    # no SRC point, a line that only the findings' source lines hold)
    finding_rows(driver)[0].send_keys(Keys.ARROW_DOWN)
    active = driver.switch_to.active_element
    if active.get_attribute("data-finding") != "1":
        fail("ArrowDown on the first finding moved the focus to %r, not the second" % active.text)
    active.send_keys(Keys.ENTER)
    call = detail_side(driver, "call")
    expect_marked(call, [(line["abort"], "MPI_Abort(MPI_COMM_WORLD, 2)")], "abort's call (no SRC point)")
    if call.find_elements(By.CSS_SELECTOR, "button.src-link") or not call.find_elements(By.CSS_SELECTOR, ".no-src"):
        fail("a finding without SRC point (src null) shows a link to one, or does not say it has none")
    if finding_rows(driver)[1].get_attribute("aria-selected") != "true":
        fail("Enter on the second finding did not mark its row selected")
    finding_rows(driver)[1].send_keys(Keys.END)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    expect_marked(detail_side(driver, "call"), [(line["sendrecv"], "MPI_Sendrecv(&rank")], "End, Enter: the last")
    driver.save_screenshot(os.path.join(shots, "3-keyboard.png"))


def check_state(driver, page, state, words):
    view_browser.load(driver, page)
    shown = driver.find_elements(By.CSS_SELECTOR, "#correctness .correctness-state")
    if len(shown) != 1 or shown[0].get_attribute("data-state") != state or words not in shown[0].text:
        fail("%s: the panel says %r, not the %s state (%r)" % (page, [s.text for s in shown], state, words))
    if driver.find_elements(By.CSS_SELECTOR, "table.findings tbody tr"):
        fail("%s: findings listed without findings" % page)


def check_two(driver, page, doc):
    view_browser.load(driver, page)
    sides = driver.find_elements(By.CSS_SELECTOR, "#correctness .correctness-of")
    if len(sides) != 2:
        fail("the two-protocol page shows %d Correctness lists, not 2" % len(sides))
    rows = finding_rows(driver, 0)
    if len(rows) != len(doc["correctness"]["findings"]):
        fail("the two-protocol page lists %d of the first protocol's %d findings" %
             (len(rows), len(doc["correctness"]["findings"])))
    if any("not in clean" not in r.text for r in rows):
        fail("findings only in the first protocol are not said to be: %s" % [r.text for r in rows])
    state = sides[1].find_elements(By.CSS_SELECTOR, ".correctness-state")
    if not state or state[0].get_attribute("data-state") != "clean":
        fail("the second (clean) protocol's list does not say it has no findings: %r" % sides[1].text)
    rows[2].click()
    if "incorrect-send-size" not in driver.find_element(By.ID, "finding-detail").text:
        fail("selecting a finding on the two-protocol page does not show it")


def check_two_old(driver, page):
    view_browser.load(driver, page)
    states = [s.get_attribute("data-state") for s in driver.find_elements(By.CSS_SELECTOR, ".correctness-state")]
    if states != ["not-recorded"]:
        fail("the page of a protocol with findings and an old one says %s, not the old one's not-recorded" % states)
    marked = [r.text for r in finding_rows(driver, 0) if r.find_elements(By.CSS_SELECTOR, ".only-here")]
    if not finding_rows(driver, 0) or marked:
        fail("findings are marked as missing from a protocol that did not record any: %s" % marked)


def main():
    if len(sys.argv) != 10:
        fail("usage: check_findings_view.py SHOTS SOURCE.c F.html F.json CLEAN.html OFF.html OLD.html TWO.html "
             "TWO_OLD.html")
    shots, source, page, f_json, clean, off, old, two, two_old = sys.argv[1:]
    os.makedirs(shots, exist_ok=True)
    with open(f_json) as f:
        doc = json.load(f)
    driver = view_browser.start()
    try:
        t0 = time.time()
        view_browser.load(driver, page)
        check_list(driver, doc)
        check_selection(driver, shots, source, doc)
        view_browser.no_console_errors(driver, page)
        check_state(driver, clean, "clean", "No findings")
        check_state(driver, off, "off", "No correctness check ran")
        check_state(driver, old, "not-recorded", "Not recorded")
        check_two(driver, two, doc)
        driver.save_screenshot(os.path.join(shots, "4-two-protocols.png"))
        view_browser.no_console_errors(driver, two)
        check_two_old(driver, two_old)
        view_browser.no_console_errors(driver, two_old)
        print("check_findings_view: every check passed in %.1f s of browser" % (time.time() - t0))
    except TimeoutException as e:
        fail("the page did not get ready in time: %s" % e)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
