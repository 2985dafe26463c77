/// Why a writer refused its input.
public enum WriteError: Error, Equatable, Sendable {
    /// GeoJSON `properties` must be a JSON object (or absent); the value encoded as something else.
    case propertiesNotAnObject(String)
    /// A preview size outside what the writer draws (width and height 16…8192 pixels).
    case invalidSize(width: Int, height: Int)
}

extension WriteError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .propertiesNotAnObject(let type):
            return "GeoJSON properties must encode as a JSON object; \(type) does not"
        case .invalidSize(let width, let height):
            return "preview size \(width)x\(height) is outside 16x16…8192x8192 pixels"
        }
    }
}
