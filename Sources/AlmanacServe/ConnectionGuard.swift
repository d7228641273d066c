import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with ``ConnectionGuard`` in its pipeline, where HTTP/1 messages
/// still carry what HTTP types drop (the version, keep-alive).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let headerTimeout: Duration
    let metrics: ServeMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let headerTimeout = headerTimeout
        let metrics = metrics
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Between NIO's decoder (which sees raw bytes) and the codec to HTTP types.
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(headerTimeout: headerTimeout, metrics: metrics), position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// One connection's limits below the router:
/// - a request head must be complete within `headerTimeout` of the connection opening or of the
///   previous answer (a client sending a byte every few seconds is cut, before any token check);
/// - HTTP/1.0 without keep-alive (and `Connection: close`) is closed once its answer is written;
/// - a client that closes its side is gone: the connection is closed rather than left half open
///   (CLOSE-WAIT) under an event stream that would never write again.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let metrics: ServeMetrics
    private var headerTimer: Scheduled<Void>?
    /// Keep-alive of each request read and not yet answered, in order (HTTP/1 may pipeline).
    private var keepAlive: [Bool] = []

    init(headerTimeout: Duration, metrics: ServeMetrics) {
        self.headerTimeout = TimeAmount(headerTimeout)
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startHeaderTimer(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelHeaderTimer()
    }

    func channelActive(context: ChannelHandlerContext) {
        startHeaderTimer(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelHeaderTimer()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            cancelHeaderTimer()
            keepAlive.append(head.isKeepAlive)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where keepAlive.first == false:
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            let keep = keepAlive.isEmpty ? true : keepAlive.removeFirst()
            guard keep else {
                let written = promise ?? context.eventLoop.makePromise()
                context.writeAndFlush(data, promise: written)
                let channel = context.channel
                written.futureResult.whenComplete { _ in channel.close(promise: nil) }
                return
            }
            context.write(data, promise: promise)
            if keepAlive.isEmpty { startHeaderTimer(context) }
        default:
            context.write(data, promise: promise)
        }
    }

    private func startHeaderTimer(_ context: ChannelHandlerContext) {
        cancelHeaderTimer()
        let channel = context.channel
        let metrics = metrics
        headerTimer = context.eventLoop.scheduleTask(in: headerTimeout) {
            metrics.refused("header_timeout")
            channel.close(promise: nil)
        }
    }

    private func cancelHeaderTimer() {
        headerTimer?.cancel()
        headerTimer = nil
    }
}
