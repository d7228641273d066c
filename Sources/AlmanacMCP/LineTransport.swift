import AlmanacCore
import Dispatch
import Foundation
import Logging
import MCP

#if canImport(Glibc)
    import Glibc
#endif

/// Splits a byte stream into newline-delimited messages in time linear in its length, holding at
/// most `limit` bytes of one line.
///
/// Why not the SDK's `StdioTransport`: it searched its whole pending buffer for a newline after
/// every 4 KiB read, so a line of N bytes cost O(N²) (a 16 MB line took over 40 s of CPU), and it
/// kept any line whole however long.
struct LineSplitter: Sendable {
    enum Piece: Equatable, Sendable {
        /// One message (without its newline).
        case line(Data)
        /// A line passed `limit` bytes: the rest of it up to the next newline is dropped; `id` is
        /// the request id found at its start, if any, so the refusal can answer that request.
        case tooLong(id: JSONValue?)
    }

    let limit: Int
    private var current: [UInt8] = []
    private var discarding = false

    init(limit: Int) { self.limit = limit }

    /// The pieces completed by `chunk`.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [Piece] {
        var pieces: [Piece] = []
        guard let base = chunk.baseAddress else { return pieces }
        var start = 0
        while start < chunk.count {
            // memchr scans only the new bytes, once.
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start).map {
                UnsafeRawPointer($0) - UnsafeRawPointer(base)
            }
            let end = newline ?? chunk.count
            if !discarding {
                if current.count + (end - start) > limit {
                    let keep = min(limit - current.count, end - start)
                    current.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<(start + keep)]))
                    pieces.append(.tooLong(id: Self.leadingID(current.prefix(Self.idWindow))))
                    current = []
                    discarding = true
                } else {
                    current.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                }
            }
            guard newline != nil else { break }
            if let piece = takeLine() { pieces.append(piece) }
            start = end + 1
        }
        return pieces
    }

    /// What is left at the end of input: a last line without its newline.
    mutating func finish() -> [Piece] {
        takeLine().map { [$0] } ?? []
    }

    private mutating func takeLine() -> Piece? {
        defer {
            current = []
            discarding = false
        }
        // Blank lines (or a lone CR of a CRLF) carry no message.
        guard !discarding, !current.isEmpty, current != [UInt8(ascii: "\r")] else { return nil }
        return .line(Data(current))
    }

    /// How much of a too-long line is searched for its id: clients write `id` before `params`.
    static let idWindow = 65536

    /// The value of the top-level `"id"` member of the JSON object `bytes` begins with, when it is
    /// a string or a number and comes before the text ends; nil otherwise.
    static func leadingID(_ bytes: ArraySlice<UInt8>) -> JSONValue? {
        var scanner = Scanner(bytes: Array(bytes))
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        while true {
            guard let keyRange = scanner.string() else { return nil }
            let key = try? JSONDecoder().decode(String.self, from: Data(scanner.bytes[keyRange]))
            guard scanner.take(UInt8(ascii: ":")), let valueRange = scanner.value() else { return nil }
            if key == "id" {
                guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(scanner.bytes[valueRange]))
                else { return nil }
                switch value {
                case .string, .number: return value
                default: return nil
                }
            }
            guard scanner.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// Just enough JSON to step over values, bounded by the bytes it is given.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string token, quotes included.
        mutating func string() -> Range<Int>? {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default: index += 1
                }
            }
            return nil
        }

        /// Any value: a string, an object or array (nesting counted, strings skipped), or a
        /// scalar up to the next delimiter.
        mutating func value() -> Range<Int>? {
            skipSpace()
            guard index < bytes.count else { return nil }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return start..<index
                        }
                    default: break
                    }
                    index += 1
                }
                return nil
            default:
                let delimiters: Set<UInt8> = [0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D]
                while index < bytes.count, !delimiters.contains(bytes[index]) { index += 1 }
                // A scalar running to the end may have been cut: not known whole.
                return index < bytes.count ? start..<index : nil
            }
        }
    }
}

/// MCP over stdin/stdout, one message a line, with a limit on a line's length.
///
/// Stdin is read on a thread of its own with blocking reads (no busy polling, and stdin is not
/// switched to non-blocking mode, which would change the terminal or pipe for the parent too).
/// A line over `limit` bytes is answered at once with the JSON-RPC error -32600 naming the limit
/// (for the request's id when it comes before the limit, else `null`), and dropped unread.
actor LineTransport: Transport {
    /// The SDK's logger (silenced by the caller).
    nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    private let limit: Int
    private let limitSetting: String
    private let writer = DispatchQueue(label: "almanac.mcp.stdout")
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var started = false

    /// - Parameters:
    ///   - limit: the longest line accepted, in bytes.
    ///   - limitSetting: how the operator raises it, named in the refusal.
    init(
        limit: Int, limitSetting: String = "ALMANAC_MCP_MAX_LINE", input: Int32 = 0, output: Int32 = 1,
        logger: Logger
    ) {
        self.limit = limit
        self.limitSetting = limitSetting
        self.input = input
        self.output = output
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    }

    /// Starts reading stdin.
    func connect() async throws {
        guard !started else { return }
        started = true
        let (input, output, limit, writer, continuation) = (input, self.output, limit, writer, continuation)
        let refusal = Self.refusalText(limit: limit, setting: limitSetting)
        let reader = Thread {
            var splitter = LineSplitter(limit: limit)
            var buffer = [UInt8](repeating: 0, count: 65536)
            func deliver(_ pieces: [LineSplitter.Piece]) {
                for piece in pieces {
                    switch piece {
                    case .line(let message): continuation.yield(message)
                    case .tooLong(let id):
                        let reply = Self.refusal(id: id, text: refusal)
                        // Written before the next line is read (and before the end of input
                        // can end the server): the refusal is never lost at exit.
                        writer.sync { try? Self.writeAll(output, reply) }
                    }
                }
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
                if count > 0 {
                    deliver(buffer.withUnsafeBytes { splitter.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN {
                    // Stdin handed over in non-blocking mode: wait for data instead of spinning.
                    var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, -1)
                } else {
                    break  // end of input (or a read error: the client is gone either way)
                }
            }
            deliver(splitter.finish())
            continuation.finish()
        }
        reader.start()
    }

    /// Stops delivering messages (the reader thread ends with stdin).
    func disconnect() async {
        continuation.finish()
    }

    /// Writes one message and its newline; messages never interleave.
    func send(_ data: Data) async throws {
        let output = output
        let writer = writer
        var line = data
        line.append(UInt8(ascii: "\n"))
        let message = line
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            writer.async {
                do {
                    try Self.writeAll(output, message)
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { stream }

    static func refusalText(limit: Int, setting: String) -> String {
        "Invalid Request: a message (one line) is limited to \(limit) bytes on this server; "
            + "send a smaller one, or raise the limit with \(setting)"
    }

    /// The JSON-RPC error for a line over the limit, and its newline.
    static func refusal(id: JSONValue?, text: String) -> Data {
        let reply: JSONValue = .object([
            "jsonrpc": "2.0", "id": id ?? .null,
            "error": .object(["code": .number(-32600), "message": .string(text)]),
        ])
        var data = (try? JSONOutput.compact(reply)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes all of `data` to `descriptor`, waiting while a non-blocking pipe is full.
    private static func writeAll(_ descriptor: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, -1)
                } else {
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
            }
        }
    }
}
