import Foundation
import LearnModel

/// Small builders and helpers shared by the test files.
public enum Fixture {
    public static let date = Date(timeIntervalSince1970: 1_750_000_000)

    public static func line(from a: Point, to b: Point, color: RGBA, width: Double, author: String = "Anna") -> Stroke {
        Stroke(author: author, color: color, width: width, start: a, segments: [.line(from: a, to: b)],
               startedAt: date, endedAt: date)
    }

    public static func dot(at p: Point, color: RGBA, width: Double) -> Stroke {
        Stroke(author: "Ben", color: color, width: width, start: p, segments: [], startedAt: date, endedAt: date)
    }

    /// One red broad horizontal line from (200, 300) to (1000, 300), a blue
    /// curve, and a green dot at (1400, 800) on a 1600 × 1000 canvas.
    public static func sketch(guides: LineGuides = .none, name: String = "Test sketch") -> SketchDocument {
        let red = line(from: Point(200, 300), to: Point(1000, 300), color: PenColor.red.rgba, width: 14)
        let a = Point(200, 600)
        let curve = Stroke(author: "Cem", color: PenColor.darkBlue.rgba, width: 4, start: a,
                           segments: [CubicSegment(c1: Point(400, 450), c2: Point(600, 750), end: Point(800, 600))],
                           startedAt: date, endedAt: date)
        let dot = dot(at: Point(1400, 800), color: PenColor.darkGreen.rgba, width: 14)
        let meta = SketchMeta(name: name, guides: guides, createdAt: date)
        return SketchDocument(meta: meta, ops: [red, curve, dot].map(SketchOp.addStroke))
    }
}

/// A fresh folder per test, removed when the value goes away.
public final class TempDir {
    public let path: String

    public init() {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/teamsketch-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ name: String) -> String { path + "/" + name }
}

/// Runs a program to completion, capturing its output.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum Run {
    /// Waits on a thread of its own: tests run on Swift's cooperative
    /// threads, as many as there are cores, and a test blocking one while
    /// a program runs leaves the in-process servers of every other test
    /// (and of this one, when the program talks to it) short of a thread.
    public static func program(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                               timeout: TimeInterval = 120) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try blocking(executable, arguments, environment: environment, timeout: timeout)
                })
            }
        }
    }

    private static func blocking(_ executable: String, _ arguments: [String], environment: [String: String]?,
                                 timeout: TimeInterval) throws -> ProcessResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read both pipes to the end before waiting, so a chatty child can't block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            group.wait()
        }
        p.waitUntilExit()
        return ProcessResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Full path of a program on PATH, or nil.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The app's executable built next to this test bundle
    /// (.build/<triple>/<config>/TeamsketchDesktop).
    public static var appExecutable: String {
        ProcessInfo.processInfo.environment["TEAMSKETCH_EXE"] ?? builtExecutable("TeamsketchDesktop")
    }

    /// The developers' tools built beside it (`generate`, the benchmarks).
    public static var toolsExecutable: String { builtExecutable("TeamsketchTools") }

    private static func builtExecutable(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: me).deletingLastPathComponent()
        // The test runner may live inside a .xctest bundle folder.
        while dir.path != "/" && dir.lastPathComponent.hasSuffix(".xctest") { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent(name).path
    }
}

extension Array where Element == UInt8 {
    public func hasPrefix(_ s: String) -> Bool { starts(with: Array(s.utf8)) }
}
