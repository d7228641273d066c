#!/usr/bin/env bash
# Creates .venv-rie at the package root with recurring-ical-events 3.8.2 (and the icalendar it was
# measured with), the reference the calendar expansion is compared with: scripts/calendar-peer-diff
# (run by Tests/toolsTests/CalendarPeerDiffEndToEnd.swift) and scripts/bench-calendar.
# Idempotent: an existing venv with the right versions is left alone, and pip's cache makes a
# rebuild fast.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-rie"
pins=("recurring-ical-events==3.8.2" "icalendar==7.3.0" "x-wr-timezone==2.0.1")
check='import sys
from importlib.metadata import version
want = dict(p.split("==") for p in sys.argv[1:])
sys.exit(0 if all(version(n) == v for n, v in want.items()) else 1)'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" "${pins[@]}" 2>/dev/null; then
  echo "recurring-ical-events 3.8.2 ready in .venv-rie"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"
"$venv/bin/python" -c "$check" "${pins[@]}"
echo "recurring-ical-events 3.8.2 installed in .venv-rie"
