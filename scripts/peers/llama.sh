#!/usr/bin/env bash
# The llama.cpp peer for `tools ask` tests: llama-cpp-python's OpenAI-compatible server in
# .venv-llama plus a tiny canned GGUF model (.venv-llama/tiny.gguf) that always answers
# "Hello! I am a tiny llama model.". Idempotent: does nothing when the pinned versions and the
# model are present. The first build compiles llama.cpp (5-8 min on 2 cores); later venvs reuse
# the wheel from pip's cache (about 12 s).
set -euo pipefail
cd "$(dirname "$0")/../.."

LLAMA_VERSION="0.3.36"
GGUF_VERSION="0.19.0"
VENV=".venv-llama"
STAMP="$VENV/.almanac-llama-$LLAMA_VERSION-gguf-$GGUF_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "llama peer: installing llama-cpp-python[server]==$LLAMA_VERSION into $VENV (first build takes minutes)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    # LLAVA off: the multimodal library is not used by a text-only front and costs build time.
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}" \
        "$VENV/bin/pip" install -q "llama-cpp-python[server]==$LLAMA_VERSION" "gguf==$GGUF_VERSION"
    touch "$STAMP"
fi

if [ ! -s "$VENV/tiny.gguf" ]; then
    "$VENV/bin/python" scripts/peers/make_tiny_gguf.py "$VENV/tiny.gguf" >/dev/null
fi
# Gibberish that rarely stops: generation runs into n_ctx, which cuts the stream (no [DONE]).
if [ ! -s "$VENV/tiny-random.gguf" ]; then
    "$VENV/bin/python" scripts/peers/make_tiny_gguf.py "$VENV/tiny-random.gguf" --mode random >/dev/null
fi
echo "llama peer: ready ($VENV, $VENV/tiny.gguf, $VENV/tiny-random.gguf)"
