extension Sequence {
    /// `map` for an async transform, one element after the other, in order.
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

extension Sequence {
    /// `flatMap` for an async transform, in order.
    public func asyncFlatMap<S: Sequence>(_ transform: (Element) async throws -> S) async rethrows -> [S.Element] {
        var results: [S.Element] = []
        for element in self { results += try await transform(element) }
        return results
    }

    /// `compactMap` for an async transform, in order.
    public func asyncCompactMap<T>(_ transform: (Element) async throws -> T?) async rethrows -> [T] {
        var results: [T] = []
        for element in self {
            if let value = try await transform(element) { results.append(value) }
        }
        return results
    }
}

/// `DispatchQueue.concurrentPerform` for async work: `body` for each of `iterations` indices, as
/// tasks running at once; returns when every one has.
public func concurrentlyPerform(iterations: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<iterations { group.addTask { await body(index) } }
    }
}
