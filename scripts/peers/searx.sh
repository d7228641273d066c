#!/usr/bin/env bash
# Installs Debian's searx 1.1 (SearXNG's predecessor: the same /search?format=json answer), the
# real search server of the SearXNG tests (Sources/AlmanacTesting/SearxServer.swift starts it on
# 127.0.0.1 with its own settings; nothing here starts a service). Idempotent: apt runs only when
# the package is missing.
set -euo pipefail
if dpkg -s searx >/dev/null 2>&1 && [ -x /usr/bin/searx-run ]; then
  echo "searx $(dpkg-query -W -f='${Version}' searx) ready"
  exit 0
fi
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends searx >/dev/null
echo "searx $(dpkg-query -W -f='${Version}' searx) installed"
