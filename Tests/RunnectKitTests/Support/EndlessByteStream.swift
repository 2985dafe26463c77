@testable import RunnectKit

/// A stream that serves `prefix` and then `filler` over and over, without end, counting what it
/// served: a reader that must stop early shows how far it read.
final class EndlessByteStream: ByteStream {
    private let prefix: [UInt8]
    private let filler: [UInt8]
    private(set) var served = 0

    init(prefix: String, filler: String) {
        self.prefix = Array(prefix.utf8)
        self.filler = Array(filler.utf8)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        for i in 0..<buffer.count {
            let n = served + i
            buffer[i] = n < prefix.count ? prefix[n] : filler[(n - prefix.count) % filler.count]
        }
        served += buffer.count
        return buffer.count
    }
}
