import AlmanacCore
import Foundation

extension ArchiveProvider {
    /// The snapshot's address, built from parts: the Wayback base's own path, `/web/<timestamp>id_/`
    /// (`id_`: the page as archived, without the toolbar or rewritten links), the page's URL without
    /// its query, then the page's query as the snapshot's. The page URL is in normal form (no dot
    /// segments), and the result is refused unless its normal form stays under
    /// `<base path>/web/<timestamp>id_/`: a page URL can never move the request elsewhere on the
    /// archive's host (`https://example.org/../../../../secret-admin`).
    static func snapshotURL(wayback: URL, timestamp: String, page: URL) throws -> URL {
        let unusable = ProviderFailure(.decoding, "\(service): unusable snapshot address")
        guard var root = URLComponents(url: wayback, resolvingAgainstBaseURL: false),
            let pageNormal = URLNormalizer.normalize(page),
            var pageParts = URLComponents(url: pageNormal, resolvingAgainstBaseURL: false),
            timestamp.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { throw unusable }
        var basePath = URLNormalizer.path(root.percentEncodedPath)
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let prefix = basePath + "/web/\(timestamp)id_/"
        let query = pageParts.percentEncodedQuery
        pageParts.percentEncodedQuery = nil
        pageParts.fragment = nil
        root.percentEncodedPath = ""
        root.percentEncodedQuery = nil
        root.fragment = nil
        guard let head = root.string, let bare = pageParts.string,
            let url = URL(string: head + prefix + bare + (query.map { "?" + $0 } ?? "")),
            let sent = URLNormalizer.normalize(url),
            let path = URLComponents(url: sent, resolvingAgainstBaseURL: false)?.percentEncodedPath,
            path.hasPrefix(prefix)
        else { throw unusable }
        return sent
    }
}
