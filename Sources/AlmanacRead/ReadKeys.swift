/// Every parameter of the read schema, named once: the schema (``ReadTool/schema``) and the
/// argument reader (``ReadTool/request(from:)``) take these cases. The one cache key is built by
/// ``ReadTool/cacheKey(_:archiveOnly:)``. Public for the search tool, which reads a result's page.
public enum ReadParameter: String, CaseIterable, Sendable {
    case url, start, section, links, archive
}
