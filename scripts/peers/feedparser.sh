#!/usr/bin/env bash
# Creates .venv-feedparser at the package root with feedparser 6.0.14, the reference the news
# tool's feed parser is compared with (Tests/AlmanacNewsTests/FeedparserPeerTests.swift through
# scripts/feedparser-items.py) and timed against (scripts/bench-news).
# Idempotent: an existing venv with the right version is left alone.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-feedparser"
pins=("feedparser==6.0.14" "sgmllib3k==1.0.0")
check='import sys
from importlib.metadata import version
want = dict(p.split("==") for p in sys.argv[1:])
sys.exit(0 if all(version(n) == v for n, v in want.items()) else 1)'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" "${pins[@]}" 2>/dev/null; then
  echo "feedparser 6.0.14 ready in .venv-feedparser"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"
"$venv/bin/python" -c "$check" "${pins[@]}"
echo "feedparser 6.0.14 installed in .venv-feedparser"
