#!/usr/bin/env bash
# The PostgreSQL peer for the `tools serve` shared-cache tests: Debian's `postgresql` server
# binaries (the tests start their own cluster on 127.0.0.1 as the `postgres` user and stop it by pid).
# Idempotent: apt runs only when the binaries are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "postgres peer: installing postgresql"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
    # The package starts a cluster of its own on 5432; the tests use their own, so stop it.
    $sudo_cmd pg_ctlcluster --force "$(ls /usr/lib/postgresql | sort -V | tail -1)" main stop >/dev/null 2>&1 || true
fi
echo "postgres peer: ready ($(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1))"
