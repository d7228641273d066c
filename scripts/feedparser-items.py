#!/usr/bin/env python3
"""Prints the items Python's feedparser reads from each feed file given, as one JSON object:
{"FILE": {"items": [{"title", "link", "published"}...]}} with `published` as ISO 8601 UTC (or null).

The reference the news tool's parser is compared with (Tests/AlmanacNewsTests/FeedparserPeerTests)
and timed against (scripts/bench-news). feedparser 6 does not read JSON Feed: a `.json` file is
read here by the JSON Feed spec (jsonfeed.org/version/1.1: `title`, `url`, `date_published` else
`date_modified`) with Python's own json and datetime modules.

    .venv-feedparser/bin/python scripts/feedparser-items.py FILE...
    .venv-feedparser/bin/python scripts/feedparser-items.py --time ROUNDS FILE...   # seconds per round
"""
import calendar
import datetime
import json
import sys
import time

import feedparser


def iso(parsed):
    if parsed is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(calendar.timegm(parsed)))


def xml_items(data):
    parsed = feedparser.parse(data)
    items = []
    for entry in parsed.entries:
        items.append({
            "title": entry.get("title") or None,
            "link": entry.get("link") or None,
            "published": iso(entry.get("published_parsed") or entry.get("updated_parsed")),
        })
    return items


def json_date(text):
    if not isinstance(text, str):
        return None
    try:
        value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if value.tzinfo is None:
        return None
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def json_items(data):
    feed = json.loads(data)
    items = []
    for item in feed.get("items", []):
        items.append({
            "title": item.get("title") or None,
            "link": item.get("url") or None,
            "published": json_date(item.get("date_published") or item.get("date_modified")),
        })
    return items


def items(path, data):
    return json_items(data) if path.endswith(".json") else xml_items(data)


def main(arguments):
    rounds = 0
    if arguments[:1] == ["--time"]:
        rounds = int(arguments[1])
        arguments = arguments[2:]
    files = [(path, open(path, "rb").read()) for path in arguments]
    if rounds:
        start = time.perf_counter()
        for _ in range(rounds):
            for path, data in files:
                items(path, data)
        print(json.dumps({"seconds": (time.perf_counter() - start) / rounds, "files": len(files)}))
        return
    print(json.dumps({path: {"items": items(path, data)} for path, data in files}, ensure_ascii=False))


main(sys.argv[1:])
