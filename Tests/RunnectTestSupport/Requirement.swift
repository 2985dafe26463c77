import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Something a test needs from outside the package: a tool on the `PATH`, Python modules, the
/// shared corpus. Where it is missing the test is skipped with `missing` as the reason, except
/// under CI (the `CI` environment variable set, as `.ci/run` runs), where the test fails at once
/// instead: a CI image that lost a package or the corpus cannot pass silently.
///
/// Use it as a trait on a test or a suite: `@Test(.requires(GeodSolve.located != nil, "…"))`.
/// On CI without the requirement the body never runs, so it may assume the requirement is met.
/// A test never checks a requirement in its body and returns: that test would pass where it tested
/// nothing. A part that needs more than the rest is a test of its own, carrying the trait.
public struct Requirement: TestTrait, SuiteTrait, TestScoping {
    private let evaluate: @Sendable () -> (isMet: Bool, missing: String)

    public var isMet: Bool { evaluate().isMet }
    public var missing: String { evaluate().missing }

    public init(isMet: Bool, missing: String) {
        evaluate = { (isMet, missing) }
    }

    /// A requirement checked when a test that carries it is about to run, not when the tests are
    /// listed: `evaluate` may be costly (starting a server) and is called again on each use, so it
    /// should cache its answer.
    public init(evaluating evaluate: @escaping @Sendable () -> (isMet: Bool, missing: String)) {
        self.evaluate = evaluate
    }

    public var isRecursive: Bool { true }

    /// Whether the `CI` environment variable is set (to anything but the empty string).
    public static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Not met and not on CI: skipped, as `.disabled(missing)` would.
    public func prepare(for test: Test) async throws {
        guard !isMet, !Self.isCI else { return }
        try await ConditionTrait.disabled(Comment(rawValue: missing)).prepare(for: test)
    }

    /// Not met on CI: the test itself (even a parameterised one whose arguments came out empty)
    /// is wrapped, so the failure is recorded once and the body is never run.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        isMet || testCase != nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        Issue.record(
            Comment(rawValue: "\(missing) (CI is set, so this is a failure, not a skip)"),
            sourceLocation: test.sourceLocation)
    }
}

extension Trait where Self == Requirement {
    /// Skips the test with `missing` as the reason unless `isMet`; under CI, fails it instead.
    public static func requires(_ isMet: Bool, _ missing: String) -> Self {
        Requirement(isMet: isMet, missing: missing)
    }
}

/// Tools on the `PATH`.
public enum ExternalTool {
    /// The first executable named `name` in a folder of `PATH`.
    public static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(
            separator: ":")
        for folder in folders where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What `tool` (found on the `PATH`) prints on standard output for `arguments`.
    /// - Throws: ``Failure`` when it cannot start or exits with a status other than 0.
    public static func output(of tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        try? out.fileHandleForReading.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return data
    }

    /// A tool that failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether `python3` can import every module named.
    public static func pythonImports(_ modules: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import " + modules.joined(separator: ", ")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Device nodes: `mknod` of a character device needs root (CAP_MKNOD). CI runs as root.
public enum DeviceNode {
    /// Whether this process may make a null device node (1,3), tried once in a temporary folder.
    public static let canMake: Bool = {
        guard let folder = try? TemporaryFolder("runnect-mknod") else { return false }
        return make(folder.path("null")) == 0
    }()

    public static let missing = "mknod of a null device is not allowed here (needs root: CAP_MKNOD)"

    /// Makes a null device node (1,3) at `path`; `mknod`'s result.
    public static func make(_ path: String) -> Int32 {
        // 0x103: glibc's makedev(1, 3), the null device; makedev is a macro Swift cannot call.
        mknod(path, S_IFCHR | 0o666, dev_t(0x103))
    }
}

extension Trait where Self == Requirement {
    /// Device nodes can be made (root): skipped where they cannot, failed under CI.
    public static var deviceNodes: Self {
        Requirement { (DeviceNode.canMake, DeviceNode.missing) }
    }
}
