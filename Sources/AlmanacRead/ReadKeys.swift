/// Every parameter of the read schema, named once: the schema (``ReadTool/schema``) and the
/// argument reader (``ReadTool/request(from:)``) take these cases. The one cache key is built by
/// ``ReadTool/cacheKey(_:archiveOnly:)``.
enum ReadParameter: String, CaseIterable, Sendable {
    case url, start, section, links, archive
}
