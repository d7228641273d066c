/// Brave response shapes, limited to fields seen in the recorded corpus responses
/// (`Fixtures/search/brave/*.response.json`); everything else in the body is ignored.
///
/// Web (`/res/v1/web/search`): `{"type":"search","query":{...},"web":{"results":[...]}, ...}`.
/// News (`/res/v1/news/search`): `{"type":"news","query":{...},"results":[...]}`.
/// Result fields used: `title`, `url`, `description`, `age`, `page_age`.
enum BraveWire {
    /// Just the discriminator, read first so a body of the wrong kind fails with a clear reason.
    struct Envelope: Decodable {
        let type: String?
    }

    /// A web search body. `web` is absent when Brave found no web results.
    struct WebResponse: Decodable {
        let web: Results?
    }

    /// A news search body.
    struct NewsResponse: Decodable {
        let results: [Result]?
    }

    /// `web` block of a web search.
    struct Results: Decodable {
        let results: [Result]?
    }

    /// One result (web `search_result` or `news_result`). All optional: a result without a URL
    /// is skipped rather than failing the whole answer.
    struct Result: Decodable {
        let title: String?
        let url: String?
        let description: String?
        let age: String?
        let pageAge: String?

        enum CodingKeys: String, CodingKey {
            case title, url, description, age
            case pageAge = "page_age"
        }
    }
}
