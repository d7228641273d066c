#!/usr/bin/env python3
"""Drives `tools mcp` over stdio one request at a time (newline-delimited JSON-RPC, no
dependencies), for the plugin tests that need calls in order (restart backoff):
`mcp_sequence.py TOOLS_BINARY CALLS_JSON` sends each `[name, arguments]` of CALLS_JSON after the
previous one answered and prints one JSON object: each call's `isError` and text. Every read is
bounded (30 s); the server's environment comes from this process's.
"""
import json
import os
import select
import subprocess
import sys

binary, calls = sys.argv[1], json.loads(sys.argv[2])
server = subprocess.Popen([binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env=dict(os.environ))
pending = b""


def send(message):
    server.stdin.write((json.dumps(message) + "\n").encode())
    server.stdin.flush()


def answer(request_id):
    global pending
    while True:
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            message = json.loads(line)
            if message.get("id") == request_id:
                return message
        ready, _, _ = select.select([server.stdout], [], [], 30)
        if not ready:
            raise SystemExit(f"no answer to request {request_id} within 30 s")
        chunk = os.read(server.stdout.fileno(), 65536)
        if not chunk:
            raise SystemExit("tools mcp closed its output")
        pending += chunk


try:
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                     "clientInfo": {"name": "mcp_sequence", "version": "1"}}})
    answer(0)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    results = []
    for number, (name, arguments) in enumerate(calls, start=1):
        send({"jsonrpc": "2.0", "id": number, "method": "tools/call",
              "params": {"name": name, "arguments": arguments}})
        result = answer(number).get("result", {})
        results.append({"isError": bool(result.get("isError")),
                        "text": [c.get("text", "") for c in result.get("content", []) if c.get("type") == "text"]})
    print(json.dumps({"calls": results}, sort_keys=True))
finally:
    server.stdin.close()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
