#!/usr/bin/env bash
# Creates .venv-radicale at the package root with radicale==3.9.0, the CalDAV peer of the
# calendar tests. Idempotent: an existing venv with the right version is left alone, and pip's
# cache makes a rebuild fast.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-radicale"
want="3.9.0"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import radicale, sys; sys.exit(0 if radicale.VERSION == '$want' else 1)" 2>/dev/null; then
  echo "radicale $want ready in .venv-radicale"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "radicale==$want"
"$venv/bin/python" -c "import radicale; print('radicale', radicale.VERSION, 'installed in .venv-radicale')"
