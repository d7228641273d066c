#!/usr/bin/env python3
"""Loopback HTTP server that serves recorded Fixtures exchanges, for end-to-end tests and benchmarks.

Binds 127.0.0.1 only, prints "PORT <n>" once listening, and exits by itself after --lifetime
seconds or --max-requests requests. Requests match on method, path and sorted query (the host is
ignored), like the Swift ReplayTransport.

Control endpoints (test-only):
  GET  /health                        -> 200 {"status":"ok"} like llama.cpp's server (unless a fault is set)
  GET  /__almanac/stats               -> {"requests": N, "paths": {...}, "agents": {path: last User-Agent}}
  ANY  /__almanac/echo                -> {"method": ..., "body": ..., header names lowercased: values}
  POST /__almanac/fault?mode=M        -> M in none|500|429|malformed|truncate|empty|html|reset|delay:SECONDS|drip:SECONDS
                                         |401|404|403|ctype|huge:MB|cookie|drop:KEY|retype:KEY|redirect|redirect:https
    404, 403    the status with a small JSON body
    500         the status for every path, recorded or not (an upstream that is down)
    401         the status with a Basic WWW-Authenticate challenge
    429         Retry-After: 30
    ctype       the recorded body labelled text/html (wrong content type, right bytes)
    redirect    302 to the same exchange under /__moved (served there without the fault)
    redirect:https  302 to the same exchange on https:// (a scheme change a client must not follow)
    huge:MB     a 200 response of MB MiB (at most 512) with no Content-Length, streamed in 64 KiB chunks
    cookie      the recorded response plus Set-Cookie and an echo of the request's key header (redaction tests)
    drop:KEY    the recorded JSON with every object member named KEY removed (upstream shape drift)
    retype:KEY  the recorded JSON with every member named KEY turned into a string (upstream type drift)
"""
import argparse
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def match_key(method, raw_path):
    parts = urllib.parse.urlsplit(raw_path)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    query.sort()
    path = urllib.parse.unquote(parts.path)
    q = "&".join(f"{k}={v}" for k, v in query)
    return f"{method.upper()} {path}" + (f"?{q}" if q else "")


def mutate(value, action, key):
    """Returns `value` with every member named `key` dropped or turned into a string."""
    if isinstance(value, dict):
        out = {}
        for name, member in value.items():
            if name == key:
                if action == "drop":
                    continue
                out[name] = json.dumps(member) if not isinstance(member, str) else 0
            else:
                out[name] = mutate(member, action, key)
        return out
    if isinstance(value, list):
        return [mutate(item, action, key) for item in value]
    return value


def load(root):
    exchanges = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".exchange.json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                exchange = json.load(handle)
            request, response = exchange["request"], exchange["response"]
            url = urllib.parse.urlsplit(request["url"])
            raw = url.path + (f"?{url.query}" if url.query else "")
            body_name = response.get("body")
            exchanges[match_key(request["method"], raw)] = (
                response["status"],
                response.get("headers") or {},
                os.path.join(folder, body_name) if body_name else None,
            )
    return exchanges


class State:
    def __init__(self, exchanges, max_requests):
        self.exchanges = exchanges
        self.max_requests = max_requests
        self.lock = threading.Lock()
        self.requests = 0
        self.paths = {}
        self.agents = {}
        self.times = []  # arrival of each upstream request (seconds since 1970), in order
        self.fault = "none"


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes; without TCP_NODELAY a reused keep-alive
        # connection stalls ~40 ms on Nagle + delayed ACK, which would be the server's latency, not ours.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def send_body(self, status, body, content_type="application/json", extra=None):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (a deadline or a size cap): expected in fault tests.
                self.close_connection = True

        def control(self):
            parts = urllib.parse.urlsplit(self.path)
            if parts.path == "/__almanac/stats":
                with state.lock:
                    body = json.dumps({"requests": state.requests, "paths": state.paths, "agents": state.agents,
                                       "times": state.times, "fault": state.fault})
                self.send_body(200, body.encode())
            elif parts.path == "/__almanac/fault":
                mode = dict(urllib.parse.parse_qsl(parts.query)).get("mode", "none")
                with state.lock:
                    state.fault = mode
                self.send_body(200, b'{"ok":true}')
            elif parts.path == "/__almanac/echo":
                # What arrived, for transport tests: method, headers (lowercased names), body.
                echo = {name.lower(): value for name, value in self.headers.items()}
                echo.update({"method": self.command, "body": self.request_body.decode(errors="replace")})
                self.send_body(200, json.dumps(echo).encode())
            else:
                self.send_body(404, b'{"error":"unknown control path"}')

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            self.request_body = self.rfile.read(length) if length else b""
            if self.path.startswith("/__almanac/"):
                return self.control()
            if self.path == "/health" and state.fault == "none":
                # llama.cpp's readiness endpoint, so `tools doctor` can be tested against this server.
                return self.send_body(200, b'{"status":"ok"}')
            moved = self.path.startswith("/__moved/")
            path = self.path[len("/__moved"):] if moved else self.path
            key = match_key(self.command, path)
            with state.lock:
                state.requests += 1
                state.times.append(time.time())
                state.paths[key] = state.paths.get(key, 0) + 1
                # What each path was last asked with: tests check the agent upstream terms require.
                state.agents[key] = self.headers.get("User-Agent") or ""
                fault = "none" if moved else state.fault
                over = state.requests > state.max_requests
            if over:
                self.send_body(503, b'{"error":"request budget exhausted"}')
                return
            recorded = state.exchanges.get(key)
            if recorded is None and fault == "500":
                # An upstream that is down answers 500 for every path, recorded or not.
                return self.send_body(500, b'{"error":"injected"}')
            if recorded is None:
                self.send_body(404, json.dumps({"error": "unrecorded", "key": key}).encode())
                return
            status, headers, body_file = recorded
            body = b""
            if body_file:
                with open(body_file, "rb") as handle:
                    body = handle.read()
            content_type = headers.get("content-type") or headers.get("Content-Type") or "application/json"
            if fault in ("404", "403"):
                return self.send_body(int(fault), b'{"error":"injected"}')
            if fault.startswith("redirect"):
                host = f"127.0.0.1:{self.server.server_address[1]}"
                scheme = "https" if fault == "redirect:https" else "http"
                return self.send_body(302, b"", extra={"Location": f"{scheme}://{host}/__moved{path}"})
            if fault == "401":
                # A Basic challenge, as CalDAV servers send: URLSession must hand the 401 back.
                return self.send_body(401, b'{"error":"injected"}', extra={"WWW-Authenticate": 'Basic realm="almanac"'})
            if fault == "ctype":
                return self.send_body(status, body, "text/html; charset=utf-8")
            if fault == "cookie":
                return self.send_body(
                    status, body, content_type,
                    {"Set-Cookie": "session=injected-cookie-value; HttpOnly",
                     "X-Api-Key-Echo": self.headers.get("X-Subscription-Token") or "none"})
            if fault.startswith(("drop:", "retype:")):
                action, key = fault.split(":", 1)
                try:
                    changed = json.dumps(mutate(json.loads(body), action, key)).encode()
                except ValueError:
                    changed = body
                return self.send_body(status, changed, content_type)
            if fault.startswith("huge:"):
                megabytes = min(int(float(fault.split(":", 1)[1])), 512)
                total = megabytes << 20
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                # No Content-Length (the body ends when the connection closes): a client cannot
                # refuse it from the headers and must count bytes as they come.
                self.send_header("Connection", "close")
                self.end_headers()
                # A JSON array of spaces: valid bytes all the way, so only size can stop a reader.
                chunk = b" " * (64 << 10)
                sent = 0
                try:
                    self.wfile.write(b"[")
                    sent = 1
                    while sent < total - 1:
                        piece = chunk[: min(len(chunk), total - 1 - sent)]
                        self.wfile.write(piece)
                        sent += len(piece)
                    self.wfile.write(b"]")
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True
                return
            if fault == "500":
                return self.send_body(500, b'{"error":"injected"}')
            if fault == "429":
                return self.send_body(429, b'{"error":"rate"}', extra={"Retry-After": "30"})
            if fault == "malformed":
                return self.send_body(200, body[: max(1, len(body) // 3)] + b"}}]]{", content_type)
            if fault == "empty":
                return self.send_body(200, b"", content_type)
            if fault == "html":
                return self.send_body(200, b"<html><body>Service Unavailable</body></html>", "text/html")
            if fault == "truncate":
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if fault == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                self.close_connection = True
                return
            if fault.startswith("delay:"):
                time.sleep(min(float(fault.split(":", 1)[1]), 30.0))
            if fault.startswith("drip:"):
                pause = min(float(fault.split(":", 1)[1]), 5.0)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for start in range(0, min(len(body), 64 * 1024), 1024):
                    self.wfile.write(body[start : start + 1024])
                    self.wfile.flush()
                    time.sleep(pause)
                self.wfile.write(body[64 * 1024 :])
                return
            extra = {k: v for k, v in headers.items() if k.lower() != "content-type"}
            self.send_body(status, body, content_type, extra)

        do_GET = do_POST = do_PUT = do_DELETE = do_REPORT = do_PROPFIND = handle_any

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=300.0)
    parser.add_argument("--max-requests", type=int, default=100000)
    args = parser.parse_args()
    # Children of the Swift test runner inherit a mask that blocks SIGTERM; unblock it so
    # "stopped by its pid" works.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    state = State(load(args.root), args.max_requests)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(state))
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    timer = threading.Timer(args.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
