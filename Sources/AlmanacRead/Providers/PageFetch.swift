import AlmanacCore
import Foundation

/// The one way the read tool reaches the network: every request of both providers (the page,
/// robots.txt, the archive's lookup and its snapshot) goes through ``fetchPage(_:headers:service:in:)``.
enum PageFetch {
    /// The largest body read; a bigger page is refused in one line (no page worth reading is
    /// this large, and the extractor's memory grows with it).
    static let maximumBodyBytes = 8 << 20

    /// Fetches `url` with GET through the egress policy (docs/security.md): for an untrusted caller
    /// every hop must resolve to public addresses only and is pinned to the vetted one; redirects
    /// (at most 5, http(s) only, never from https to http) are followed and vetted hop by hop.
    /// Returns the last response with the URL it came from.
    ///
    /// - Parameter configured: Origins the operator configured (the archive's base URLs): reached
    ///   whoever asks.
    /// - Throws: ``ProviderFailure`` naming `service` for a bad scheme, too many redirects, a
    ///   body over ``maximumBodyBytes``, a refused or unreachable address or a transport failure;
    ///   never the URL's query.
    static func fetchPage(
        _ url: URL, headers: [String: String] = [:], service: String, configured: Set<Origin> = [],
        in environment: ProviderEnvironment
    ) async throws -> (response: HTTPResponse, url: URL) {
        try vet(url, service: service)
        var request = HTTPRequest(method: "GET", url: url, headers: headers)
        if request.headers["User-Agent"] == nil {
            request.headers["User-Agent"] = UpstreamTerms().userAgentValue(environment.settings)
        }
        // The transport stops reading at the limit: a huge page is never held whole.
        request.maxBodyBytes = maximumBodyBytes
        let (response, final) = try await environment.egress.send(
            request, via: environment.transport, timeout: environment.timeout, service: service, configured: configured)
        try vet(final.url, service: service)
        if response.body.count > maximumBodyBytes {
            throw ProviderFailure(
                .http,
                "\(service): the page is larger than \(maximumBodyBytes >> 20) MB (\(response.body.count >> 20) MB)")
        }
        try checkComplete(response, service: service)
        if [301, 302, 303, 307, 308].contains(response.status) {
            throw ProviderFailure(.http, "\(service): HTTP \(response.status) without a usable Location")
        }
        return (response, final.url)
    }

    /// A body shorter or longer than its `Content-Length` (when not content-encoded, where the
    /// length counts the encoded bytes) was cut short on the way: an HTML page cut in half still
    /// parses, so without this a partial page would read as a whole one.
    static func checkComplete(_ response: HTTPResponse, service: String) throws {
        let encoding = response.header("content-encoding")?.lowercased() ?? "identity"
        guard encoding == "identity",
            let declared = response.header("content-length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            declared != response.body.count
        else { return }
        throw ProviderFailure(
            .decoding, "\(service): the body was cut short (\(response.body.count) of \(declared) bytes)")
    }

    /// http(s), a host, no credentials in the URL.
    static func vet(_ url: URL, service: String) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ProviderFailure(
                .network, "\(service): only http and https pages are read (got \(url.scheme ?? "no scheme"))")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ProviderFailure(.network, "\(service): the URL has no host")
        }
        guard url.user == nil, url.password == nil else {
            throw ProviderFailure(.network, "\(service): URLs with a user name or password are not fetched")
        }
    }
}
