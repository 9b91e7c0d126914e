#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (tests/test_web_browser.py).
# Installs it with apt-get when /usr/bin/chromium is missing and we are root; otherwise says
# why not and leaves it to the tests, which then skip with the same reason. Never fails the build.
set -u
CHROMIUM=${KOTD_CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "ensure-chromium: $CHROMIUM is missing and we are not root;" \
         "run: sudo apt-get install -y chromium (browser tests will be skipped)" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: $CHROMIUM is missing and there is no apt-get here" \
         "(browser tests will be skipped)" >&2
    exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends chromium; } >&2; then
    echo "ensure-chromium: apt-get could not install chromium" \
         "(browser tests will be skipped)" >&2
fi
exit 0
