import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a named pipe to its end on a thread of its own, so that a test can write into the pipe
/// (or have `runnect` write into it) from the test's thread.
public final class FIFOReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    /// Starts reading `path`; the open blocks until a writer opens the pipe.
    public init(path: String) {
        let thread = Thread { [self] in
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return }
            var bytes = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while case let count = read(fd, &buffer, buffer.count), count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            }
            close(fd)
            lock.lock()
            data = bytes
            lock.unlock()
        }
        thread.start()
    }

    /// What was read once the writer closed the pipe; `nil` if that did not happen within `seconds`.
    public func result(within seconds: Double = 5) -> Data? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            lock.lock()
            let value = data
            lock.unlock()
            if let value { return value }
            usleep(10_000)
        }
        return nil
    }
}
