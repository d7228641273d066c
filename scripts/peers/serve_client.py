"""Peer for the `tools serve` tests: drives a running server as its real clients would.

Usage: serve_client.py BASE_URL [TOKEN] -- prints one JSON object with what it saw:
- the OpenAPI tool server (Open WebUI's way): /healthz, /openapi.json, tool calls (ok, bad
  arguments, wrong JSON type, unknown tool), /metrics;
- a CORS preflight exactly as a browser sends it (Origin, Access-Control-Request-Method and
  -Headers, no credentials) and a request from an origin that is not allowed;
- MCP over streamable HTTP with the official Python `mcp` client (llama.cpp web UI's and Open
  WebUI's way): initialize, tools/list, three calls in flight at once (two succeed, one fails).
Standard library HTTP for the plain requests, so nothing but the mcp venv is needed.
"""
import asyncio
import json
import sys
import urllib.error
import urllib.request

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

BASE = sys.argv[1].rstrip("/")
TOKEN = sys.argv[2] if len(sys.argv) > 2 else None


def http(method, path, body=None, headers=None, auth=True):
    headers = dict(headers or {})
    if TOKEN and auth:
        headers["Authorization"] = "Bearer " + TOKEN
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def as_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def field(obj, snake, camel):
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def call(path, body, **kwargs):
    status, headers, text = http("POST", path, body, **kwargs)
    return {"status": status, "body": as_json(text), "headers": {k.lower(): v for k, v in headers.items()}}


async def mcp_session():
    headers = {"Authorization": "Bearer " + TOKEN} if TOKEN else None
    async with create_mcp_http_client(headers=headers) as client:
        async with streamable_http_client(BASE + "/mcp", http_client=client) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                listed = await session.list_tools()
                calls = await asyncio.gather(
                    session.call_tool("sports", {"league": "nba", "date": "2024-12-15"}),
                    session.call_tool("sports", {"league": "nba", "team": "lakers", "date": "2024-12-15"}),
                    session.call_tool("sports", {"league": "nbaa"}),
                )
    return {
        "server": field(init, "server_info", "serverInfo").name,
        "tools": [t.name for t in listed.tools],
        "calls": [
            {
                "isError": bool(field(r, "is_error", "isError")),
                "text": [c.text for c in r.content if getattr(c, "type", "") == "text"],
                "structured": field(r, "structured_content", "structuredContent"),
            }
            for r in calls
        ],
    }


def main():
    seen = {}
    status, _, text = http("GET", "/healthz", auth=False)
    seen["healthz"] = {"status": status, "body": as_json(text)}
    status, _, text = http("GET", "/openapi.json")
    seen["openapi"] = {"status": status, "body": as_json(text)}
    seen["ok"] = call("/tools/sports", {"league": "nba", "date": "2024-12-15"})
    seen["tz_lisbon"] = call("/tools/sports", {"league": "nba", "date": "2024-12-15", "tz": "Europe/Lisbon"})
    seen["bad_value"] = call("/tools/sports", {"league": "nbaa"})
    seen["bad_type"] = call("/tools/sports", {"league": 5})
    seen["bad_tz"] = call("/tools/sports", {"league": "nba", "tz": "Mars/Olympus"})
    seen["bad_json"] = call("/tools/sports", b"{not json")
    seen["unknown_tool"] = call("/tools/nope", {})
    seen["too_large"] = call("/tools/sports", {"league": "nba", "pad": "x" * 200_000})
    # A browser's preflight: no credentials, the method and headers it is about to use.
    status, headers, _ = http(
        "OPTIONS", "/mcp", headers={
            "Origin": "http://127.0.0.1:8080",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version",
        }, auth=False)
    seen["preflight"] = {"status": status, "headers": {k.lower(): v for k, v in headers.items()}}
    seen["from_page"] = call("/tools/sports", {"league": "nba", "date": "2024-12-15"},
                             headers={"Origin": "http://127.0.0.1:8080"})
    seen["foreign_origin"] = call("/tools/sports", {"league": "nba"}, headers={"Origin": "https://evil.example"})
    seen["no_token"] = call("/tools/sports", {"league": "nba", "date": "2024-12-15"}, auth=False)
    seen["wrong_token"] = call("/tools/sports", {"league": "nba", "date": "2024-12-15"}, auth=False,
                               headers={"Authorization": "Bearer " + "x" * 32})
    seen["mcp"] = asyncio.run(mcp_session())
    status, _, text = http("GET", "/metrics")
    seen["metrics"] = {"status": status, "body": text}
    print(json.dumps(seen, sort_keys=True))


main()
