"""The official Python `mcp` client driving `tools mcp` with plugins configured, for the plugin
tests: `mcp_plugin_client.py TOOLS_BINARY CALLS_JSON` lists the tools, sends every call of
CALLS_JSON (`[[name, arguments], ...]`) at once, and prints one JSON object with the tool names
and each call's result. The server's environment comes from this process's.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


async def main(binary, calls):
    params = StdioServerParameters(command=binary, args=["mcp"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            results = await asyncio.gather(*[session.call_tool(name, arguments) for name, arguments in calls])
    print(json.dumps({
        "tools": [t.name for t in listed.tools],
        "calls": [{
            "isError": bool(field(r, "is_error", "isError")),
            "text": [c.text for c in r.content if getattr(c, "type", "") == "text"],
        } for r in results],
    }, sort_keys=True))


asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
