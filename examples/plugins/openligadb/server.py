"""A provider plugin of Almanac's sports tool: the Bundesliga from OpenLigaDB (api.openligadb.de).

Written with the official MCP Python SDK (`pip install mcp`; 2.x calls FastMCP `MCPServer`).
It answers the contract `almanac.sports.scoreboard/1` (`tools plugin contract sports`):

    [plugins.openligadb]
    command = ["python3", "examples/plugins/openligadb/server.py"]
    provides = "sports"
    priority = 5          # after ESPN (0), which serves the Bundesliga too

Settings (environment, passed with the entry's `env = { ... }`):
    OPENLIGADB_URL   the API's base URL (default https://api.openligadb.de); asks /getmatchdata/bl1
                     (the current matchday) or bl2
    OPENLIGADB_FILE  a recorded getmatchdata answer to serve instead (tests, offline use)
"""

import json
import os
import urllib.request
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer

CONTRACT = "almanac.sports.scoreboard/1"
SHORTCUTS = {"soccer/ger.1": "bl1", "soccer/ger.2": "bl2"}

server = MCPServer("openligadb")


def matches(shortcut: str) -> list[dict[str, Any]]:
    """The matchday's matches, from the recorded file when one is set, else from the API."""
    path = os.environ.get("OPENLIGADB_FILE")
    if path:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    base = os.environ.get("OPENLIGADB_URL", "https://api.openligadb.de").rstrip("/")
    with urllib.request.urlopen(f"{base}/getmatchdata/{shortcut}", timeout=8) as answer:  # noqa: S310
        return json.load(answer)


def result(match: dict[str, Any]) -> dict[str, Any] | None:
    """The final result (resultTypeID 2, "Endergebnis") when there is one, else the latest standing."""
    results = match.get("matchResults") or []
    final = [r for r in results if r.get("resultTypeID") == 2]
    if final:
        return final[0]
    return max(results, key=lambda r: r.get("resultOrderID", 0), default=None)


def team(side: dict[str, Any], score: int | None, winner: bool | None) -> dict[str, Any]:
    return {
        "id": str(side["teamId"]),
        "name": side["teamName"],
        "shortName": side["shortName"],
        "score": score,
        "winner": winner,
    }


def game_entry(match: dict[str, Any]) -> dict[str, Any]:
    standing = result(match)
    finished = bool(match.get("matchIsFinished"))
    state = "post" if finished else "in" if standing else "pre"
    home = standing["pointsTeam1"] if standing else None
    away = standing["pointsTeam2"] if standing else None
    decided = finished and home is not None and away is not None and home != away
    return {
        "id": str(match["matchID"]),
        "state": state,
        "status": "Final" if finished else standing["resultName"] if standing else "Scheduled",
        "completed": finished,
        "start": match["matchDateTimeUTC"],
        # OpenLigaDB's team1 is the home side.
        "home": team(match["team1"], home, (home > away) if decided else None),
        "away": team(match["team2"], away, (away > home) if decided else None),
        "note": (match.get("group") or {}).get("groupName"),
    }


@server.tool()
def scoreboard(league: Literal["soccer/ger.1", "soccer/ger.2"], date: str, timezone: str) -> dict[str, Any]:
    """The Bundesliga matchday's matches (Almanac keeps those on the viewer's date, YYYY-MM-DD in timezone)."""
    answer = matches(SHORTCUTS[league])
    name = answer[0].get("leagueName") if answer else None
    return {"contract": CONTRACT, "leagueName": name, "games": [game_entry(m) for m in answer]}


if __name__ == "__main__":
    server.run()
