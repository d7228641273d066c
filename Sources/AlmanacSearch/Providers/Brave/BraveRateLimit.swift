import AlmanacCore
import Foundation

/// When Brave will accept requests again, from a 429 response.
///
/// Brave documents comma lists per window (per second, per month):
/// `X-RateLimit-Remaining: 0, 1000` and `X-RateLimit-Reset: 1, 1419704` (seconds until each window
/// resets). When a window with nothing remaining can be identified, its reset wins (so an
/// exhausted monthly quota is not retried every second); otherwise `Retry-After`, else the first
/// window's reset.
enum BraveRateLimit {
    static func resume(from response: HTTPResponse, now: Date) -> Date? {
        if response.header("retry-after") == nil,
            let remaining = numbers(response.header("x-ratelimit-remaining")),
            let resets = numbers(response.header("x-ratelimit-reset")),
            remaining.count == resets.count
        {
            let exhausted = zip(remaining, resets).filter { $0.0 <= 0 }.map(\.1)
            if let longest = exhausted.max() { return now.addingTimeInterval(longest) }
        }
        if let date = RetryAfter.date(from: response, now: now) { return date }
        // No Retry-After: the first (shortest) window's reset.
        if let first = numbers(response.header("x-ratelimit-reset"))?.first { return now.addingTimeInterval(first) }
        return nil
    }

    private static func numbers(_ header: String?) -> [Double]? {
        guard let header else { return nil }
        let values = header.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
        return values.compactMap { $0 }
    }
}
