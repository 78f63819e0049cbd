#!/usr/bin/env python3
"""check_matrix_view.py SHOTS PAGE.html PROT.json (or SHOTS big|off PAGE.html:
the synthetic ring of 1,024 processes, a run with MPIPROF_MATRIX=off): the Communication matrix
panel of the ring's page (tests/mpi/matrix/ring.c, 4 processes on two
hosts) in headless Chromium: the node-pair heat map has a cell per node
pair of the JSON with its figures; the process heat map has a coloured
cell for every process pair of the JSON (read back from the canvas) and a
white one where no pair is; the totals, the heaviest pairs and the Lost
time bars show the JSON's figures; colouring by messages redraws it."""
import json
import sys

import view_browser
from selenium.webdriver.common.by import By


def fail(msg):
    print("FAIL: check_matrix_view: " + msg, file=sys.stderr)
    sys.exit(1)


def num(text):
    return float(text.replace("\u2009", "").replace("\u00a0", "").replace("B", "").replace("s", "").strip())


def pixel(driver, x, y):
    return driver.execute_script(
        "var c = document.getElementById('matrix-canvas');"
        "return Array.from(c.getContext('2d').getImageData(arguments[0], arguments[1], 1, 1).data);", x, y)


def big(shots, page):
    """The synthetic ring of 1,024 processes on 32 nodes (make_big_matrix.py):
    a canvas of one pixel per cell, the ring's cells coloured, the others
    white, the 32 nodes as blocks."""
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        size = driver.execute_script("var c = document.getElementById('matrix-canvas'); return [c.width, c.height]")
        if size != [1024, 1024]:
            fail("the canvas of 1,024 processes is %s, not one pixel per cell" % size)
        for f in (0, 5, 31, 1023):
            t = (f + 1) % 1024
            c = driver.execute_script("return window.mpiprofMatrix.cell(arguments[0], arguments[1])", f, t)
            if not c or c["size"] != 1 or pixel(driver, c["x"], c["y"])[:3] == [255, 255, 255]:
                fail("ring cell %d -> %d is not drawn: %s" % (f, t, c))

        for f in (5, 40, 100, 700):  # inside a block, off its outline
            if pixel(driver, f + 5, f)[:3] != [255, 255, 255]:
                fail("cell %d -> %d is coloured without a pair" % (f, f + 5))
        # a node's block: outlined (red) at its corner
        corner = pixel(driver, 32 * 5, 32 * 5)
        if not (corner[0] > 150 and corner[1] < 100 and corner[2] < 100):
            fail("node 5's block is not outlined at its corner: %s" % corner)
        cells = driver.find_elements(By.CSS_SELECTOR, "#matrix-nodes rect.node-cell")
        if len(cells) != 64:
            fail("%d node-pair cells for the 32 nodes of the ring, expected 64" % len(cells))
        view_browser.element_shot(driver, "#matrix", shots + "/matrix_1024.png")
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_matrix_view: 1024 processes: ok")


def off(shots, page):
    """A run's own reason for no matrix (MPIPROF_MATRIX=off, in its
    Warnings) is what the panel says."""
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        text = driver.find_element(By.ID, "matrix").text
        if "n/a: MPIPROF_MATRIX=off." not in text or "partial protocol" in text:
            fail("the panel of a run with MPIPROF_MATRIX=off reads %r" % text[:300])
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_matrix_view: MPIPROF_MATRIX=off: ok")


def main():
    if sys.argv[2] in ("big", "off"):
        (big if sys.argv[2] == "big" else off)(sys.argv[1], sys.argv[3])
        return
    shots, page, prot = sys.argv[1:4]
    doc = json.load(open(prot))
    m = doc["matrix"]
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        if driver.execute_script("return document.body.dataset.matrix") != "1":
            fail("the matrix panel was not drawn")
        panel = driver.find_element(By.ID, "matrix")
        driver.execute_script("arguments[0].scrollIntoView()", panel)
        # node pairs: one cell each, with the JSON's bytes
        cells = {(int(e.get_attribute("data-from")), int(e.get_attribute("data-to"))): float(e.get_attribute("data-value"))
                 for e in driver.find_elements(By.CSS_SELECTOR, "#matrix-nodes rect.node-cell")}
        want = {(f, t): b for f, t, b in zip(m["node_pairs"]["from"], m["node_pairs"]["to"], m["node_pairs"]["bytes"])}
        if cells != want:
            fail("node-pair cells %s, the JSON has %s" % (cells, want))
        # process pairs: the canvas is coloured where the JSON has a pair, white elsewhere
        pairs = list(zip(m["pairs"]["from"], m["pairs"]["to"], m["pairs"]["messages"], m["pairs"]["bytes"]))
        for f, t, msgs, by in pairs:
            c = driver.execute_script("return window.mpiprofMatrix.cell(arguments[0], arguments[1])", f, t)
            if not c or c["bytes"] != by or c["messages"] != msgs or bool(c["colour"]) != (by > 0):
                fail("process cell %d -> %d is %s; the JSON has %d messages, %d bytes" % (f, t, c, msgs, by))
            px = pixel(driver, c["x"] + c["size"] // 2, c["y"] + c["size"] // 2)
            if (px[:3] == [255, 255, 255]) != (by == 0):  # coloured by bytes: white without
                fail("process cell %d -> %d is %s on the canvas with %d bytes" % (f, t, px, by))
        known = {(f, t) for f, t, _, _ in pairs}
        size = driver.execute_script("return window.mpiprofMatrix.cell(0, 1).size")
        for f in range(m["processes"]):
            for t in range(m["processes"]):
                if (f, t) not in known and f != t:
                    if driver.execute_script("return window.mpiprofMatrix.cell(arguments[0], arguments[1])", f, t):
                        fail("cell %d -> %d is drawn but not in the JSON" % (f, t))
                    # ranks are in node order here (0,1 | 2,3): the pixel of (f, t)
                    px = pixel(driver, t * size + size // 2, f * size + size // 2)
                    if px[:3] != [255, 255, 255]:
                        fail("cell %d -> %d is coloured %s without a pair" % (f, t, px))
        # totals
        rows = driver.find_elements(By.CSS_SELECTOR, "#matrix-totals tbody tr")
        for row, key in zip(rows, ("within_nodes", "between_nodes")):
            got = [num(td.text) for td in row.find_elements(By.TAG_NAME, "td")]
            t = m[key]
            if got[0] != t["messages"] or got[1] != t["bytes"] or abs(got[2] - t["time"]) > 5e-7:
                fail("%s on the page %s, in the JSON %s" % (key, got, t))
        # heaviest pairs: each row is a pair of the JSON with its figures
        by = {(f, t): (msgs, b, tm) for f, t, msgs, b, tm in zip(m["pairs"]["from"], m["pairs"]["to"],
                                                                  m["pairs"]["messages"], m["pairs"]["bytes"],
                                                                  m["pairs"]["time"])}
        trs = driver.find_elements(By.CSS_SELECTOR, "#matrix-pairs tbody tr")
        if len(trs) != min(20, len(by)):
            fail("%d rows of heaviest pairs for %d pairs" % (len(trs), len(by)))
        for tr in trs:
            v = [num(td.text) for td in tr.find_elements(By.TAG_NAME, "td")]
            msgs, b, tm = by[(int(v[0]), int(v[1]))]
            if v[2] != msgs or v[3] != b or abs(v[4] - tm) > 5e-7:
                fail("pair row %s, the JSON has %s" % (v, (msgs, b, tm)))
        # Lost time per node's processes: one bar per process, the JSON's value
        bp = doc["intervals"][0]["real"]["by_process"]
        lost = {r: v for r, v in zip(bp["ranks"], bp["lost_time"]) if v is not None}
        bars = {int(e.get_attribute("data-rank")): float(e.get_attribute("data-value"))
                for e in driver.find_elements(By.CSS_SELECTOR, "#matrix-lost rect.lost-bar")}
        if set(bars) != set(lost) or any(abs(bars[r] - lost[r]) > 1e-9 for r in lost):
            fail("Lost time bars %s, the JSON has %s" % (bars, lost))
        nodes = driver.find_elements(By.CSS_SELECTOR, "#matrix-lost figure.node-lost")
        if len(nodes) != len(m["nodes"]):
            fail("%d node groups of Lost time bars for %d nodes" % (len(nodes), len(m["nodes"])))
        view_browser.element_shot(driver, "#matrix", shots + "/matrix.png")
        # colour by messages: the node cells carry the messages then
        sel = driver.find_element(By.ID, "matrix-metric")
        driver.execute_script("arguments[0].value = 'messages'; arguments[0].dispatchEvent(new Event('change'))", sel)
        cells = {(int(e.get_attribute("data-from")), int(e.get_attribute("data-to"))): float(e.get_attribute("data-value"))
                 for e in driver.find_elements(By.CSS_SELECTOR, "#matrix-nodes rect.node-cell")}
        want = {(f, t): v for f, t, v in zip(m["node_pairs"]["from"], m["node_pairs"]["to"], m["node_pairs"]["messages"])}
        if cells != want:
            fail("coloured by messages, node cells %s, the JSON has %s" % (cells, want))
        view_browser.element_shot(driver, "#matrix", shots + "/matrix_messages.png")
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()
    print("check_matrix_view: ok")


main()
