#!/usr/bin/env bash
# The plugin peer for the plugin tests: the official `mcp-server-time` (PyPI, by the MCP project) in
# .venv-plugins, run by `tools` as the `[plugins.time]` tool plugin (docs/plugins.md).
# Idempotent: does nothing when the pinned version is installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

TIME_VERSION="2026.10.19"
VENV=".venv-plugins"
STAMP="$VENV/.almanac-mcp-server-time-$TIME_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "plugins peer: installing mcp-server-time==$TIME_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q "mcp-server-time==$TIME_VERSION"
    touch "$STAMP"
fi
echo "plugins peer: ready ($VENV)"
