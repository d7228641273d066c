public import AlmanacCore
public import Foundation

extension WeatherTool {
    /// Decodes an Open-Meteo `/v1/forecast` body and renders it as context, synchronously.
    ///
    /// The same decoder and formatter `run` uses, without network, cache or coordinator: for
    /// benchmarks and offline checks. The header says `source: open-meteo`, fetched at `now`.
    ///
    /// ```swift
    /// let text = try WeatherTool.renderForecast(body, now: Date(timeIntervalSince1970: 1_772_762_700))
    /// ```
    ///
    /// - Parameters:
    ///   - body: A `/v1/forecast` JSON body.
    ///   - now: The reference time ("today", the current hour).
    ///   - view: What to show (default: now, today and up to 7 days).
    ///   - sun: Include sunrise and sunset.
    ///   - budget: Token budget for the context.
    /// - Returns: The context text.
    /// - Throws: ``ProviderFailure`` (kind `decoding`) for a body that is not a forecast, or a usage
    ///   error for a day the forecast does not cover.
    public static func renderForecast(
        _ body: Data, now: Date, view: WeatherRequest.View = .overview(days: WeatherRequest.defaultDays),
        sun: Bool = false, budget: ContextBudget = .unlimited
    ) throws -> String {
        let forecast = try OpenMeteoDecoder.decode(body)
        let payload = try WeatherPayload(
            report: .forecast(forecast), view: view, everyHour: view == .hourly, sun: sun, now: now)
        let metadata = ResultMetadata(
            tool: "weather", provider: "open-meteo", fetchedAt: now, ageSeconds: 0, stale: false, attempts: [])
        return payload.context(Rendering(metadata: metadata, now: now, timeZone: TimeText.utc, budget: budget))
    }
}
