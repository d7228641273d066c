import Foundation

/// SearXNG's `format=json` answer, limited to the fields used. Seen in the recorded answer
/// (`Fixtures/search/searxng/web-python.response.json`): `query`, `number_of_results`,
/// `results[]` (`url`, `title`, `content`, `engine`, `engines`, ...), `answers` (empty there),
/// `infoboxes[]` (`infobox`, `id`, `content`, `urls[]` with `official`, `attributes[]` of
/// `label`/`value`), `suggestions`, `unresponsive_engines` (empty there). Not recorded, taken
/// from searx 1.1's own code and SearXNG clients (Fixtures/search/README.md): `answers` as
/// strings (searx) or objects with `answer` (SearXNG), `unresponsive_engines` as
/// `[name, reason]` pairs, `publishedDate` on news results.
enum SearXNGWire {
    struct Response: Decodable {
        /// Required: a body without it is not a search answer.
        let results: [Result]
        let answers: [Answer]?
        let infoboxes: [Infobox]?
        let suggestions: [Lossy]?
        let unresponsiveEngines: [[Lossy]]?

        enum CodingKeys: String, CodingKey {
            case results, answers, infoboxes, suggestions
            case unresponsiveEngines = "unresponsive_engines"
        }
    }

    /// One result. All optional: a result without a URL is skipped rather than failing the answer.
    struct Result: Decodable {
        let url: String?
        let title: String?
        let content: String?
        let engine: String?
        let engines: [Lossy]?
        let publishedDate: Lossy?
    }

    /// An answer: a string (searx) or an object with `answer` (SearXNG).
    struct Answer: Decodable {
        let text: String?

        enum CodingKeys: String, CodingKey { case answer }

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
                self.text = text
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decodeIfPresent(Lossy.self, forKey: .answer)?.text
        }
    }

    struct Infobox: Decodable {
        let infobox: String?
        let id: String?
        let content: String?
        let urls: [Link]?
        let attributes: [Attribute]?
    }

    struct Link: Decodable {
        let url: String?
        let official: Bool?
    }

    /// A fact; `value` is absent on image attributes.
    struct Attribute: Decodable {
        let label: String?
        let value: Lossy?
    }

    /// A scalar read as text (a string, number or boolean); anything else (null, a list, an
    /// object) as nil, so one odd value does not fail the whole answer.
    struct Lossy: Decodable {
        let text: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let number = try? container.decode(Double.self) {
                text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            } else if let flag = try? container.decode(Bool.self) {
                text = String(flag)
            } else {
                text = nil
            }
        }
    }
}
