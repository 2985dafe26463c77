import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// Map snapshots made by Pillow with a runner's position in their tags (`scripts/map_images.py`),
/// stripped by the server, and read back by Pillow: the same pixels, no tags.
@Suite(
    "Map images: taken by content, metadata stripped",
    .requires(MapImageSamples.isAvailable, "python3 with Pillow (scripts/setup.sh --test installs it)"))
struct MapImageTests {
    @Test(arguments: [("with-gps.jpg", MapImage.Format.jpeg), ("with-text.png", .png), ("plain.png", .png)])
    func theSamePixelsWithoutTags(name: String, format: MapImage.Format) throws {
        let original = MapImageSamples.folder.appendingPathComponent(name)
        let before = try MapImageSamples.read(original)
        let image = try MapImage(uploaded: try Data(contentsOf: original))
        #expect(image.format == format)
        #expect(image.width == 64 && image.height == 48)
        let stripped = MapImageSamples.folder.appendingPathComponent("stripped-\(name)")
        try Data(image.bytes).write(to: stripped)
        let after = try MapImageSamples.read(stripped)
        #expect(after["pixels_sha256"] as? String == before["pixels_sha256"] as? String)
        #expect(after["exif_tags"] as? [Int] == [])
        #expect(after["gps_tags"] as? [Int] == [])
        #expect(after["info_keys"] as? [String] == [])
        for tag in ["Exif", "tIME", "tEXt", "iTXt", "taken at home", "Runnect 1.0"] {
            #expect(!Data(image.bytes).contains(Data(tag.utf8)), "\(tag) is still in \(name)")
        }
    }

    @Test func aCutUploadIsRefusedNamingWhere() throws {
        let jpeg = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("with-gps.jpg"))
        #expect(throws: MapImageError.truncated(.jpeg)) { try MapImage(uploaded: jpeg.prefix(jpeg.count - 40)) }
        let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))
        #expect(throws: MapImageError.truncated(.png)) { try MapImage(uploaded: png.prefix(png.count - 12)) }
        var damaged = [UInt8](png)
        damaged[40] ^= 0xFF  // inside the first IDAT: its CRC no longer matches
        #expect(throws: MapImageError.self) { try MapImage(uploaded: damaged) }
    }
}

@Suite("Map images: what is no image")
struct MapImageRefusalTests {
    @Test func textOrAnotherFormatIsNoImage() {
        #expect(throws: MapImageError.notAnImage) { try MapImage(uploaded: Array("<svg/>".utf8)) }
        #expect(throws: MapImageError.notAnImage) { try MapImage(uploaded: Array("GIF89a".utf8)) }
        #expect(throws: MapImageError.notAnImage) { try MapImage(uploaded: [UInt8]()) }
    }

    @Test func overFiveMebibytesIsTooLarge() {
        let bytes = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: MapImage.maximumBytes)
        #expect(throws: MapImageError.tooLarge(bytes: MapImage.maximumBytes + 3)) { try MapImage(uploaded: bytes) }
    }

    @Test func aJPEGWithoutAFrameOrAPNGWithoutDataIsMalformed() {
        // SOI, then EOI at once.
        #expect(throws: MapImageError.malformed(.jpeg, offset: 3)) { try MapImage(uploaded: [0xFF, 0xD8, 0xFF, 0xD9]) }
        // A PNG whose first chunk is not IHDR.
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        #expect(throws: MapImageError.malformed(.png, offset: 8)) {
            try MapImage(uploaded: MapImage.pngSignature + iend)
        }
    }
}

/// The suite's images, made once by Pillow in a temporary folder.
enum MapImageSamples {
    static let script = PackageFolder.url("scripts/map_images.py")
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "runnect-images-\(UUID().uuidString)")
    static let isAvailable: Bool = {
        guard ExternalTool.pythonImports("PIL") else { return false }
        atexit { try? FileManager.default.removeItem(at: MapImageSamples.folder) }
        return (try? run(["make", folder.path])) != nil
    }()

    static func read(_ file: URL) throws -> [String: Any] {
        let text = try run(["read", file.path])
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    static func run(_ arguments: [String]) throws -> String {
        String(decoding: try ExternalTool.output(of: "python3", [script.path] + arguments), as: UTF8.self)
    }
}
