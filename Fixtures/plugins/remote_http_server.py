"""A remote MCP server over streamable HTTP for Almanac's remote-plugin tests, written with the
official MCP Python SDK (2.x, `MCPServer`) and served by uvicorn on 127.0.0.1 and a free port.

Prints `PORT` on its first line, then serves until stopped. Settings (environment):
    EXPECT_TOKEN  when set, every request needs `Authorization: Bearer EXPECT_TOKEN`, else 401
    CUT_TIMES     how many times a `slow_echo` answer is cut off its stream (default 0): the
                  connection ends after the call's first event (which carries an SSE `id:`) and
                  before the answer; the SDK's event store replays the answer on a `GET` with
                  `Last-Event-ID` (MCP 2025-06-18, transports, "Resumability and Redelivery")

Tools: `echo(text)`; `slow_echo(text)` (a log event, then the answer); `nosy(text)` (asks the
client `ping` and `roots/list` inside the call and says what it got back).
"""

import asyncio
import itertools
import os
import socket
import sys

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore

server = MCPServer("remote-peer")


@server.tool()
def echo(text: str) -> str:
    """Says the text back."""
    return text


@server.tool()
async def slow_echo(text: str, ctx: Context) -> str:
    """Says the text back after a log event."""
    await ctx.info("working on it")
    await asyncio.sleep(0.2)
    return f"resumed {text}"


@server.tool()
async def nosy(text: str, ctx: Context) -> str:
    """Asks the client for a ping and its roots before answering."""
    import mcp_types as types
    from mcp.shared.message import ServerMessageMetadata

    related = ServerMessageMetadata(related_request_id=ctx.request_id)
    session = ctx.session
    ping = "no answer"
    try:
        await session.send_request(types.PingRequest(), types.EmptyResult, metadata=related)
        ping = "pong"
    except Exception as error:  # the client's refusal is the answer we look for
        ping = f"error {error}"
    roots = "no answer"
    try:
        await session.send_request(types.ListRootsRequest(), types.ListRootsResult, metadata=related)
        roots = "listed"
    except Exception as error:
        roots = f"refused: {getattr(getattr(error, 'error', None), 'code', error)}"
    return f"{text}: ping {ping}; roots {roots}"


class MemoryEvents(EventStore):
    """Every event kept in memory, ids counting up."""

    def __init__(self):
        self.events = []  # (id, stream, message)
        self.ids = itertools.count(1)

    async def store_event(self, stream_id, message):
        event_id = str(next(self.ids))
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        stream = next((s for i, s, _ in self.events if i == last_event_id), None)
        if stream is None:
            return None
        after = False
        for event_id, stream_id, message in self.events:
            if after and stream_id == stream and message is not None:
                await send_callback(EventMessage(message, event_id))
            after = after or event_id == last_event_id
        return stream


class Gate:
    """ASGI wrapper: the bearer check, and cutting `slow_echo` answers off their stream."""

    def __init__(self, app):
        self.app = app
        self.token = os.environ.get("EXPECT_TOKEN")
        self.cuts_left = int(os.environ.get("CUT_TIMES", "0"))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if self.token is not None and headers.get(b"authorization") != f"Bearer {self.token}".encode():
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"www-authenticate", b'Bearer realm="peer"')]})
            await send({"type": "http.response.body", "body": b'{"error":"invalid_token"}'})
            return
        ended = False

        async def gated(message):
            nonlocal ended
            if ended:
                return
            body = message.get("body", b"") if message["type"] == "http.response.body" else b""
            if self.cuts_left > 0 and b"resumed " in body and b'"result"' in body:
                self.cuts_left -= 1
                ended = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        await self.app(scope, receive, gated)


def main():
    app = Gate(server.streamable_http_app(event_store=MemoryEvents()))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)  # connections made before uvicorn runs wait in the backlog
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
