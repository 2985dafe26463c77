import Foundation
import RunnectKit

extension CourseStore {
    // MARK: - Adding courses

    /// Reads, hashes and imports one file in a single pass over its bytes.
    ///
    /// The format is detected from the content (see RunnectKit's `ActivityReader`). The content
    /// hash is the SHA-256 of every byte of the file.
    ///
    /// - Parameters:
    ///   - path: The file; `-` reads standard input.
    ///   - title: 1–40 characters; by default the file's own name (metadata, first track or route),
    ///     else the file name without its extension, cut to 40 characters.
    ///   - description: By default the file's own description.
    ///   - departure: Where the course starts.
    /// - Returns: The stored course.
    /// - Throws: RunnectKit's `ReadError` when the file cannot be opened or read as a course;
    ///   ``StoreError/duplicate(existingID:)`` when the current user imported the same bytes
    ///   before; other ``StoreError``s as for
    ///   ``importActivity(_:contentHash:title:description:departure:fileName:)``.
    public func importFile(
        path: String, title: String? = nil, description: String? = nil,
        departure: Departure? = nil
    ) async throws -> Course {
        try await importSource(CourseSource(path: path), title: title, description: description, departure: departure)
    }

    /// Imports a file read beforehand by ``CourseSource/init(path:)``: files can be read on
    /// several threads while one thread writes.
    /// - Throws: As ``importActivity(_:contentHash:title:description:departure:fileName:)``.
    public func importSource(
        _ source: CourseSource, title: String? = nil, description: String? = nil,
        departure: Departure? = nil
    ) async throws -> Course {
        try await importActivity(
            source.activity, contentHash: source.contentHash, title: title, description: description,
            departure: departure, fileName: source.fileName)
    }

    /// Stores an activity read from a file, with its full geometry, as a private course of the
    /// current user.
    ///
    /// Atomic: the course row and its search entry are written in one transaction, or nothing is.
    /// The parameters are those of
    /// ``CourseDraft/init(activity:contentHash:title:description:departure:fileName:matching:)``.
    /// - Returns: The stored course.
    /// - Throws: ``StoreError/duplicate(existingID:)``, ``StoreError/invalidTitle(_:)``,
    ///   ``StoreError/emptyActivity`` (no track or route point), ``StoreError/cannotEncode(_:)``.
    public func importActivity(
        _ activity: Activity, contentHash: String, title: String?, description: String?,
        departure: Departure?, fileName: String?
    ) async throws -> Course {
        try await insert(
            CourseDraft(
                activity: activity, contentHash: contentHash, title: title,
                description: description, departure: departure, fileName: fileName))
    }

    /// Stores a draft as a private course of the current user, in a transaction of its own.
    /// - Throws: ``StoreError/duplicate(existingID:)`` when the user stored the same content
    ///   before; ``StoreError/database(_:)``.
    public func insert(_ draft: CourseDraft) async throws -> Course {
        try await write { tx in try await tx.insertCourse(draft) }
    }

    /// Stores drafts as private courses of the current user, all in one transaction and each in a
    /// savepoint of its own: a draft that fails (a duplicate, say) leaves nothing of itself and
    /// the others are stored. One transaction for many courses is what makes a bulk import fast;
    /// a process killed meanwhile leaves none of them, never part of one.
    /// - Returns: For each draft, in order, the stored course or why it was not stored.
    /// - Throws: ``StoreError/database(_:)`` when the transaction itself fails (then nothing is
    ///   stored).
    public func insert(_ drafts: [CourseDraft]) async throws -> [Result<Course, StoreError>] {
        try await inBatch(drafts) { draft, tx in try await tx.insertCourse(draft) }
    }

    /// Stores drafts as ``insert(_:)-([CourseDraft])`` does, a timed run drafted with
    /// ``RunMatching`` as a record of the course it followed (the store finds the course, see ``RunMatching``), anything
    /// else as a course.
    /// - Returns: For each draft, in order, what was stored or why nothing was.
    public func store(_ drafts: [CourseDraft]) async throws -> [Result<StoredDraft, StoreError>] {
        try await inBatch(drafts) { draft, tx in
            guard let run = draft.run else { return .course(try await tx.insertCourse(draft)) }
            return .record(try await self.record(draft, run: run, in: tx))
        }
    }

    /// Runs `store` for each draft in one transaction, each draft in a savepoint of its own.
    private func inBatch<Stored: Sendable>(
        _ drafts: [CourseDraft], _ store: @escaping @Sendable (CourseDraft, any StoreTransaction) async throws -> Stored
    ) async throws -> [Result<Stored, StoreError>] {
        guard !drafts.isEmpty else { return [] }
        return try await write { tx in
            // Fast path: the batch in one savepoint. A duplicate is refused before anything of it
            // is written (and leaves the transaction usable), so it needs no savepoint of its
            // own. Anything else failing midway rolls the batch back to be stored again course by
            // course, each in a savepoint, so that only the failing course is left out.
            try await tx.beginSavepoint("course_batch")
            var results: [Result<Stored, StoreError>] = []
            results.reserveCapacity(drafts.count)
            do {
                for draft in drafts {
                    do {
                        results.append(.success(try await store(draft, tx)))
                    } catch let error as StoreError where error.isRefusedBeforeWriting {
                        results.append(.failure(error))
                    }
                }
                try await tx.releaseSavepoint("course_batch")
                return results
            } catch {
                // A refused draft is survived by storing the batch again draft by draft. What the
                // backend owns (a lost connection, a deadlock: it runs the transaction again or
                // says why not) and the caller's own errors end the batch at once.
                guard error is StoreError || tx.storeError(error) != nil else { throw error }
                try await tx.rollbackSavepoint("course_batch")
            }
            results.removeAll(keepingCapacity: true)
            for draft in drafts {
                try await tx.beginSavepoint("course_import")
                do {
                    results.append(.success(try await store(draft, tx)))
                    try await tx.releaseSavepoint("course_import")
                } catch let error as StoreError {
                    try await tx.rollbackSavepoint("course_import")
                    results.append(.failure(error))
                } catch let error {
                    guard let storeError = tx.storeError(error) else { throw error }
                    try await tx.rollbackSavepoint("course_import")
                    results.append(.failure(storeError))
                }
            }
            return results
        }
    }

    /// Stores a course drawn by tapping a map: the taps joined by straight geodesic legs, as one
    /// route (format `points`).
    ///
    /// The content hash is taken over the canonical text of the taps (`lat,lon lat,lon …`), so
    /// drawing the same taps twice is recognised as a duplicate.
    ///
    /// - Parameters:
    ///   - points: The taps, in order; at least 2.
    ///   - title: 1–40 characters after trimming.
    ///   - description: Blank means none.
    ///   - departure: Where the course starts.
    /// - Throws: ``StoreError/tooFewPoints(found:)``, ``StoreError/invalidCoordinate(index:_:)``,
    ///   ``StoreError/invalidTitle(_:)``, ``StoreError/duplicate(existingID:)``.
    public func draw(
        points: [Coordinate], title: String, description: String? = nil,
        departure: Departure? = nil
    ) async throws -> Course {
        guard points.count >= TappedPointsReader.minimumPoints else {
            throw StoreError.tooFewPoints(found: points.count)
        }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw StoreError.invalidCoordinate(index: bad, points[bad])
        }
        let title = try Self.validTitle(title)
        let activity = Activity(format: .pointsText, routes: [Route(points: points.map(TrackPoint.init))])
        let hash = ContentHash.of(Array(ContentHash.canonicalText(points).utf8))
        return try await importActivity(
            activity, contentHash: hash, title: title, description: description,
            departure: departure, fileName: nil)
    }

    // MARK: - Text rules

    /// `title` trimmed and NFC-normalised.
    /// - Throws: ``StoreError/invalidTitle(_:)`` unless 1–40 characters remain.
    static func validTitle(_ title: String) throws -> String {
        try refuseControlCharacters(in: title, field: "title")
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines).composed
        guard (1...maximumTitleLength).contains(trimmed.count) else { throw StoreError.invalidTitle(title) }
        return trimmed
    }

    /// A description the user typed, trimmed and NFC-normalised; `nil` when blank.
    /// - Throws: ``StoreError/controlCharacter(field:scalar:position:)`` for a control other
    ///   than a line feed or a tab.
    static func validDescription(_ description: String?) throws -> String? {
        if let description {
            try refuseControlCharacters(in: description, field: "description", allowingLineBreaks: true)
        }
        return nonBlank(description)
    }

    /// Throws ``StoreError/controlCharacter(field:scalar:position:)`` for the first control of
    /// typed text (``ControlCharacters``).
    static func refuseControlCharacters(in text: String, field: String, allowingLineBreaks: Bool = false) throws {
        if let (scalar, position) = ControlCharacters.first(in: text, allowingLineBreaks: allowingLineBreaks) {
            throw StoreError.controlCharacter(field: field, scalar: scalar, position: position)
        }
    }

    /// The activity's own name, else the file name, cut to the title length; controls replaced
    /// (the text comes from a file).
    static func derivedTitle(of activity: Activity, fileName: String?) -> String {
        for candidate in [activity.displayName, fileName] {
            if let text = nonBlank(candidate.map { ControlCharacters.replacing(in: $0) }) {
                return String(text.prefix(maximumTitleLength)).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return "Untitled course"
    }

    /// Trimmed, NFC-normalised text; `nil` when blank.
    static func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed.composed
    }
}
