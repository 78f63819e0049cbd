# shellcheck shell=sh
# Shared by the page tests (tests/view/test_view_*.sh), after
# tests/mpi/lib/common.sh: a Python that has selenium and a Chromium to drive.
#   need_browser   sets $view_python (a python3 that imports selenium, the
#                  build's or Debian's /usr/bin/python3 where
#                  python3-selenium installs), or skips the test, saying what
#                  is missing, when chromium, chromedriver or selenium is not
#                  installed (maint/install-deps.sh installs all three)
#   $view_src      the directory of these tests' sources
#   $shots         where screenshots are kept (the build tree's
#                  tests/view/screenshots/<test name>)
view_src="${top_srcdir:?}/tests/view"

need_browser() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
        skip "chromium is not installed (maint/install-deps.sh installs chromium chromium-driver python3-selenium)"
    command -v chromedriver >/dev/null 2>&1 || [ -x /usr/lib/chromium/chromedriver ] ||
        skip "chromedriver is not installed (Debian package chromium-driver, installed by maint/install-deps.sh)"
    view_python=""
    for _py in "$PYTHON3" /usr/bin/python3; do
        if "$_py" -c 'import selenium' >/dev/null 2>&1; then
            view_python=$_py
            break
        fi
    done
    [ -n "$view_python" ] ||
        skip "no python3 imports selenium (Debian package python3-selenium, installed by maint/install-deps.sh)"
    PYTHONPATH="$view_src${PYTHONPATH:+:$PYTHONPATH}"
    export PYTHONPATH
}
