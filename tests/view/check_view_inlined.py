"""Drive the page of callsites_inlined's protocol (test_view_inlined.sh).

usage: check_view_inlined.py PAGE.html

Each of the two MPI_Sendrecv SRC points, selected in the table, shows its
stack: frame #0 Field<double>::exchange(int) or Field<float>::exchange(int)
marked [inlined], frame #1 main without a mark.
"""
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import view_browser


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main(page):
    driver = view_browser.start()
    try:
        view_browser.load(driver, page)
        seen = set()
        count = len([r for r in driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr")
                     if "MPI_Sendrecv" in r.text])
        if count != 2:
            fail("%d MPI_Sendrecv rows in the table, expected 2" % count)
        for k in range(count):
            row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#src-table tbody tr")
                   if "MPI_Sendrecv" in r.text][k]
            row.click()
            WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "src-detail").is_displayed())
            heads = [f.find_element(By.CSS_SELECTOR, "h4").text
                     for f in driver.find_elements(By.CSS_SELECTOR, "#src-detail .frame")]
            if len(heads) != 2 or "exchange(int))" not in heads[0] or "[inlined]" not in heads[0] \
                    or "(main)" not in heads[1] or "[" in heads[1]:
                fail("the stack reads %r, expected frame #0 Field<T>::exchange(int) marked [inlined], "
                     "then main unmarked" % heads)
            seen.add(heads[0].split("(", 1)[1].split(")")[0])
            print("stack: %r" % heads)
        if len(seen) != 2:
            fail("the two SRC points show the same inlined function: %r" % seen)
        view_browser.no_console_errors(driver, page)
    finally:
        driver.quit()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
