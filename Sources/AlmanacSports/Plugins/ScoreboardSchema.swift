public import AlmanacCore
import Foundation

extension ScoreboardContract {
    /// The contract as JSON Schema (draft 2020-12), written from the Swift types above: one
    /// property per stored property, required where the type has no optional, the bounds
    /// ``problem`` checks. `tools plugin contract sports` prints it; a test checks that the schema
    /// and the Codable types accept and refuse the same answers.
    /// Built once: a provider plugin's answers were checked against it on every call.
    public static let jsonSchema: JSONValue = {
        func text(_ description: String, nullable: Bool = false) -> JSONValue {
            [
                "type": nullable ? ["string", "null"] : "string", "maxLength": .number(Double(maxText)),
                "description": .string(description),
            ]
        }
        let team: JSONValue = [
            "type": "object",
            "required": ["id", "name", "shortName"],
            "properties": [
                "id": ["type": "string", "minLength": 1, "maxLength": .number(Double(maxText))],
                "name": [
                    "type": "string", "minLength": 1, "maxLength": .number(Double(maxText)),
                    "description": "the full name: Vancouver Goldeneyes",
                ],
                "shortName": text("the name a fan uses: Goldeneyes"),
                "abbreviation": text("VAN", nullable: true),
                "score": [
                    "type": ["integer", "null"], "minimum": 0, "maximum": .number(Double(maxScore)),
                    "description": "null before the start",
                ],
                "record": text("the season record as the upstream writes it: 12-14-4", nullable: true),
                "winner": ["type": ["boolean", "null"], "description": "true for the winner of a finished game"],
            ],
        ]
        let game: JSONValue = [
            "type": "object",
            "required": ["id", "state", "status", "completed", "start", "home", "away"],
            "properties": [
                "id": ["type": "string", "minLength": 1, "maxLength": .number(Double(maxText))],
                "state": [
                    "enum": ["pre", "in", "post"],
                    "description": "pre: not started; in: under way; post: over or called off",
                ],
                "status": text("the upstream's words: Final 1st OT, 3rd Quarter 11:00, 7:00 PM EDT"),
                "completed": ["type": "boolean", "description": "finished with a result (false when postponed)"],
                "start": [
                    "type": "string", "pattern": .string(instantPatternText),
                    "description": "ISO 8601 instant with its offset: 2026-04-25T19:00:00-04:00",
                ],
                "timeValid": [
                    "type": ["boolean", "null"], "description": "false when the time is a placeholder (default true)",
                ],
                "home": ["$ref": "#/$defs/team"],
                "away": ["$ref": "#/$defs/team"],
                "note": text("Playoffs, Game 3", nullable: true),
                "period": text("where play stands in a halted game", nullable: true),
            ],
        ]
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string("https://almanac.invalid/contracts/\(version)"),
            "title": .string(version),
            "description": .string(
                "The structuredContent of a sports provider plugin's '\(toolName)' tool: the games of the viewer's "
                    + "day. Called with league (a path its input schema's league enum lists), date (YYYY-MM-DD) "
                    + "and timezone (IANA). Other keys are ignored."),
            "type": "object",
            "required": ["contract", "games"],
            "properties": [
                "contract": ["const": .string(version)],
                "leagueName": text("the league as the upstream names it: PWHL", nullable: true),
                "games": ["type": "array", "maxItems": .number(Double(maxGames)), "items": ["$ref": "#/$defs/game"]],
            ],
            "$defs": ["team": team, "game": game],
        ]
    }()
}
