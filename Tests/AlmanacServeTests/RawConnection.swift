import AlmanacTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 for the tests that need bytes curl will not send (two
/// Host headers, HTTP/1.0 without Host, a header one byte at a time), with every read bounded.
final class RawConnection {
    let fd: Int32

    struct Failed: Error, CustomStringConvertible { var description: String }

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address is another client).
    init(port: Int, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw Failed(description: "cannot bind \(source)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failed(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    /// Sends `text` (MSG_NOSIGNAL: a closed peer is an answer, not SIGPIPE); false once the
    /// server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection or `timeout` passes; `closed`
    /// tells which.
    func readUntilClosed(timeout: TimeInterval) -> (text: String, closed: Bool) {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, min(left, 200)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// What the server sends within `timeout` (the connection may stay open).
    func read(for timeout: TimeInterval, until marker: String) -> String {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline, !String(decoding: received, as: UTF8.self).contains(marker) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The status code of the first answer in `text`.
    static func status(_ text: String) -> Int? {
        guard text.hasPrefix("HTTP/1.") else { return nil }
        return Int(text.split(separator: " ").dropFirst().first ?? "")
    }

    deinit { close(fd) }
}

/// TCP sockets of `port` in CLOSE-WAIT (the peer has gone, this side never closed), from `ss`.
func closeWaitSockets(port: Int) async throws -> Int {
    let output = try await Command.run(
        URL(fileURLWithPath: "/usr/bin/ss"), ["-Htn", "state", "close-wait", "( sport = :\(port) )"],
        environment: ["PATH": "/usr/bin:/bin"], timeout: 10)
    return output.stdout.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count
}
