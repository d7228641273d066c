import AlmanacCore
import Foundation

/// The one way the read tool reaches the network: every request of both providers (the page,
/// robots.txt, the archive's lookup and its snapshot) goes through ``fetchPage(_:headers:service:in:)``.
enum PageFetch {
    /// The most redirects followed (the transport's own limit too).
    static let maximumRedirects = 5
    /// The largest body read; a bigger page is refused in one line (no page worth reading is
    /// this large, and the extractor's memory grows with it).
    static let maximumBodyBytes = 8 << 20

    /// Fetches `url` with GET, following redirects hop by hop (at most 5, http and https only),
    /// and returns the last response with the URL it came from.
    ///
    /// Every hop's URL passes the same checks before it is sent: scheme, credentials, and the
    /// egress policy for untrusted callers (see `EGRESS:` below).
    ///
    /// - Throws: ``ProviderFailure`` naming `service` for a bad scheme, too many redirects, a
    ///   body over ``maximumBodyBytes`` or a transport failure; never the URL's query.
    static func fetchPage(
        _ url: URL, headers: [String: String] = [:], service: String, in environment: ProviderEnvironment
    ) async throws -> (response: HTTPResponse, url: URL) {
        var current = url
        var hops = 0
        while true {
            try vet(current, service: service)
            // EGRESS: this is where each hop's URL must pass the trust boundary's egress policy
            // (#21: refuse loopback, private, link-local and metadata addresses for untrusted
            // callers, pin the resolved address for the request). The lead wires it in here.
            var request = HTTPRequest(method: "GET", url: current, headers: headers)
            if request.headers["User-Agent"] == nil {
                request.headers["User-Agent"] = UpstreamTerms().userAgentValue(environment.settings)
            }
            let response = try await environment.transport.send(request, timeout: environment.timeout, service: service)
            if response.body.count > maximumBodyBytes {
                throw ProviderFailure(
                    .http, "\(service): the page is larger than \(maximumBodyBytes >> 20) MB (\(response.body.count >> 20) MB)")
            }
            try checkComplete(response, service: service)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return (response, current) }
            guard hops < maximumRedirects else {
                throw ProviderFailure(.network, "\(service): more than \(maximumRedirects) redirects from \(url.host ?? "the site")")
            }
            guard let location = response.header("location")?.trimmingCharacters(in: .whitespaces),
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                throw ProviderFailure(.http, "\(service): HTTP \(response.status) without a usable Location")
            }
            current = next
            hops += 1
        }
    }

    /// A body shorter or longer than its `Content-Length` (when not content-encoded, where the
    /// length counts the encoded bytes) was cut short on the way: an HTML page cut in half still
    /// parses, so without this a partial page would read as a whole one.
    static func checkComplete(_ response: HTTPResponse, service: String) throws {
        let encoding = response.header("content-encoding")?.lowercased() ?? "identity"
        guard encoding == "identity", let declared = response.header("content-length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            declared != response.body.count
        else { return }
        throw ProviderFailure(.decoding, "\(service): the body was cut short (\(response.body.count) of \(declared) bytes)")
    }

    /// http(s), a host, no credentials in the URL.
    static func vet(_ url: URL, service: String) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ProviderFailure(.network, "\(service): only http and https pages are read (got \(url.scheme ?? "no scheme"))")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ProviderFailure(.network, "\(service): the URL has no host")
        }
        guard url.user == nil, url.password == nil else {
            throw ProviderFailure(.network, "\(service): URLs with a user name or password are not fetched")
        }
    }
}
