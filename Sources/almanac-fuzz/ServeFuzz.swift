import AlmanacCore
import AlmanacRuntime
import AlmanacServe
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// What `tools serve` does with a caller's bytes before any tool runs: NIO's HTTP/1 decoder and
/// the server's connection guard on an in-memory channel, then for each request the Host check,
/// the body as arguments (JSON object, types against every tool's schema, the argument parser)
/// and the MCP message checks. It must return or throw inside, never trap or hang.
enum ServeFuzz {
    static let tools = Runtime.defaultTools()
    /// Each tool's schema as the server checks an untrusted caller's JSON against it (by default
    /// no URL prefixes allowed, no writes, no tool switched off).
    static let published = tools.map { ($0.name, $0.schema.visible(to: EgressPolicy(trust: .untrusted))) }

    /// Runs `data` as the bytes a client sent on one connection.
    static func request(_ data: Data) {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
            try channel.pipeline.syncOperations.addHandler(
                ServeInputChecks.connectionGuard(headerTimeout: .seconds(10)))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            try channel.writeInbound(ByteBuffer(bytes: data))
        } catch {
            return  // the decoder refused the bytes: the server closes such a connection
        }
        var body: [UInt8] = []
        while let part = try? channel.readInbound(as: HTTPServerRequestPart.self) {
            switch part {
            case .head(let head):
                for host in head.headers["Host"] { _ = ServeInputChecks.isLoopbackHost(host) }
                body = []
            case .body(let buffer):
                body += buffer.readableBytesView
            case .end:
                arguments(body)
                // Answer, so the guard's keep-alive bookkeeping runs as it does when serving.
                _ = try? channel.writeOutbound(HTTPServerResponsePart.head(.init(version: .http1_1, status: .ok)))
                _ = try? channel.writeOutbound(HTTPServerResponsePart.end(nil))
            }
        }
    }

    /// A request body as each tool's arguments (as `POST /tools/NAME` and MCP `tools/call` read it).
    static func arguments(_ body: [UInt8]) {
        _ = ServeInputChecks.isInitialize(Data(body))
        _ = ServeInputChecks.mcpRefusal(Data(body))
        guard var json = try? ServeInputChecks.object(body) else { return }
        json.removeValue(forKey: "tz")
        for (name, schema) in published {
            guard (try? ServeInputChecks.checkTypes(json, schema: schema, tool: name)) != nil else { continue }
            _ = try? ToolArguments.parse(json: json, schema: schema, tool: name)
        }
    }

    /// `data` as command-line words (split at NUL and newline) for each tool's argument parser.
    static func words(_ data: Data) {
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\0" || $0 == "\n" }).map(
            String.init)
        for tool in tools {
            _ = try? ToolArguments.parse(cli: words, schema: tool.schema, tool: tool.name)
            _ = TerminalText.escaped(words.joined(separator: " "))
        }
    }
}
