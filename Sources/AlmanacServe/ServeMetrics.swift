import AlmanacCore
import Prometheus

/// The server's Prometheus metrics: tool calls by outcome, cache hits, provider attempts by
/// outcome and a latency histogram. Labels hold only tool and provider names the code declares
/// and fixed words, never request text, addresses or secrets.
final class ServeMetrics: Sendable {
    /// The registry `/metrics` prints.
    let registry = PrometheusCollectorRegistry()
    private let toolNames: Set<String>
    /// Configured plugins: their tools' provider attempts are also counted per plugin.
    private let pluginNames: Set<String>

    /// Seconds: cached answers land in the first buckets, upstream fetches in the later ones.
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// Creates the metrics for `tools`.
    init(tools: [String], plugins: [String] = []) {
        toolNames = Set(tools)
        pluginNames = Set(plugins)
    }

    static var calls: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "calls", unitName: "total",
            helpText: "Tool calls answered, by tool, interface and status.")
    }
    static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "call_duration", unitName: "seconds",
            helpText: "Time to answer one tool call.")
    }
    static var cacheHits: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "cache_hits", unitName: "total",
            helpText: "Calls answered from the cache.")
    }
    static var attempts: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "provider_attempts", unitName: "total",
            helpText: "Provider attempts, by outcome (ok, failed, timeout, cached, skipped).")
    }
    static var pluginCalls: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "plugin_calls", unitName: "total",
            helpText: "Calls a plugin was asked (cached answers not counted), by plugin.")
    }
    static var pluginFailures: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "plugin_failures", unitName: "total",
            helpText: "Plugin calls that failed or timed out (also while backing off), by plugin.")
    }
    static var pluginRestarts: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "plugin_restarts", unitName: "total",
            helpText: "Plugin programs started again after a failure, by plugin.")
    }
    static var pluginDuration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "plugin_call_duration", unitName: "seconds",
            helpText: "Time one plugin call took, by plugin.")
    }
    static var refusals: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "almanac", metricName: "http_refused", unitName: "total",
            helpText: "Requests refused before reaching a tool.")
    }

    /// Records one tool call: `status` is ok, usage, unavailable, unconfigured or error; `via` is
    /// openapi or mcp.
    func call(tool: String, via: String, status: String, attempts: [ProviderAttempt], duration: Duration) {
        let tool = toolNames.contains(tool) ? tool : "unknown"
        registry.makeCounter(descriptor: Self.calls, labels: [("tool", tool), ("via", via), ("status", status)])
            .increment()
        registry.makeDurationHistogram(descriptor: Self.duration, labels: [("tool", tool)], buckets: Self.buckets)
            .record(duration)
        for attempt in attempts {
            if attempt.outcome == .cached {
                registry.makeCounter(descriptor: Self.cacheHits, labels: [("tool", tool)]).increment()
            }
            registry.makeCounter(
                descriptor: Self.attempts,
                labels: [("tool", tool), ("provider", attempt.provider), ("outcome", attempt.outcome.rawValue)]
            ).increment()
            if pluginNames.contains(attempt.provider) { plugin(attempt) }
        }
    }

    /// Counts one attempt a plugin answered (or failed); cached and skipped ones asked no plugin.
    private func plugin(_ attempt: ProviderAttempt) {
        let labels = [("plugin", attempt.provider)]
        switch attempt.outcome {
        case .ok, .failed, .timeout:
            registry.makeCounter(descriptor: Self.pluginCalls, labels: labels).increment()
            registry.makeDurationHistogram(descriptor: Self.pluginDuration, labels: labels, buckets: Self.buckets)
                .record(.milliseconds(attempt.milliseconds))
            if attempt.outcome != .ok {
                registry.makeCounter(descriptor: Self.pluginFailures, labels: labels).increment()
            }
        case .cached, .skipped: break
        }
    }

    /// Records that `plugin`'s program was started again after a failure.
    func restarted(plugin: String) {
        guard pluginNames.contains(plugin) else { return }
        registry.makeCounter(descriptor: Self.pluginRestarts, labels: [("plugin", plugin)]).increment()
    }

    /// Records a request the server refused before any tool ran (`reason`: unauthorized, origin,
    /// host, too_large, too_many, timeout, tool_off: a tool the operator switched off for callers).
    func refused(_ reason: String) {
        registry.makeCounter(descriptor: Self.refusals, labels: [("reason", reason)]).increment()
    }

    /// The Prometheus text exposition.
    func text() -> [UInt8] { registry.emitToBuffer() }
}
