#!/usr/bin/env bash
# The llama.cpp peer for `tools ask` tests: llama-cpp-python's OpenAI-compatible server in
# .venv-llama plus a tiny canned GGUF model (.venv-llama/tiny.gguf) that always answers
# "Hello! I am a tiny llama model.". Idempotent: does nothing when the pinned versions and the
# model are present. The first build compiles llama.cpp (5-8 min on 2 cores); later venvs, also in
# fresh clones, install the wheel cached under ~/.cache/almanac/wheels (about 10 s).
set -euo pipefail
cd "$(dirname "$0")/../.."

LLAMA_VERSION="0.3.36"
GGUF_VERSION="0.19.0"
VENV=".venv-llama"
STAMP="$VENV/.almanac-llama-$LLAMA_VERSION-gguf-$GGUF_VERSION"

# The built wheel is kept outside the clone so a fresh checkout (warm CI) reuses it: the cold
# compile of llama.cpp costs 5-8 min on 2 cores, the reuse about 10 s.
WHEELS="${ALMANAC_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/almanac/wheels}"

if [ ! -f "$STAMP" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    mkdir -p "$WHEELS"
    if ! ls "$WHEELS"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
        echo "llama peer: building llama-cpp-python==$LLAMA_VERSION into $WHEELS (first time: 5-8 min)"
        # LLAVA off: the multimodal library is not used by a text-only front and costs build time.
        # --no-binary for this one package only: ':all:' would also compile cmake from source.
        CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
        CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}" \
            "$VENV/bin/pip" wheel -q --no-deps --no-binary llama-cpp-python --wheel-dir "$WHEELS" \
            "llama-cpp-python==$LLAMA_VERSION"
    fi
    echo "llama peer: installing llama-cpp-python[server]==$LLAMA_VERSION into $VENV (wheel from $WHEELS)"
    "$VENV/bin/pip" install -q --find-links "$WHEELS" "llama-cpp-python[server]==$LLAMA_VERSION" "gguf==$GGUF_VERSION"
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
