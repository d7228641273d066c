"""A provider plugin of Almanac's sports tool: the PWHL's scores from HockeyTech's scorebar.

Written with the official MCP Python SDK (`pip install mcp`; 2.x calls FastMCP `MCPServer`).
It answers the contract `almanac.sports.scoreboard/1` (`tools plugin contract sports`):

    [plugins.pwhl]
    command = ["python3", "examples/plugins/pwhl/server.py"]
    provides = "sports"
    priority = 5

Settings (environment, passed with the entry's `env = { ... }`):
    PWHL_SCOREBAR_URL   the scorebar feed (default: HockeyTech's public PWHL feed below)
    PWHL_SCOREBAR_FILE  a recorded scorebar answer to serve instead (tests, offline use)
"""

import json
import os
import urllib.request
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer

CONTRACT = "almanac.sports.scoreboard/1"
# The request parameters (key included) the recorded answer echoes in its SiteKit.Parameters
# (Fixtures/plugins/sports/).
DEFAULT_URL = (
    "https://lscluster.hockeytech.com/feed/index.php?feed=modulekit&view=scorebar&key=446521baf8c38984"
    "&client_code=pwhl&lang=en&fmt=json&numberofdaysback=1&numberofdaysahead=90&league_id=1"
)

server = MCPServer("pwhl")


def scorebar() -> list[dict[str, Any]]:
    """The scorebar's games, from the recorded file when one is set, else from the feed."""
    path = os.environ.get("PWHL_SCOREBAR_FILE")
    if path:
        with open(path, encoding="utf-8") as handle:
            body = json.load(handle)
    else:
        url = os.environ.get("PWHL_SCOREBAR_URL", DEFAULT_URL)
        with urllib.request.urlopen(url, timeout=8) as answer:  # noqa: S310 (an operator's URL)
            body = json.load(answer)
    return body["SiteKit"]["Scorebar"]


def team(game: dict[str, Any], side: str, started: bool, final: bool) -> dict[str, Any]:
    """One side ("Home" or "Visitor") in the contract's shape; HockeyTech writes every value as a string."""
    goals = int(game[f"{side}Goals"]) if started else None
    other = int(game["VisitorGoals" if side == "Home" else "HomeGoals"]) if started else None
    losses = int(game[f"{side}OTLosses"]) + int(game[f"{side}ShootoutLosses"])
    return {
        "id": game[f"{side}ID"],
        "name": game[f"{side}LongName"],
        "shortName": game[f"{side}Nickname"],
        "abbreviation": game[f"{side}Code"],
        "score": goals,
        "record": f"{game[f'{side}Wins']}-{game[f'{side}RegulationLosses']}-{losses}",
        "winner": (goals > other) if final and goals is not None and other is not None else None,
    }


def game_entry(game: dict[str, Any]) -> dict[str, Any]:
    # GameStatus: "1" not started, "4" final (the recorded feed shows these two); anything else is under way.
    status = game["GameStatus"]
    state = "pre" if status == "1" else "post" if status == "4" else "in"
    started = state != "pre"
    final = state == "post"
    return {
        "id": game["ID"],
        "state": state,
        "status": game["GameStatusStringLong"],
        "completed": final,
        "start": game["GameDateISO8601"],
        "home": team(game, "Home", started, final),
        "away": team(game, "Visitor", started, final),
    }


@server.tool()
def scoreboard(league: Literal["hockey/pwhl"], date: str, timezone: str) -> dict[str, Any]:
    """PWHL games around a day (the viewer's date YYYY-MM-DD in their IANA timezone); Almanac keeps the day's."""
    return {"contract": CONTRACT, "leagueName": "PWHL", "games": [game_entry(game) for game in scorebar()]}


if __name__ == "__main__":
    server.run()
