#!/usr/bin/env python3
"""Regenerates Sources/AlmanacSports/Models/KnownTeams.swift from the recorded ESPN responses here.

The tool prefers the live team list (`/teams`, cached a day); this offline directory only stands in when
that list cannot be fetched. Every entry is copied from a recorded response, nothing is typed by hand.
Run from the package root: python3 Fixtures/sports/known-teams.py > Sources/AlmanacSports/Models/KnownTeams.swift
"""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# League slug per response file prefix.
PREFIXES = {
    "nba-": "nba", "wnba-": "wnba", "nfl-": "nfl", "mlb-": "mlb", "nhl-": "nhl",
    "college-football-": "college-football", "mens-college-basketball-": "mens-college-basketball",
    "soccer-eng1-": "eng.1", "soccer-usa1-": "usa.1",
}
# Leagues whose recorded responses name every current team (so an unknown name is a usage error).
COMPLETE = {"nba": 30, "nfl": 32, "mlb": 30}
# The NHL's 32 current teams plus the Arizona Coyotes, whom ESPN's 2022 recording still names.
COMPLETE_AT_LEAST = {"nhl": 32}


def teams_in(node, found):
    if isinstance(node, dict):
        team = node.get("team")
        if isinstance(team, dict) and "id" in team and "abbreviation" in team and "displayName" in team:
            found.setdefault(team["id"], team)
        for value in node.values():
            teams_in(value, found)
    elif isinstance(node, list):
        for value in node:
            teams_in(value, found)


leagues = {}
for path in sorted(glob.glob(os.path.join(HERE, "espn", "*.response.json"))):
    name = os.path.basename(path)
    if "summary" in name:
        continue  # a game summary also lists past opponents' teams in other shapes
    slug = next((s for p, s in PREFIXES.items() if name.startswith(p)), None)
    if slug is None:
        continue
    with open(path, encoding="utf-8") as f:
        teams_in(json.load(f), leagues.setdefault(slug, {}))


def swift(text):
    return json.dumps(text, ensure_ascii=False)


def fold(text):
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def espn_for(slug, name):
    """The ESPN team a feed's full name means: by full name, else by a nickname only one team ends with."""
    teams = list(leagues.get(slug, {}).values())
    hit = [t for t in teams if fold(t["displayName"]) == fold(name)]
    if len(hit) == 1:
        return hit[0]
    nick = [t for t in teams if fold(name) == fold(t.get("shortDisplayName") or "")
            or fold(name).endswith(" " + fold(t.get("shortDisplayName") or ""))]
    return nick[0] if len(nick) == 1 else None


# The official feeds behind ESPN (MLB Stats API, NHL web API) name teams by their own ids. Their recorded
# answers name every current team, so each feed id maps to an ESPN team; a team ESPN's recordings lack
# (half the NHL) joins the league's directory under the feed's abbreviation, ESPN's spelling where it
# differs (NHLDecoder.espnAbbreviations), with the feed's own id behind a prefix ("nhl:2", as FeedTeams
# names a feed-only team) so it can never match an ESPN id.
NHL_ESPN_ABBREVIATIONS = {"LAK": "LA", "NJD": "NJ", "SJS": "SJ", "TBL": "TB"}
feed_ids = {"mlb": {}, "nhl": {}}
with open(os.path.join(HERE, "mlb-statsapi", "schedule-2023-08-29-live.response.json"), encoding="utf-8-sig") as f:
    for day in json.load(f)["dates"]:
        for game in day["games"]:
            for side in ("away", "home"):
                team = game["teams"][side]["team"]
                espn = espn_for("mlb", team["name"])
                if espn:
                    feed_ids["mlb"][str(team["id"])] = espn["id"]
with open(os.path.join(HERE, "nhl-api", "schedule-2025-10-07.response.json"), encoding="utf-8-sig") as f:
    nhl_week = json.load(f)["gameWeek"]
nhl_ids = {}
for day in nhl_week:
    for game in day.get("games", []):
        for side in ("awayTeam", "homeTeam"):
            nhl_ids[game[side]["abbrev"]] = str(game[side]["id"])
with open(os.path.join(HERE, "nhl-api", "standings-2025-10-07.response.json"), encoding="utf-8-sig") as f:
    nhl_rows = json.load(f)["standings"]
nhl_by_abbrev = {}
for row in nhl_rows:
    abbrev = NHL_ESPN_ABBREVIATIONS.get(row["teamAbbrev"]["default"], row["teamAbbrev"]["default"])
    espn = next((t for t in leagues.get("nhl", {}).values() if t["abbreviation"] == abbrev), None)
    if espn is None:
        espn = {
            "id": "nhl:" + nhl_ids.get(row["teamAbbrev"]["default"], abbrev), "abbreviation": abbrev, "displayName": row["teamName"]["default"],
            "shortDisplayName": row["teamCommonName"]["default"], "location": row["placeName"]["default"],
        }
        leagues.setdefault("nhl", {})[espn["id"]] = espn
    nhl_by_abbrev[row["teamAbbrev"]["default"]] = espn
for day in nhl_week:
    for game in day.get("games", []):
        for side in ("awayTeam", "homeTeam"):
            team = game[side]
            espn = nhl_by_abbrev.get(team["abbrev"])
            if espn:
                feed_ids["nhl"][str(team["id"])] = espn["id"]


print("// Generated by Fixtures/sports/known-teams.py from the recorded ESPN, MLB Stats API and NHL API answers. Do not edit.")
print("// The formatter leaves it as generated (scripts/format-check):")
print("// swift-format-ignore-file")
print("")
print("extension KnownTeams {")
print("    /// Teams named in recorded ESPN responses, by league slug.")
print("    static let recorded: [String: (complete: Bool, teams: [TeamEntry])] = [")
for slug in sorted(leagues):
    teams = sorted(leagues[slug].values(), key=lambda t: t["displayName"])
    complete = COMPLETE.get(slug) == len(teams) or len(teams) >= COMPLETE_AT_LEAST.get(slug, 10**6)
    print(f"        {swift(slug)}: (")
    print(f"            complete: {'true' if complete else 'false'},")
    print("            teams: [")
    for t in teams:
        short = t.get("shortDisplayName") or t.get("name") or t["displayName"]
        location = t.get("location") or t["displayName"]
        print(
            f"                TeamEntry(id: {swift(t['id'])}, abbreviation: {swift(t['abbreviation'])}, "
            f"displayName: {swift(t['displayName'])}, shortDisplayName: {swift(short)}, location: {swift(location)}),"
        )
    print("            ]),")
print("    ]")
print("")
print("    /// The official feeds' team ids (MLB Stats API, NHL web API) → the directory entry's id, from their recorded answers.")
print("    static let feedIds: [String: [String: String]] = [")
for slug in sorted(feed_ids):
    print(f"        {swift(slug)}: [")
    for feed_id in sorted(feed_ids[slug], key=int):
        print(f"            {swift(feed_id)}: {swift(feed_ids[slug][feed_id])},")
    print("        ],")
print("    ]")
print("}")
