"""MCP peer for the calendar-write tests of `tools mcp`: the official Python `mcp` client.

Usage: mcp_writes_client.py TOOLS_BINARY|SERVE_URL MODE -- a URL (http://127.0.0.1:PORT) talks to
`tools serve`'s /mcp over streamable HTTP, else the binary is started as `tools mcp`. MODE is `token` (the client declares no
elicitation: the server answers a preview and a single-use token), `accept` or `decline` (the
client declares elicitation and answers the server's elicitation/create so). Prints one JSON
object: the calendar tool's annotations and whether its schema offers writes, the elicitation
messages the server sent, and every call's result. The server's environment comes from this
process's env.
"""
import asyncio
import contextlib
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


def field(obj, snake, camel):
    # mcp 2.x uses snake_case attributes; 1.x used camelCase.
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def result_json(result):
    return {
        "isError": bool(field(result, "is_error", "isError")),
        "text": [c.text for c in result.content if getattr(c, "type", "") == "text"],
        "structured": field(result, "structured_content", "structuredContent"),
    }


async def main(binary, mode):
    asked = []

    async def elicit(context, params):
        asked.append(params.message)
        if mode == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    params = StdioServerParameters(command=binary, args=["mcp"], env=dict(os.environ))
    add = {"range": "add", "title": "call mom", "at": "tomorrow 18:00", "calendar": "home"}
    calls = []
    async with contextlib.AsyncExitStack() as stack:
        if binary.startswith("http"):
            client = await stack.enter_async_context(create_mcp_http_client())
            streams = await stack.enter_async_context(streamable_http_client(binary + "/mcp", http_client=client))
            read, write = streams[0], streams[1]
        else:
            read, write = await stack.enter_async_context(stdio_client(params))
        callback = None if mode == "token" else elicit
        async with ClientSession(read, write, elicitation_callback=callback) as session:
            await session.initialize()
            listed = await session.list_tools()
            calendar = next(t for t in listed.tools if t.name == "calendar")
            first = await session.call_tool("calendar", add)
            calls.append(result_json(first))
            confirm = (field(first, "structured_content", "structuredContent") or {}).get("confirm")
            if confirm:
                other = dict(add, title="call dad", confirm=confirm["token"])
                calls.append(result_json(await session.call_tool("calendar", other)))
                again = dict(add, confirm=confirm["token"])
                calls.append(result_json(await session.call_tool("calendar", again)))
                calls.append(result_json(await session.call_tool("calendar", again)))
    annotations = calendar.annotations
    print(json.dumps({
        "annotations": {
            "readOnly": field(annotations, "read_only_hint", "readOnlyHint"),
            "destructive": field(annotations, "destructive_hint", "destructiveHint"),
        },
        "schemaWrites": "confirm" in field(calendar, "input_schema", "inputSchema")["properties"],
        "asked": asked,
        "calls": calls,
    }, sort_keys=True))


asyncio.run(main(sys.argv[1], sys.argv[2]))
