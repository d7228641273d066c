#!/usr/bin/env bash
# Creates .venv-radicale at the package root with radicale==3.9.0, the CalDAV peer of the
# calendar tests, and caldav==3.6.0, the second, independent client that reads back what Almanac
# writes (CalendarWriteCalDAVTests). Idempotent: an existing venv with the right versions is left
# alone, and pip's cache makes a rebuild fast.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-radicale"
want="3.9.0"
client="3.6.0"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import radicale, caldav, sys; sys.exit(0 if radicale.VERSION == '$want' and caldav.__version__ == '$client' else 1)" 2>/dev/null; then
  echo "radicale $want and caldav $client ready in .venv-radicale"
  exit 0
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "radicale==$want" "caldav==$client"
"$venv/bin/python" -c "import radicale, caldav; print('radicale', radicale.VERSION, 'and caldav', caldav.__version__, 'installed in .venv-radicale')"
