/// Every parameter of the search schema, named once: the schema (``SearchTool/schema``) and the
/// argument reader (``SearchTool/request(from:)``) take these cases. The one cache key is built by
/// ``SearchTool/cacheKey(_:)``.
enum SearchParameter: String, CaseIterable, Sendable {
    case query, news, count, freshness, country, language, page, read
}
