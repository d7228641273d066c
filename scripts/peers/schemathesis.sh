#!/usr/bin/env bash
# The OpenAPI peers for `tools serve`: openapi-spec-validator checks /openapi.json, schemathesis
# drives every operation with generated inputs. In .venv-schemathesis; idempotent while the pinned
# versions are installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION="4.32.5"
VALIDATOR_VERSION="0.9.0"
VENV=".venv-schemathesis"
STAMP="$VENV/.almanac-$SCHEMATHESIS_VERSION-$VALIDATOR_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "schemathesis peer: installing schemathesis==$SCHEMATHESIS_VERSION openapi-spec-validator==$VALIDATOR_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$VALIDATOR_VERSION"
    touch "$STAMP"
fi
echo "schemathesis peer: ready ($VENV)"
