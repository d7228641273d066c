"""A provider plugin of the sports tool that answers outside almanac.sports.scoreboard/1, for the
tests (Tests/toolsTests/PluginProvidersEndToEnd.swift). Written with the official `mcp` SDK like the
examples in examples/plugins/; not a recording of any upstream. Each start appends its pid to the
file STARTS names, when set."""

import os
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer

server = MCPServer("bad")


@server.tool()
def scoreboard(league: Literal["hockey/pwhl"], date: str, timezone: str) -> dict[str, Any]:
    """A PWHL game whose start is not an instant."""
    team = {"id": "9", "name": "Vancouver Goldeneyes", "shortName": "Goldeneyes"}
    game = {"id": "1", "state": "pre", "status": "", "completed": False, "start": "yesterday", "home": team, "away": team}
    return {"contract": "almanac.sports.scoreboard/1", "games": [game]}


if __name__ == "__main__":
    if os.environ.get("STARTS"):
        with open(os.environ["STARTS"], "a", encoding="utf-8") as starts:
            starts.write(f"{os.getpid()}\n")
    server.run()
