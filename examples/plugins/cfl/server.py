"""A provider plugin of Almanac's sports tool: CFL scores from the CFL's own scoreboard feed.

Written with the official MCP Python SDK (`pip install mcp`; 2.x calls FastMCP `MCPServer`).
It answers the contract `almanac.sports.scoreboard/1` (`tools plugin contract sports`):

    [plugins.cfl]
    command = ["python3", "examples/plugins/cfl/server.py"]
    provides = "sports"
    priority = 5          # after ESPN (0), which serves the CFL too

Settings (environment, passed with the entry's `env = { ... }`):
    CFL_ROUNDS_URL   the season's rounds (default: the feed below)
    CFL_ROUNDS_FILE  a recorded rounds answer to serve instead (tests, offline use)
"""

import datetime
import json
import os
import urllib.request
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer

CONTRACT = "almanac.sports.scoreboard/1"
DEFAULT_URL = "https://cflscoreboard.cfl.ca/json/scoreboard/rounds"
QUARTERS = {"first_quarter": "1st", "second_quarter": "2nd", "third_quarter": "3rd", "fourth_quarter": "4th"}

server = MCPServer("cfl")


def rounds() -> list[dict[str, Any]]:
    """Every round of the season, from the recorded file when one is set, else from the feed."""
    path = os.environ.get("CFL_ROUNDS_FILE")
    if path:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    with urllib.request.urlopen(os.environ.get("CFL_ROUNDS_URL", DEFAULT_URL), timeout=8) as answer:  # noqa: S310
        return json.load(answer)


def team(squad: dict[str, Any], started: bool, winner: Any, final: bool) -> dict[str, Any]:
    return {
        "id": str(squad["id"]),
        "name": squad["name"],
        # The feed has no nickname apart from the full name; its shortName is the abbreviation.
        "shortName": squad["name"],
        "abbreviation": squad["shortName"],
        "score": squad["score"] if started else None,
        "winner": (winner == squad["id"]) if final and winner is not None else None,
    }


def game_entry(game: dict[str, Any], round_name: str) -> dict[str, Any]:
    # Statuses the recorded feed shows: scheduled, complete, and the quarters (first_quarter, third_quarter).
    status = game["status"]
    state = "pre" if status == "scheduled" else "post" if status == "complete" else "in"
    if state == "in" and status in QUARTERS:
        words = f"{QUARTERS[status]} Quarter {game['clock']}"
    else:
        words = {"pre": "Scheduled", "post": "Final"}.get(state, status.replace("_", " ").title())
    final = state == "post"
    return {
        "id": str(game["id"]),
        "state": state,
        "status": words,
        "completed": final,
        "start": game["date"],
        "home": team(game["homeSquad"], state != "pre", game.get("winner"), final),
        "away": team(game["awaySquad"], state != "pre", game.get("winner"), final),
        "note": round_name,
    }


@server.tool()
def scoreboard(league: Literal["football/cfl"], date: str, timezone: str) -> dict[str, Any]:
    """CFL games within a day of the given date (YYYY-MM-DD, the viewer's day in their IANA timezone)."""
    day = datetime.date.fromisoformat(date)
    games = []
    for round_ in rounds():
        for game in round_["tournaments"]:
            start = datetime.datetime.fromisoformat(game["date"]).date()
            if abs((start - day).days) <= 1:
                games.append(game_entry(game, round_["name"]))
    return {"contract": CONTRACT, "leagueName": "CFL", "games": games}


if __name__ == "__main__":
    server.run()
