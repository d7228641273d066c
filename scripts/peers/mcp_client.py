"""MCP peer for the `tools mcp` tests: the official Python `mcp` client drives the built server.

Usage: mcp_client.py TOOLS_BINARY -- prints one JSON object with what the client saw:
the negotiated server name, every listed tool with its input schema, and the results of
three calls sent at once (two succeed, one fails), so replies arrive interleaved and are
matched by request id (the Swift SDK answers out of order).
The server's environment (replay fixtures, fixed clock, zone) comes from this process's env.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    # mcp 2.x uses snake_case attributes; 1.x used camelCase.
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def result_json(result):
    return {
        "isError": bool(field(result, "is_error", "isError")),
        "text": [c.text for c in result.content if getattr(c, "type", "") == "text"],
        "structured": field(result, "structured_content", "structuredContent"),
    }


async def main(binary):
    params = StdioServerParameters(command=binary, args=["mcp"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            listed = await session.list_tools()
            calls = await asyncio.gather(
                session.call_tool("sports", {"league": "nba", "date": "2024-12-15"}),
                session.call_tool("sports", {"league": "nba", "team": "lakers", "date": "2024-12-15"}),
                session.call_tool("sports", {"league": "nbaa"}),
            )
    print(json.dumps({
        "server": field(init, "server_info", "serverInfo").name,
        "tools": [{"name": t.name, "inputSchema": field(t, "input_schema", "inputSchema")} for t in listed.tools],
        "calls": [result_json(r) for r in calls],
    }, sort_keys=True))


asyncio.run(main(sys.argv[1]))
