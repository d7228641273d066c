import AlmanacCore
import Foundation

/// Which upstream a recorded host is, and where its base URL can be overridden: read from the
/// provider registry (each provider's endpoints, variables and fixture folder).
enum Upstream {
    /// The upstream a request went to (by default host or by its configured base URL) and the URL
    /// written as the real upstream's, so fixtures recorded through an override still read true.
    ///
    /// - Returns: the provider's fixture folder (`recorded` for a host no provider declares) and
    ///   the URL with the provider's default scheme and host.
    static func identify(
        _ url: URL, settings: Settings, providers: ProviderRegistry
    ) -> (folder: String, url: URL) {
        if let host = url.host, let known = providers.endpoint(forDefaultHost: host) {
            return (known.descriptor.fixtureFolder, url)
        }
        for descriptor in providers.descriptors {
            for endpoint in descriptor.endpoints {
                guard let host = endpoint.defaultHost, let configured = endpoint.configuredBase(settings),
                    let base = URLComponents(string: configured), base.host == url.host, base.port == url.port,
                    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                else { continue }
                components.scheme = "https"
                components.host = host
                components.port = nil
                return (descriptor.fixtureFolder, components.url ?? url)
            }
        }
        return ("recorded", url)
    }

    /// `url` with its scheme/host/port replaced by the configured base URL for that upstream.
    static func rebase(_ url: URL, settings: Settings, providers: ProviderRegistry) -> URL {
        guard let host = url.host, let known = providers.endpoint(forDefaultHost: host),
            let base = settings.env(known.endpoint.env),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let baseComponents = URLComponents(string: base)
        else { return url }
        components.scheme = baseComponents.scheme
        components.host = baseComponents.host
        components.port = baseComponents.port
        return components.url ?? url
    }
}
