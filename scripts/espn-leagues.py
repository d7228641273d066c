#!/usr/bin/env python3
"""Generates Sources/AlmanacSports/Models/LeagueCatalog.swift from ESPN's own league list.

    python3 scripts/espn-leagues.py           # rewrite the Swift file
    python3 scripts/espn-leagues.py --check   # exit 1 when the Swift file and the data disagree

The data, scripts/data/espn-leagues.json, is ESPN's core API list of every sport and league slug
(provenance in Fixtures/README.md). It carries slugs only: the display names and aliases people use
("f1", "pga", "epl") are the table below; a league without a line there gets a name made from its slug
(the tool shows ESPN's own name from the scoreboard when it has one).
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "data" / "espn-leagues.json"
OUT = ROOT / "Sources" / "AlmanacSports" / "Models" / "LeagueCatalog.swift"

# slug: (display name, aliases: the first is the league's short word). Order = `League.all` order
# (the leagues listed first and known to the router); everything else in the data follows by sport.
FEATURED = [
    ("nba", "NBA", []),
    ("wnba", "WNBA", []),
    ("nfl", "NFL", []),
    ("mlb", "MLB", []),
    ("nhl", "NHL", []),
    ("college-football", "College Football", ["ncaaf", "cfb"]),
    ("mens-college-basketball", "Men's College Basketball",
     ["ncaab", "ncaam", "cbb", "college-basketball", "march-madness"]),
    ("womens-college-basketball", "Women's College Basketball", ["ncaaw", "wcbb"]),
    ("eng.1", "Premier League", ["epl", "premier-league", "premierleague", "pl"]),
    ("eng.2", "EFL Championship", ["efl", "championship"]),
    ("esp.1", "LaLiga", ["laliga", "la-liga"]),
    ("ger.1", "Bundesliga", ["bundesliga"]),
    ("ita.1", "Serie A", ["seriea", "serie-a"]),
    ("fra.1", "Ligue 1", ["ligue1", "ligue-1"]),
    ("ned.1", "Eredivisie", ["eredivisie"]),
    ("por.1", "Primeira Liga", ["primeira-liga", "liga-portugal"]),
    ("usa.1", "MLS", ["mls"]),
    ("usa.nwsl", "NWSL", ["nwsl"]),
    ("mex.1", "Liga MX", ["ligamx", "liga-mx"]),
    ("uefa.champions", "Champions League", ["ucl", "champions-league", "championsleague"]),
    ("uefa.europa", "Europa League", ["uel", "europa-league", "europa"]),
    ("fifa.world", "FIFA World Cup", ["worldcup", "world-cup"]),
    # Beyond the original 22 (issue 15).
    ("pga", "PGA Tour", ["pga", "pga-tour"]),
    ("lpga", "LPGA Tour", ["lpga", "lpga-tour"]),
    ("eur", "DP World Tour", ["dp-world-tour", "european-tour"]),
    ("liv", "LIV Golf", ["liv-golf"]),
    ("champions-tour", "PGA Tour Champions", ["champions-tour", "senior-tour"]),
    ("ntw", "Korn Ferry Tour", ["korn-ferry", "korn-ferry-tour"]),
    ("atp", "ATP Tour", ["atp", "atp-tour", "mens-tennis"]),
    ("wta", "WTA Tour", ["wta", "wta-tour", "womens-tennis"]),
    ("f1", "Formula 1", ["f1", "formula-1", "formula1", "formula-one"]),
    ("irl", "IndyCar", ["indycar", "indy"]),
    ("nascar-premier", "NASCAR Cup Series", ["nascar", "nascar-cup", "cup-series"]),
    ("nascar-secondary", "NASCAR Xfinity Series", ["xfinity", "nascar-xfinity"]),
    ("nascar-truck", "NASCAR Truck Series", ["nascar-trucks", "truck-series"]),
    ("ufc", "UFC", ["ufc"]),
    ("pfl", "PFL", ["pfl"]),
    ("bellator", "Bellator", ["bellator"]),
    ("lfa", "LFA", ["lfa", "legacy-fighting-alliance"]),
    ("rizin", "RIZIN", ["rizin"]),
    ("ksw", "KSW", ["ksw"]),
    ("cfl", "CFL", ["cfl"]),
    ("ufl", "UFL", ["ufl"]),
    ("college-baseball", "College Baseball", ["college-baseball", "ncaa-baseball"]),
    ("college-softball", "College Softball", ["college-softball", "ncaa-softball"]),
    ("mens-college-hockey", "Men's College Hockey", ["college-hockey", "ncaa-hockey"]),
    ("womens-college-hockey", "Women's College Hockey", ["womens-college-hockey"]),
    ("womens-college-volleyball", "Women's College Volleyball", ["college-volleyball", "ncaa-volleyball"]),
    ("mens-college-volleyball", "Men's College Volleyball", ["mens-college-volleyball"]),
    ("mens-college-lacrosse", "Men's College Lacrosse", ["college-lacrosse", "ncaa-lacrosse"]),
    ("womens-college-lacrosse", "Women's College Lacrosse", ["womens-college-lacrosse"]),
    ("pll", "Premier Lacrosse League", ["pll"]),
    ("nll", "National Lacrosse League", ["nll"]),
    ("afl", "AFL", ["afl", "aussie-rules"]),
    ("nba-development", "NBA G League", ["g-league", "gleague"]),
    ("nbl", "NBL", ["nbl"]),
    ("180659", "Six Nations", ["six-nations", "6-nations"]),
    ("289234", "International Test Match", ["rugby-tests", "test-matches", "rugby-test"]),
    ("sco.1", "Scottish Premiership", ["spfl", "scottish-premiership"]),
    ("bra.1", "Brasileirão Série A", ["brasileirao", "brazil-serie-a"]),
    ("arg.1", "Argentine Liga Profesional", ["liga-profesional", "argentina-primera"]),
    ("ksa.1", "Saudi Pro League", ["saudi-pro-league", "roshn"]),
    ("tur.1", "Süper Lig", ["super-lig", "turkish-super-lig"]),
    ("bel.1", "Belgian Pro League", ["jupiler", "belgian-pro-league"]),
    ("jpn.1", "J1 League", ["j-league", "j1-league"]),
    ("aus.1", "A-League Men", ["a-league"]),
    ("uefa.europa.conf", "Conference League", ["uecl", "conference-league"]),
    ("eng.fa", "FA Cup", ["fa-cup"]),
    ("eng.league_cup", "EFL Cup", ["carabao-cup", "league-cup", "efl-cup"]),
    ("esp.copa_del_rey", "Copa del Rey", ["copa-del-rey"]),
    ("ger.dfb_pokal", "DFB-Pokal", ["dfb-pokal", "pokal"]),
    ("ita.coppa_italia", "Coppa Italia", ["coppa-italia"]),
    ("fra.coupe_de_france", "Coupe de France", ["coupe-de-france"]),
    ("esp.2", "LaLiga 2", ["laliga2", "segunda"]),
    ("ger.2", "2. Bundesliga", ["2-bundesliga", "bundesliga2"]),
    ("ita.2", "Serie B", ["serieb", "serie-b"]),
    ("fra.2", "Ligue 2", ["ligue2", "ligue-2"]),
    ("eng.3", "EFL League One", ["league-one"]),
    ("eng.4", "EFL League Two", ["league-two"]),
    ("eng.w.1", "Women's Super League", ["wsl"]),
    ("uefa.wchampions", "UEFA Women's Champions League", ["uwcl"]),
    ("conmebol.libertadores", "Copa Libertadores", ["libertadores"]),
    ("conmebol.sudamericana", "Copa Sudamericana", ["sudamericana"]),
    ("conmebol.america", "Copa América", ["copa-america"]),
    ("uefa.euro", "European Championship", ["euro", "euros"]),
    ("uefa.nations", "UEFA Nations League", ["nations-league"]),
    ("fifa.wwc", "FIFA Women's World Cup", ["womens-world-cup"]),
    ("fifa.cwc", "FIFA Club World Cup", ["club-world-cup"]),
    ("fifa.friendly", "International Friendly", ["friendlies"]),
    ("concacaf.gold", "Gold Cup", ["gold-cup"]),
    ("concacaf.champions", "CONCACAF Champions Cup", ["concacaf-champions-cup"]),
    ("concacaf.leagues.cup", "Leagues Cup", ["leagues-cup"]),
    ("usa.open", "U.S. Open Cup", ["us-open-cup"]),
    ("usa.usl.1", "USL Championship", ["usl"]),
    ("swe.1", "Allsvenskan", ["allsvenskan"]),
    ("nor.1", "Eliteserien", ["eliteserien"]),
    ("den.1", "Danish Superliga", ["superliga"]),
    ("aut.1", "Austrian Bundesliga", ["austrian-bundesliga"]),
    ("gre.1", "Greek Super League", ["greek-super-league"]),
    ("chn.1", "Chinese Super League", ["csl"]),
    ("ind.1", "Indian Super League", ["isl"]),
]

COLLEGE = re.compile(r"college|ncaa")


def slugs(data):
    """(sport, slug) for every league in ESPN's list, in the list's order."""
    out = []
    for sport, block in data["sports"].items():
        for item in block.get("items", []):
            match = re.search(r"/sports/([^/]+)/leagues/([^/?]+)", item["$ref"])
            if match and match.group(1) == sport:
                out.append((sport, match.group(2)))
    return out


def derived_name(sport, slug):
    """A readable name for a league the table does not name: "mens-college-water-polo" ->
    "Mens College Water Polo", "bra.camp.paulista" -> "BRA Camp Paulista", rugby "270557" -> "Rugby 270557"."""
    if slug.isdigit():
        return f"{sport.replace('-', ' ').title()} {slug}"
    parts = re.split(r"[.\-_]", slug)
    words = []
    for index, part in enumerate(parts):
        if index == 0 and "." in slug and len(part) <= 3:
            words.append(part.upper())
        elif len(part) <= 3 and part.isalpha() and part not in ("cup", "de", "do", "la", "del", "mid"):
            words.append(part.upper())
        else:
            words.append(part.capitalize())
    return " ".join(words)


def style(sport, slug):
    if COLLEGE.search(slug):
        return "college"
    if sport in ("soccer", "rugby", "rugby-league"):
        return "soccer"
    return "pro"


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    leagues = slugs(data)
    paths = {slug: sport for sport, slug in leagues}
    if len(paths) != len(leagues):
        raise SystemExit("espn-leagues: a slug appears under two sports; the catalog keys leagues by slug")
    named = {slug: (name, aliases) for slug, name, aliases in FEATURED}
    missing = [slug for slug in named if slug not in paths]
    if missing:
        raise SystemExit(f"espn-leagues: named leagues not in ESPN's list: {', '.join(missing)}")
    seen = {}
    for slug, _, aliases in FEATURED:
        for alias in aliases:
            if alias in seen and seen[alias] != slug:
                raise SystemExit(f"espn-leagues: alias {alias} names {seen[alias]} and {slug}")
            if alias in paths and alias != slug:
                raise SystemExit(f"espn-leagues: alias {alias} is another league's slug")
            seen[alias] = slug
    order = [slug for slug, _, _ in FEATURED] + [slug for _, slug in leagues if slug not in named]
    lines = [
        "// GENERATED by scripts/espn-leagues.py from scripts/data/espn-leagues.json (ESPN's own league list).",
        "// Do not edit: change the script's table or the data and run `python3 scripts/espn-leagues.py`.",
        "// `swift test --filter LeagueCatalogTests` fails when this file and the data disagree.",
        "// The formatter leaves it as generated (scripts/format-check):",
        "// swift-format-ignore-file",
        "",
        "extension League {",
        f"    /// Every league in ESPN's list ({len(leagues)} in {len(data['sports'])} sports): the named ones first, in",
        "    /// `League.all` order, then the rest by sport in ESPN's order.",
        "    static let catalog: [League] = [",
    ]
    for slug in order:
        sport = paths[slug]
        name = named[slug][0] if slug in named else derived_name(sport, slug)
        lines.append(
            f"        League(sport: {swift_string(sport)}, slug: {swift_string(slug)}, name: {swift_string(name)}, "
            f"style: .{style(sport, slug)}),")
    lines += [
        "    ]",
        "",
        f"    /// How many leagues lead `catalog` as `League.all` (the named ones).",
        f"    static let namedCount = {len(FEATURED)}",
        "",
        "    /// Each named league's friendly names, the word people say most first (\"epl\" before",
        "    /// \"premier-league\"): that first word is `word`, the one routes and listings use.",
        "    static let aliasesBySlug: [(slug: String, aliases: [String])] = [",
    ]
    for slug, _, aliases in FEATURED:
        if aliases:
            lines.append(f"        ({swift_string(slug)}, [{', '.join(swift_string(a) for a in aliases)}]),")
    lines += [
        "    ]",
        "",
        "    /// ESPN's sports, in its order (some, like cricket, list no league).",
        "    static let catalogSports: [String] = [" + ", ".join(swift_string(s) for s in data["sports"]) + "]",
        "}",
        "",
    ]
    return "\n".join(lines)


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"espn-leagues: {OUT.relative_to(ROOT)} is out of date; run python3 scripts/espn-leagues.py")
            return 1
        print(f"espn-leagues: {OUT.relative_to(ROOT)} matches the data")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"espn-leagues: wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
