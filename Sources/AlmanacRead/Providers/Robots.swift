import AlmanacCore
import Foundation

/// A site's robots.txt rules for our User-Agent (RFC 9309): the group naming `almanac`, else the
/// `*` group; the longest matching `Allow`/`Disallow` path wins, `Allow` on a tie.
struct RobotsRules: Sendable, Codable, Equatable {
    /// (allow, path pattern) in file order.
    var rules: [Rule]
    /// Everything refused (the file could not be read for a server error: RFC 9309 §2.3.1.4).
    var disallowAll = false

    struct Rule: Sendable, Codable, Equatable {
        var allow: Bool
        var pattern: String
    }

    /// The product token we answer to in robots.txt.
    static let agentToken = "almanac"

    static let allowAll = RobotsRules(rules: [])

    /// Parses a robots.txt body.
    static func parse(_ text: String) -> RobotsRules {
        var groups: [(agents: [String], rules: [Rule])] = []
        var lastWasAgent = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let field = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            switch field {
            case "user-agent":
                if lastWasAgent, !groups.isEmpty {
                    groups[groups.count - 1].agents.append(value.lowercased())
                } else {
                    groups.append(([value.lowercased()], []))
                }
                lastWasAgent = true
            case "allow", "disallow":
                lastWasAgent = false
                guard !groups.isEmpty else { continue }
                // An empty Disallow allows everything: no rule.
                if value.isEmpty { continue }
                groups[groups.count - 1].rules.append(Rule(allow: field == "allow", pattern: value))
            default:
                lastWasAgent = false
            }
        }
        let ours = groups.filter { $0.agents.contains { $0 != "*" && agentToken.hasPrefix($0) || $0 == agentToken } }
        let chosen = ours.isEmpty ? groups.filter { $0.agents.contains("*") } : ours
        return RobotsRules(rules: chosen.flatMap(\.rules))
    }

    /// Whether `path` (path and query, percent-encoded as sent) may be fetched.
    func allows(_ path: String) -> Bool {
        if disallowAll { return false }
        var best: (length: Int, allow: Bool)?
        for rule in rules where Self.matches(rule.pattern, path) {
            let length = rule.pattern.count
            if best == nil || length > best!.length || (length == best!.length && rule.allow) {
                best = (length, rule.allow)
            }
        }
        return best?.allow ?? true
    }

    /// RFC 9309 patterns: `*` any run of characters, `$` at the end anchors it; otherwise a
    /// pattern matches a prefix of the path.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = Array(pattern.utf8)
        let text = Array(path.utf8)
        let star = UInt8(ascii: "*")
        if pattern.last == UInt8(ascii: "$") {
            pattern.removeLast()
        } else {
            pattern.append(star)
        }
        // Wildcard matching of the whole path, backtracking to the last star.
        var p = 0
        var t = 0
        var lastStar: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] != star, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == star {
                lastStar = p
                resume = t
                p += 1
            } else if let star = lastStar {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}

/// robots.txt per host, kept a day in the provider-state store.
enum RobotsCache {
    /// How long a host's rules are kept.
    static let lifetime: TimeInterval = 24 * 3600

    private struct Stored: Codable {
        var rules: RobotsRules
        var fetchedAt: Date
    }

    /// The rules for `url`'s host: from the store when fresh, else fetched.
    static func rules(for url: URL, service: String, in environment: ProviderEnvironment) async throws -> RobotsRules {
        guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased() else { return .allowAll }
        let port = url.port.map { ":\($0)" } ?? ""
        let key = "read.robots|\(scheme)://\(host)\(port)"
        if let data = await environment.state.value(for: key),
            let stored = try? JSONDecoder().decode(Stored.self, from: data),
            environment.now.timeIntervalSince(stored.fetchedAt) < lifetime, stored.fetchedAt <= environment.now
        {
            return stored.rules
        }
        guard let robotsURL = URL(string: "\(scheme)://\(host)\(port)/robots.txt") else { return .allowAll }
        // A page under a path-scoped allowed prefix: its origin's robots.txt may be fetched to obey
        // it, though outside the prefix; nothing else outside it (docs/security.md).
        var robotsEnvironment = environment
        robotsEnvironment.egress = environment.egress.allowingRobots(of: url)
        let rules: RobotsRules
        do {
            let (response, _) = try await PageFetch.fetchPage(robotsURL, service: service, in: robotsEnvironment)
            switch response.status {
            case 429:
                throw ProviderFailure(
                    .rateLimited, "\(service): HTTP 429 for robots.txt, rate limited",
                    retryAfter: RetryAfter.date(from: response, now: environment.now))
            case 200..<300: rules = RobotsRules.parse(String(decoding: response.body.prefix(500_000), as: UTF8.self))
            // RFC 9309 §2.3.1.3: an unavailable file (4xx) means no rules.
            case 400..<500: rules = .allowAll
            // §2.3.1.4: unreachable (5xx) means assume everything is disallowed, for now.
            default: rules = RobotsRules(rules: [], disallowAll: true)
            }
        } catch let failure as ProviderFailure where failure.kind == .network || failure.kind == .timeout {
            // Not cached: the site itself is probably down, and the page fetch will say so.
            throw failure
        }
        // A server error is not kept: the next run asks again.
        if !rules.disallowAll, let data = try? JSONEncoder().encode(Stored(rules: rules, fetchedAt: environment.now)) {
            await environment.state.setValue(data, for: key)
        }
        return rules
    }
}
