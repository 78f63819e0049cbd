"""A headless Chromium for mpiprof-view's pages (selenium with Debian's
chromium and chromium-driver), shared by the page tests, the benchmark
(bench/view_bench.py) and the README's screenshot (maint/view-screenshot.py).

    driver = view_browser.start()       # 1400x1000 window, console kept
    view_browser.load(driver, "x.html") # opened from disk, drawn, no error
    view_browser.no_console_errors(driver, "x.html")
"""
import os
import shutil
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def programs():
    """(chromium, chromedriver) paths, or None where one is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/lib/chromium/chromedriver" if os.path.exists("/usr/lib/chromium/chromedriver") else None)
    return browser, driver


def start(width=1400, height=1000):
    browser, driver_path = programs()
    if not browser or not driver_path:
        sys.exit("view_browser: chromium or chromedriver is missing")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=%d,%d" % (width, height), "--allow-file-access-from-files",
                "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The browser is no program under test: a sanitizer runtime that the
    # test driver preloads (run-mpi-test, --enable-sanitizers) stays out.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    driver = webdriver.Chrome(service=Service(driver_path, env=env), options=options)
    driver.set_page_load_timeout(120)
    return driver


def load(driver, page, timeout=60):
    """Open `page` from disk and wait until its script has drawn it; a page
    that reports an error fails."""
    driver.get("file://" + os.path.abspath(page))
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.body.dataset.ready || document.body.dataset.error"))
    error = driver.execute_script("return document.body.dataset.error")
    if error:
        print("FAIL: %s reports an error: %s" % (page, error), file=sys.stderr)
        sys.exit(1)
    no_console_errors(driver, page)


def no_console_errors(driver, page):
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    if errors:
        print("FAIL: %s: console errors: %s" % (page, errors), file=sys.stderr)
        sys.exit(1)


def element_shot(driver, css, path):
    driver.find_element(By.CSS_SELECTOR, css).screenshot(path)
