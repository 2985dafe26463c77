import Foundation
import Hummingbird
import MultipartKit

/// A `multipart/form-data` body parsed as it streams in, by rules naming the parts wanted: each
/// is held in memory or written to a temporary file as it arrives, never past its limit, and the
/// whole body at most ``RunnectServer/maximumUploadBytes``. Parts no rule names are skipped
/// unread; a part sent twice keeps its first copy.
struct MultipartForm: Sendable {
    /// Where a part's bytes go.
    enum Destination: Sendable {
        case memory
        /// A new file at this path (the caller removes it).
        case file(String)
    }

    /// A part taken.
    struct Rule: Sendable {
        var name: String
        /// The most bytes it may hold; past them the request is 413 with `tooLarge`.
        var limit: Int
        var destination: Destination
        /// The 413's message ("the map image takes at most 5 MiB").
        var tooLarge: String
    }

    /// A part received.
    struct Part: Sendable {
        /// The bytes of a part held in memory.
        var bytes: [UInt8]
        /// The `filename` its `Content-Disposition` gave, if any.
        var fileName: String?
    }

    /// The parts received whole, by name (a part written to a file has no bytes here).
    var parts: [String: Part]

    /// The parts of `request`'s body that `rules` name.
    /// - Parameter what: What the body should be, for the 400 when it is not multipart
    ///   ("a course is sent as multipart/form-data with the parts data and image").
    /// - Throws: 400 for a body that is not multipart or is malformed, 413 over a limit, 507 when
    ///   a file part cannot be written. Files begun are removed before the error is thrown.
    static func read(_ request: Request, rules: [Rule], what: String) async throws -> MultipartForm {
        guard let type = request.headers[.contentType], let boundary = boundary(in: type) else {
            throw APIError.badRequest(what)
        }
        let reader = PartReader(rules: rules)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in reader.header(name, value) }
        parser.onBody = { buffer in reader.body(&buffer) }
        parser.onPartComplete = { reader.partEnded() }
        var total = 0
        do {
            for try await chunk in request.body {
                total += chunk.readableBytes
                guard total <= RunnectServer.maximumUploadBytes else {
                    throw APIError.tooLarge(limit: RunnectServer.maximumUploadBytes)
                }
                do {
                    try parser.execute(chunk)
                } catch {
                    throw APIError.badRequest("the multipart body is malformed (boundary \(boundary.prefix(40)))")
                }
                if let failure = reader.failure { throw failure }
            }
            reader.close()
            return MultipartForm(parts: reader.ended)
        } catch {
            reader.close()
            for rule in rules {
                if case .file(let path) = rule.destination, reader.opened.contains(rule.name) {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
            throw error
        }
    }

    /// The `boundary` parameter of a `multipart/form-data` content type.
    static func boundary(in contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let kind = parts.first, kind.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            guard (1...70).contains(value.count) else { return nil }
            return value
        }
        return nil
    }

    /// A parameter (`name`, `filename`) of a `Content-Disposition: form-data` header.
    static func parameter(_ wanted: String, of value: String) -> String? {
        for piece in value.split(separator: ";") {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == wanted else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// The parser's callbacks' state: which part is being read and where its bytes go.
    private final class PartReader: @unchecked Sendable {
        let rules: [String: Rule]
        var current: Rule?
        var currentFileName: String?
        var bytes: [UInt8] = []
        var count = 0
        var file: FileHandle?
        /// Parts whose file was created.
        var opened: Set<String> = []
        var ended: [String: Part] = [:]
        var failure: APIError?

        init(rules: [Rule]) {
            self.rules = Dictionary(rules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func header(_ name: String, _ value: String) {
            guard name.lowercased() == "content-disposition", failure == nil else { return }
            let partName = MultipartForm.parameter("name", of: value)
            guard let partName, let rule = rules[partName], ended[partName] == nil, !opened.contains(partName) else {
                current = nil
                return
            }
            current = rule
            currentFileName = MultipartForm.parameter("filename", of: value)
            bytes = []
            count = 0
            if case .file(let path) = rule.destination {
                guard FileManager.default.createFile(atPath: path, contents: nil),
                    let handle = FileHandle(forWritingAtPath: path)
                else {
                    failure = APIError(
                        .insufficientStorage507, "the server cannot keep the upload now; try again later")
                    return
                }
                opened.insert(partName)
                file = handle
            }
        }

        func body(_ buffer: inout ByteBuffer) {
            guard failure == nil, let rule = current else { return }
            count += buffer.readableBytes
            guard count <= rule.limit else {
                failure = APIError(.contentTooLarge, rule.tooLarge)
                return
            }
            switch rule.destination {
            case .memory:
                bytes.append(contentsOf: buffer.readableBytesView)
            case .file:
                do {
                    try file?.write(contentsOf: buffer.readableBytesView)
                } catch {
                    failure = APIError(
                        .insufficientStorage507, "the server cannot keep the upload now (\(error.localizedDescription))"
                    )
                }
            }
        }

        func partEnded() {
            guard let rule = current else { return }
            ended[rule.name] = Part(bytes: bytes, fileName: currentFileName)
            bytes = []
            close()
            current = nil
        }

        func close() {
            try? file?.close()
            file = nil
        }
    }
}
