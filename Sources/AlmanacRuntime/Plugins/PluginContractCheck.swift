import AlmanacCore
import AlmanacSports
import Foundation

extension PluginHost {
    /// The provider contract kit for a provider plugin (`tools plugin check NAME`), on a started
    /// `connection`: the contract's tool and its schema, a sample call per league (at most three)
    /// whose answer must keep the contract, and a league it does not serve, which must be an
    /// error answer that leaves the plugin running. Each entry is one `ok`/`fail` step.
    func contractSteps(
        _ configuration: PluginConfiguration, specs: [PluginToolSpec], connection: PluginConnection
    ) async -> [(ok: Bool, text: String)] {
        let version = ScoreboardContract.version
        guard let spec = specs.first(where: { $0.name == ScoreboardContract.toolName }) else {
            return [(false, "contract \(version): the plugin lists no '\(ScoreboardContract.toolName)' tool")]
        }
        var steps: [(ok: Bool, text: String)] = []
        let leagues = PluginScoreboard.leagues(of: spec)
        let badPaths = leagues.filter { !ScoreboardContract.isLeaguePath($0) }
        guard !leagues.isEmpty, badPaths.isEmpty else {
            return [
                (
                    false,
                    "contract \(version): the input schema's league must be an enum of paths like hockey/pwhl"
                        + (badPaths.isEmpty ? "" : ", not \(badPaths.prefix(3).joined(separator: ", "))")
                )
            ]
        }
        steps.append((true, "contract \(version): tool '\(spec.name)' serves \(leagues.joined(separator: ", "))"))
        let (date, zone) = sampleDay()
        for league in leagues.prefix(3) {
            let arguments: [String: JSONValue] = [
                "league": .string(league), "date": .string(date), "timezone": .string(zone),
            ]
            if let problem = PluginSchema.check(
                .object(arguments), against: spec.inputSchema, root: spec.inputSchema, path: "")
            {
                steps.append((false, "contract call \(league): its input schema refuses Almanac's call: \(problem)"))
                continue
            }
            let started = ContinuousClock.now
            do {
                let deadline = deadline
                let result = try await Self.blocking(cancel: connection) {
                    try connection.callTool(spec.name, arguments: arguments, deadline: deadline)
                }
                let answer = try ScoreboardContract.read(try PluginScoreboard.structured(result, spec: spec))
                let elapsed = PluginConnection.milliseconds(started.duration(to: .now))
                steps.append(
                    (true, "contract call \(league) \(date) \(zone): \(answer.games.count) game(s) in \(elapsed) ms"))
            } catch {
                steps.append((false, "contract call \(league): \(Self.failure(error).message)"))
            }
        }
        // A league it does not serve: an error answer (as a built-in provider's not-found), not a crash.
        do {
            let deadline = deadline
            let arguments: [String: JSONValue] = [
                "league": "unknown/almanac-check", "date": .string(date), "timezone": .string(zone),
            ]
            let result = try await Self.blocking(cancel: connection) {
                try connection.callTool(spec.name, arguments: arguments, deadline: deadline)
            }
            let refused = result["isError"] == .bool(true)
            steps.append(
                (
                    refused && connection.isUsable,
                    "contract call of a league it does not serve: "
                        + (refused ? "an error answer" : "answered as if it served it (must be an error)")
                ))
        } catch let error as PluginError {
            steps.append((connection.isUsable, "contract call of a league it does not serve: \(error.failure.message)"))
        } catch {
            steps.append((false, "contract call of a league it does not serve: \(Self.failure(error).message)"))
        }
        return steps
    }

    /// The day the sample calls ask for: `ALMANAC_NOW`'s (a recording's day) else today, in
    /// `ALMANAC_TZ`'s zone else UTC.
    private nonisolated func sampleDay() -> (date: String, zone: String) {
        let now = parentEnvironment["ALMANAC_NOW"].flatMap(TimeText.parseInstant) ?? Date()
        let zone =
            parentEnvironment["ALMANAC_TZ"].flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")
            ?? TimeText.utc
        return (TimeText.isoDay(now, in: zone), zone.identifier)
    }
}
