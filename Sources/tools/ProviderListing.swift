import AlmanacCore
import Foundation

/// The provider registry as JSON, so scripts (the fault matrix, the fuzzer) iterate the same list
/// as the program. Secrets appear by name only, never by value.
enum ProviderListing {
    /// One provider's entry (keys sorted on output).
    struct Entry: Encodable {
        var name: String
        var tool: String
        var role: String
        var priority: Int
        var summary: String
        var configured: Bool
        var fixtureFolder: String
        var endpoints: [Endpoint]
        var secrets: [String]
        var decoders: [DecoderEntry]
        var terms: Terms
        var probe: Probe?
        var sampleCall: Sample?
    }

    struct Endpoint: Encodable {
        var env: String
        @Nullable var `default`: String?
        var config: [String]?
    }

    struct DecoderEntry: Encodable {
        var name: String
        var seeds: [String]
    }

    struct Terms: Encodable {
        var conditionalRequests: Bool
        var contactConfig: [String]?
        var minimumIntervalMs: Int64?
        var attribution: String?
    }

    struct Probe: Encodable {
        var path: String
        var endpoint: Int
        var essential: Bool
    }

    struct Sample: Encodable {
        var words: [String]
        var environment: [String: String]
    }

    static func json(_ providers: ProviderRegistry, settings: Settings) -> String {
        let entries = providers.descriptors.map { descriptor in
            var contact: [String]?
            if case .contactRequired(let path) = descriptor.terms.userAgent { contact = path }
            return Entry(
                name: descriptor.name, tool: descriptor.tool, role: descriptor.role.rawValue,
                priority: descriptor.priority, summary: descriptor.summary,
                configured: descriptor.unconfiguredReason(settings) == nil, fixtureFolder: descriptor.fixtureFolder,
                endpoints: descriptor.endpoints.map {
                    Endpoint(env: $0.env, default: $0.defaultBase, config: $0.config)
                },
                secrets: descriptor.secrets.map(secretName),
                decoders: descriptor.decoders.map { DecoderEntry(name: $0.name, seeds: $0.seeds) },
                terms: Terms(
                    conditionalRequests: descriptor.terms.conditionalRequests, contactConfig: contact,
                    minimumIntervalMs: descriptor.terms.minimumInterval.map {
                        $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000
                    },
                    attribution: descriptor.terms.attribution),
                probe: descriptor.probe.map { Probe(path: $0.path, endpoint: $0.endpoint, essential: $0.essential) },
                sampleCall: providers.sampleCall(for: descriptor).map {
                    Sample(words: $0.words, environment: $0.environment)
                })
        }
        return (try? JSONOutput.compactText(entries)) ?? "[]"
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
