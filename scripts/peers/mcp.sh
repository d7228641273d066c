#!/usr/bin/env bash
# The MCP peer for `tools mcp` tests: the official Python `mcp` client in .venv-mcp.
# Idempotent: does nothing when the pinned version is installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

MCP_VERSION="2.3.0"
VENV=".venv-mcp"
STAMP="$VENV/.almanac-mcp-$MCP_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "mcp peer: installing mcp==$MCP_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q "mcp==$MCP_VERSION"
    touch "$STAMP"
fi
echo "mcp peer: ready ($VENV)"
