#!/usr/bin/env python3
"""A loopback "attacker" for the trust-boundary tests (docs/security.md).

Listens on 127.0.0.1 only, prints "PORT n", and appends one JSON line per request it receives to
--log: method, path, and whether an Authorization header came (with its scheme, never its value).
It ends by itself after --lifetime seconds. Modes:

  record              answer 401 with a Basic challenge (tempting a client to send a password)
  redirect URL        answer 307 with Location: URL
  href URL            answer PROPFIND with a multistatus whose principal and home hrefs point at URL
                      (another origin), so a CalDAV client that follows them would reach URL
  calendar URL        a one-calendar CalDAV server whose calendar-home-set is URL (another origin)
  pages               answer GET with content naming the path ("page-secret PATH"): an .ics path gets
                      a one-event calendar, /robots.txt a 404, /wayback/available a Wayback
                      availability answer, anything else an HTML article
"""
import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MULTISTATUS = """<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
 <d:response><d:href>{self_href}</d:href><d:propstat><d:prop>
  <d:resourcetype><d:collection/></d:resourcetype>
  <d:current-user-principal><d:href>{target}</d:href></d:current-user-principal>
  <c:calendar-home-set><d:href>{target}</d:href></c:calendar-home-set>
 </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>
"""


def page(path):
    """The "pages" mode's answer for a path: (status, body, content type)."""
    if path == "/robots.txt":
        return 404, b"no robots.txt", "text/plain"
    if path.startswith("/wayback/available"):
        body = {"archived_snapshots": {"closest": {"available": True, "url": "http://archive/x",
                                                     "timestamp": "20130919044612", "status": "200"}}}
        return 200, json.dumps(body).encode(), "application/json"
    if path.split("?")[0].endswith(".ics"):
        body = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//attacker//EN\r\nBEGIN:VEVENT\r\n"
                "UID:page-secret@attacker\r\nDTSTAMP:20241201T000000Z\r\nDTSTART:20241215T150000Z\r\n"
                "DTEND:20241215T160000Z\r\nSUMMARY:page-secret " + path.replace("\\", "/") + "\r\n"
                "END:VEVENT\r\nEND:VCALENDAR\r\n")
        return 200, body.encode(), "text/calendar"
    sentence = "page-secret " + path + " is the only copy of this text. "
    body = ("<!doctype html><html><head><title>page-secret " + path + "</title></head><body><article>"
            + "".join("<p>" + sentence * 4 + "</p>" for _ in range(6)) + "</article></body></html>")
    return 200, body.encode(), "text/html; charset=utf-8"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--mode", default="record")
    parser.add_argument("--target", default="")
    parser.add_argument("--lifetime", type=float, default=120)
    args = parser.parse_args()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def record(self):
            authorization = self.headers.get("Authorization")
            entry = {
                "method": self.command,
                "path": self.path,
                "authorization": authorization.split(" ")[0] if authorization else None,
                "subscription": self.headers.get("X-Subscription-Token") is not None,
            }
            with lock, open(args.log, "a") as log:
                log.write(json.dumps(entry) + "\n")
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)

        def answer(self, status, body=b"", headers=None):
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            self.record()
            if args.mode == "redirect":
                self.answer(307, headers={"Location": args.target})
            elif args.mode == "pages":
                status, body, kind = page(self.path)
                self.answer(status, body, {"Content-Type": kind})
            elif args.mode in ("href", "calendar") and self.command == "PROPFIND":
                body = MULTISTATUS.format(self_href=self.path, target=args.target).encode()
                self.answer(207, body, {"Content-Type": "application/xml; charset=utf-8"})
            else:
                self.answer(401, b"login", {"WWW-Authenticate": 'Basic realm="attacker"'})

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = handle_any

        def do_PROPFIND(self):
            self.handle_any()

        def do_REPORT(self):
            self.handle_any()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    time.sleep(args.lifetime)
    server.shutdown()


if __name__ == "__main__":
    main()
