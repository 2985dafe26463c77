import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a test's server on loopback, for what URLSession cannot do: send a
/// request a few bytes at a time, keep a connection open and idle, or see a refused connect.
final class RawConnection: @unchecked Sendable {
    let socket: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `url`'s host and port (an IPv4 loopback address).
    init(_ url: URL) throws {
        guard let host = url.host, let port = url.port else { throw Failure(description: "no host in \(url)") }
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "cannot connect to \(url): \(reason)")
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// Sends all of `bytes`.
    func send(_ bytes: some Collection<UInt8>) throws {
        let bytes = Array(bytes)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "write failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads one HTTP answer (up to its Content-Length, or the close): its status and body.
    func answer() throws -> (status: Int, body: Data) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if let split = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                    let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)),
                    data.count - split.upperBound >= length
                {
                    break
                }
            }
        }
        let text = String(decoding: data.prefix(200), as: UTF8.self)
        guard let line = text.split(separator: "\r\n").first,
            let status = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }),
            let split = data.range(of: Data("\r\n\r\n".utf8))
        else { throw Failure(description: "no HTTP answer: \(text)") }
        return (status, Data(data[split.upperBound...]))
    }

    /// Whether a new connection to `url` is refused now.
    static func isRefused(_ url: URL) -> Bool {
        (try? RawConnection(url)) == nil
    }
}
