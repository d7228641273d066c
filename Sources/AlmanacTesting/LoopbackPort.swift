import Foundation

/// Free TCP ports on the loopback interface.
public enum LoopbackPort {
    /// A port on 127.0.0.1 nobody listens on now (asked from the kernel with port 0).
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureServer.ServerError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw FixtureServer.ServerError(message: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
