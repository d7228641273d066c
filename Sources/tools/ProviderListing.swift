import AlmanacCore
import Foundation

/// The provider registry as JSON, so scripts (the fault matrix, the fuzzer) iterate the same list
/// as the program. Secrets appear by name only, never by value.
enum ProviderListing {
    static func json(_ providers: ProviderRegistry, settings: Settings) -> String {
        let entries: [[String: Any]] = providers.descriptors.map { descriptor in
            var entry: [String: Any] = [
                "name": descriptor.name, "tool": descriptor.tool, "role": descriptor.role.rawValue,
                "priority": descriptor.priority, "summary": descriptor.summary,
                "configured": descriptor.unconfiguredReason(settings) == nil,
                "fixtureFolder": descriptor.fixtureFolder,
                "endpoints": descriptor.endpoints.map { endpoint -> [String: Any] in
                    var item: [String: Any] = ["env": endpoint.env, "default": endpoint.defaultBase ?? NSNull()]
                    if let config = endpoint.config { item["config"] = config }
                    return item
                },
                "secrets": descriptor.secrets.map(secretName),
                "decoders": descriptor.decoders.map { ["name": $0.name, "seeds": $0.seeds] },
            ]
            var terms: [String: Any] = ["conditionalRequests": descriptor.terms.conditionalRequests]
            if case .contactRequired(let path) = descriptor.terms.userAgent { terms["contactConfig"] = path }
            if let interval = descriptor.terms.minimumInterval {
                terms["minimumIntervalMs"] = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
            }
            if let attribution = descriptor.terms.attribution { terms["attribution"] = attribution }
            entry["terms"] = terms
            if let probe = descriptor.probe {
                entry["probe"] = ["path": probe.path, "endpoint": probe.endpoint, "essential": probe.essential]
            }
            if let sample = providers.sampleCall(for: descriptor) {
                entry["sampleCall"] = ["words": sample.words, "environment": sample.environment]
            }
            return entry
        }
        let data = (try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func secretName(_ secret: ProviderSecret) -> String {
        switch secret {
        case .environment(let name): "env \(name)"
        case .config(let path): "config [\(path.dropLast().joined(separator: "."))] \(path.last ?? "")"
        case .header(let name): "header \(name)"
        case .queryParameter(let name): "query \(name)"
        }
    }
}
