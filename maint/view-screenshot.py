#!/usr/bin/env python3
"""view-screenshot.py PAGE.html OUT.png: a picture of an mpiprof-view page
in a headless Chromium, with the SRC point of most time in the interval
of most Lost time below interval 0 selected (its stack and source shown),
for the README (doc/view-demo.png is the demo's: maint/demo.sh, then
maint/view-screenshot.py demo/jacobi.*.prof.html doc/view-demo.png).
Needs chromium, chromium-driver and python3-selenium."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "view"))
import view_browser  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: view-screenshot.py PAGE.html OUT.png")
    driver = view_browser.start(1400, 1000)
    try:
        view_browser.load(driver, sys.argv[1])
        driver.execute_script("""
            var best = null, items = document.querySelectorAll('#tree [role=treeitem]');
            var doc = JSON.parse(document.getElementById('mpiprof-data').textContent).protocols[0].doc;
            doc.intervals.forEach(function (iv, i) {
              if (i && iv.src.length && (!best || iv.real.main.lost_time > best.real.main.lost_time)) best = iv;
            });
            var index = best ? doc.intervals.indexOf(best) : 0;
            document.querySelector('#tree [data-interval="' + index + '"] > .node').click();
            var row = document.querySelector('#src-table tbody tr');
            if (row) row.click();
            document.getElementById('parameters').open = false;
            document.activeElement.blur();
            window.scrollTo(0, 0);""")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1400, min(max(height, 1000), 2600))
        driver.save_screenshot(sys.argv[2])
        view_browser.no_console_errors(driver, sys.argv[1])
    finally:
        driver.quit()
    print("view-screenshot: %s" % sys.argv[2])


if __name__ == "__main__":
    main()
