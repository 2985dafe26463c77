import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a test's server on loopback, for what URLSession cannot do: send a
/// request a few bytes at a time, keep a connection open and idle, see a refused connect, or name
/// an IPv6 literal host.
public final class RawConnection: @unchecked Sendable {
    let socket: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Connects to `url`'s host (a name, an IPv4 address or a bracketed IPv6 one) and port; reads
    /// wait `timeout` seconds at most.
    public init(_ url: URL, timeout: Int = 20) throws {
        guard let host = url.host, let port = url.port else { throw Failure(description: "no host in \(url)") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let literal = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard getaddrinfo(literal, String(port), &hints, &found) == 0, let info = found else {
            throw Failure(description: "cannot resolve \(literal)")
        }
        defer { freeaddrinfo(found) }
        socket = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        guard connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "cannot connect to \(url): \(reason)")
        }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// Sends all of `bytes`.
    public func send(_ bytes: some Collection<UInt8>) throws {
        let bytes = Array(bytes)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "write failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads one HTTP answer (up to its Content-Length, or the close): its status and body. It
    /// blocks: from a test's task, call it through ``answerOffTheTaskThreads()``.
    public func answer() throws -> (status: Int, body: Data) {
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
    public static func isRefused(_ url: URL) -> Bool {
        (try? RawConnection(url)) == nil
    }

    /// ``answer()`` on a thread of its own, so that the tasks' few threads (which a server in the
    /// test's own process needs to answer) are never held while it waits.
    public func answerOffTheTaskThreads() async throws -> (status: Int, body: Data) {
        try await withCheckedThrowingContinuation { done in
            Thread.detachNewThread { done.resume(with: Result { try self.answer() }) }
        }
    }
}
