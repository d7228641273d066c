public import AlmanacCore
import CLibxml2
import Foundation

/// `tools run read URL`: a web page as compact, dated, fenced text: the article, not the menu.
///
/// The site is asked first (robots.txt honoured, conditional requests), then the Internet
/// Archive's latest snapshot when the site fails or refuses. Answers are cached an hour. Long
/// pages are read in parts: the context ends with the exact `--start` of the next part, and
/// `--section "Heading"` reads one section; an outline of headings with their offsets comes
/// with every page that does not fit.
public struct ReadTool: Tool {
    /// Tokens of page text when no `--budget` is given: leaves room for the question and the
    /// answer in a 2k-context model.
    static let defaultBudget = 1200
    /// How long a read page is served from the cache.
    static let cacheLifetime: Duration = .seconds(3600)

    /// Creates the tool.
    public init() {}

    /// `read`.
    public var name: String { "read" }

    /// One line for `tools list`.
    public var summary: String {
        "A web page as compact text (main content, title, byline, dates), fenced as untrusted text"
    }

    /// `<url> [--start N] [--section HEADING] [--links] [--archive]`.
    public var schema: ToolSchema { Self.schema }

    static let schema = ToolSchema([
        ToolParameter(
            ReadParameter.url, .string, help: "the page to read (http or https)", placement: .positional, required: true
        ),
        ToolParameter(
            ReadParameter.start, .integer, help: "character offset to continue from (the previous part says which)"),
        ToolParameter(ReadParameter.section, .string, help: "read only the section under this heading"),
        ToolParameter(ReadParameter.links, .boolean, help: "keep links as [text](url)"),
        ToolParameter(ReadParameter.archive, .boolean, help: "read the Internet Archive's latest copy, not the site"),
    ])

    /// The site, then the Internet Archive.
    public var providerDescriptors: [ProviderDescriptor] { [SiteProvider.descriptor, ArchiveProvider.descriptor] }

    /// libxml2's HTML parser reads every page.
    public var nativeLibraries: [NativeLibrary] {
        [
            NativeLibrary(
                name: "libxml2", package: "libxml2", usedFor: "read",
                open: { almanac_xml_load() == 0 ? nil : String(cString: almanac_xml_error()) },
                opened: { String(cString: almanac_xml_opened()) })
        ]
    }

    /// Checks the arguments, then asks the site and the archive through the coordinator.
    public func run(_ arguments: ToolArguments, context: ToolContext) async throws -> ToolResult {
        // Also when another tool reads for its caller (search's `read`): switched off is off everywhere.
        guard context.environment.egress.offers(name) else {
            throw AlmanacError.usage(
                "tool '\(name)' is switched off for callers of tools serve, mcp or a model",
                suggestion: "the operator chooses them with [serve] tools and deny_tools (docs/security.md)")
        }
        var request = try Self.request(from: arguments)
        // A bad archive URL in the configuration is a usage error, not a provider failure.
        _ = try ArchiveProvider.descriptor.baseURL(context.settings)
        // The caller's policy comes before any cache read or stale copy (docs/security.md): a page
        // this caller may not fetch is asked of the archive alone, under the archive's key, so an
        // answer the site gave a wider policy is never read for it.
        var refusedSite: ProviderAttempt?
        do {
            request.url = try await context.environment.egress.admit(request.url, service: SiteProvider.service)
        } catch let failure as ProviderFailure {
            if !request.archive {
                refusedSite = ProviderAttempt(
                    provider: SiteProvider.descriptor.name, outcome: .failed, milliseconds: 0, detail: failure.message)
            }
        }
        let query = ReadQuery(url: request.url, links: request.links)
        let archiveOnly = request.archive || refusedSite != nil
        let key = Self.cacheKey(query, archiveOnly: archiveOnly)
        var providers: [any Provider<ReadQuery, FetchedPage>] = [ArchiveProvider()]
        if !archiveOnly { providers.insert(SiteProvider(), at: 0) }
        var fetched: Fetched<FetchedPage>
        do {
            fetched = try await context.fetch(
                tool: name, key: key, query: query, providers: providers, ttl: Self.cacheLifetime)
        } catch let error as AlmanacError where error.kind == .unavailable {
            guard let refusedSite else { throw error }
            throw AlmanacError.unavailable(tool: name, attempts: [refusedSite] + error.attempts)
        }
        if let refusedSite { fetched.metadata.attempts.insert(refusedSite, at: 0) }
        let payload = ReadPayload(fetched: fetched.value, start: request.start, section: request.section)
        if let section = request.section, payload.sectionRange == nil {
            let headings = payload.headings.prefix(12).map { UntrustedText.clean($0.text, limit: 60) }
            throw AlmanacError.usage(
                "read: the page has no section '\(UntrustedText.clean(section, limit: 80))'",
                suggestion: headings.isEmpty
                    ? "the page has no headings" : "sections: " + headings.joined(separator: "; "))
        }
        if let start = request.start, start > payload.totalLength {
            throw AlmanacError.usage(
                "read: --start \(start) is past the end of the page (\(payload.totalLength) characters)",
                suggestion: "use a --start between 0 and \(payload.totalLength)")
        }
        return ToolResult(metadata: fetched.metadata, payload: payload)
    }

    struct Request: Equatable {
        var url: URL
        var start: Int?
        var section: String?
        var links: Bool
        var archive = false
    }

    /// Checks every argument before any network call.
    static func request(from arguments: ToolArguments) throws -> Request {
        let raw = (arguments.string(ReadParameter.url) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !raw.isEmpty else {
            throw AlmanacError.usage(
                "read needs a URL", suggestion: "usage: \(ToolArguments.usage(schema, tool: "read"))")
        }
        let url = try parseURL(raw)
        let start = try arguments.integer(
            ReadParameter.start, in: 0...Int.max,
            example: "--start 4200 (a character offset; the previous part names it)")
        let section = try arguments.text(
            ReadParameter.section, needs: "a heading", example: "--section \"Installation\"")
        return Request(
            url: url, start: start, section: section, links: arguments.flag(ReadParameter.links),
            archive: arguments.flag(ReadParameter.archive)
        )
    }

    /// An http(s) URL with a host; `example.org/page` gets `https://`.
    static func parseURL(_ raw: String) throws -> URL {
        var text = raw
        if !text.contains("://") { text = "https://" + text }
        guard text.count <= 4000, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.url != nil
        else {
            throw AlmanacError.usage(
                "read: '\(UntrustedText.clean(raw, limit: 120))' is not a URL",
                suggestion: "e.g. tools run read https://example.org/page")
        }
        guard scheme == "http" || scheme == "https" else {
            throw AlmanacError.usage(
                "read: only http and https pages are read, got '\(scheme):'",
                suggestion: "e.g. tools run read https://example.org/page")
        }
        guard components.user == nil, components.password == nil else {
            throw AlmanacError.usage(
                "read: URLs with a user name or password are not fetched", suggestion: "remove the user:password@ part")
        }
        var clean = components
        clean.scheme = scheme
        clean.host = host.lowercased()
        // The fragment names a place in the page; the page is the same.
        clean.fragment = nil
        // Normal form (no dot segments): the URL read is the one checked, and the archive's
        // snapshot address, which embeds it, stays under the archive's path.
        guard let url = clean.url.flatMap(URLNormalizer.normalize) else {
            throw AlmanacError.usage("read: '\(UntrustedText.clean(raw, limit: 120))' is not a URL", suggestion: nil)
        }
        return url
    }

    /// Same page, same key: the URL without its fragment, and whether links are kept; a page
    /// asked of the archive alone has a key of its own (a site's answer is never read for it).
    static func cacheKey(_ query: ReadQuery, archiveOnly: Bool = false) -> String {
        "read|\(query.links ? "links" : "plain")|\(query.url.absoluteString)" + (archiveOnly ? "|archive" : "")
    }
}
