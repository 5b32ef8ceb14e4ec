import Foundation
import LearnModel
import LearnStore

/// A clock the test moves by hand, so `modifiedAt` order is not left to the
/// wall clock's resolution.
final class ManualStoreClock: @unchecked Sendable {
    private let lock = NSLock()
    // Whole milliseconds, so times compare exactly after a round trip.
    private var current: Int64

    init(_ startMilliseconds: Int64 = 1_718_000_000_000) { current = startMilliseconds }

    var now: Date { storeDate(lock.withLock { current }) }
    func advance(milliseconds: Int) { lock.withLock { current += Int64(milliseconds) } }
    func set(milliseconds: Int64) { lock.withLock { current = milliseconds } }
    var clock: StoreClock { StoreClock { [self] in now } }
}

/// Runs `body` with a fresh directory that is removed afterwards.
@discardableResult
func withStoreTempDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("teamsketch-store-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    return try body(dir)
}

func storeFileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
func storeWriteFile(_ path: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path)) }
func storeFileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// Dates on whole milliseconds: the store's precision, so these survive a
/// round trip bit for bit and documents can be compared with `==`.
func storeDate(_ msSince1970: Int64) -> Date { Date(timeIntervalSince1970: Double(msSince1970) / 1000) }

enum StoreFixture {
    static let t0: Int64 = 1_718_000_000_123

    static func stroke(author: String, color: RGBA, width: Double, segments: Int, at ms: Int64,
                       start: Point = Point(10.25, 20.5)) -> Stroke {
        var segs: [CubicSegment] = []
        var p = start
        for i in 0..<segments {
            // Awkward doubles on purpose: they must survive JSON exactly.
            let d = Double(i) * 0.1 + 0.2
            let end = Point(p.x + 7.000000000000001 + d, p.y - 3.3333333333333335 * d)
            segs.append(CubicSegment(c1: p.lerp(end, 1.0 / 3.0), c2: p.lerp(end, 2.0 / 3.0), end: end))
            p = end
        }
        return Stroke(author: author, color: color, width: width, start: start, segments: segs,
                      startedAt: storeDate(ms), endedAt: storeDate(ms + 850))
    }

    /// Strokes by three authors, a dot, an erase, a clear and ink after it.
    static func document(name: String = "Unser Haus") -> SketchDocument {
        let meta = SketchMeta(name: name, guides: .squared, timeLimitMinutes: 45, width: 1600, height: 1000,
                              createdAt: storeDate(t0))
        let a = stroke(author: "anna", color: PenColor.red.rgba, width: PenWidth.fine.units, segments: 12, at: t0 + 1000)
        let b = stroke(author: "ben", color: RGBA(r: 0.1 + 0.2, g: 1e-9, b: 0.5, a: 0.75), width: 3.75,
                       segments: 3, at: t0 + 2000, start: Point(-1.5, 999.999))
        let dot = stroke(author: "chris", color: PenColor.darkBlue.rgba, width: PenWidth.broad.units, segments: 0, at: t0 + 3000)
        let c = stroke(author: "anna", color: PenColor.lightGreen.rgba, width: PenWidth.broad.units, segments: 40, at: t0 + 6000)
        return SketchDocument(meta: meta, ops: [
            .addStroke(a), .addStroke(b), .addStroke(dot),
            .eraseStroke(id: b.id, by: "anna", at: storeDate(t0 + 4000)),
            .clear(by: "teacher", at: storeDate(t0 + 5000)),
            .addStroke(c),
        ])
    }
}

extension Date {
    var roundedToStoreMilliseconds: Date { storeDate(Int64((timeIntervalSince1970 * 1000).rounded())) }
}
