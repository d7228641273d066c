#!/usr/bin/env python3
"""A small MCP server over stdio (newline-delimited JSON-RPC 2.0, no dependencies) that
misbehaves on demand, for Almanac's plugin fault tests: the real `mcp-server-time` cannot
crash, hang or flood when asked.

    fault_plugin.py MODE     MODE: ok, crash-start, crash-call, hang, flood, bad-jsonrpc,
                             outside-schema, crash-second (answers its first call, dies
                             during the next), arrays (also lists `sum`, which takes an array)

Each start appends a line to $FAULT_STARTS (when set), so a test can count process starts.
"""
import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"

if os.environ.get("FAULT_STARTS"):
    with open(os.environ["FAULT_STARTS"], "a") as starts:
        starts.write(f"{os.getpid()}\n")

sys.stderr.write(f"fault plugin ({MODE}) started: stderr goes to the log\n")
sys.stderr.flush()

if MODE == "crash-start":
    sys.exit(3)

TOOLS = [
    {
        "name": "echo",
        "description": "Says the text back, `times` times.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "what to say"},
                "times": {"type": "integer", "description": "how often (1 to 3)"},
                "tone": {"type": "string", "enum": ["plain", "Loud"]},
            },
            "required": ["text"],
        },
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "env",
        "description": "The names of the environment variables the plugin was given.",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "wipe",
        "description": "Pretends to delete everything (marked destructive).",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"destructiveHint": True, "readOnlyHint": False},
    },
    {
        "name": "count",
        "description": "A count, declared with an output schema.",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"],
        },
    },
]

if MODE == "arrays":
    TOOLS.append({
        "name": "sum",
        "description": "The sum of whole numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "numbers": {"type": "array", "items": {"type": "integer"}},
                "options": {"type": "object", "properties": {"label": {"type": "string"}},
                            "additionalProperties": False},
            },
            "required": ["numbers"],
        },
    })


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id, value):
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


CALLS = [0]


def call(request_id, name, arguments):
    CALLS[0] += 1
    if MODE == "crash-call" or (MODE == "crash-second" and CALLS[0] > 1):
        os._exit(4)
    if MODE == "hang":
        while True:
            time.sleep(1)
    if MODE == "flood":
        # A 50 MB answer on one line.
        sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"' % request_id)
        block = "x" * (1 << 20)
        for _ in range(50):
            sys.stdout.write(block)
        sys.stdout.write('"}]}}\n')
        sys.stdout.flush()
        return
    if MODE == "bad-jsonrpc":
        sys.stdout.write("this is not JSON-RPC\n")
        sys.stdout.flush()
        return
    if name == "echo":
        text = " ".join([arguments.get("text", "")] * int(arguments.get("times", 1)))
        result(request_id, {"content": [{"type": "text", "text": text}]})
    elif name == "env":
        names = sorted(os.environ.keys())
        result(request_id, {"content": [{"type": "text", "text": json.dumps(names)}],
                            "structuredContent": {"names": names}})
    elif name == "sum":
        label = (arguments.get("options") or {}).get("label", "sum")
        result(request_id, {"content": [{"type": "text", "text": f"{label} {sum(arguments['numbers'])}"}]})
    elif name == "wipe":
        result(request_id, {"content": [{"type": "text", "text": "wiped"}]})
    elif name == "count":
        count = "many" if MODE == "outside-schema" else 3
        result(request_id, {"content": [{"type": "text", "text": json.dumps({"count": count})}],
                            "structuredContent": {"count": count}})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"Unknown tool: {name}"}})


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    method = message.get("method")
    request_id = message.get("id")
    if method == "initialize":
        result(request_id, {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                            "serverInfo": {"name": "fault-plugin", "version": "1"}})
    elif method == "tools/list":
        result(request_id, {"tools": TOOLS})
    elif method == "tools/call":
        params = message.get("params", {})
        call(request_id, params.get("name"), params.get("arguments") or {})
    elif request_id is not None:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "no such method"}})

if MODE == "hang":
    # Ignores the end of its input, too: only a kill stops it.
    while True:
        time.sleep(1)
