import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

/// A switch tests flip while a store client is in use.
final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var on: Bool
    init(_ on: Bool = false) { self.on = on }
    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}

/// Counts calls made from `@Sendable` closures.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var count: Int { lock.withLock { n } }
}

/// The batches a store client was asked to append, and on which thread.
final class WriteLog: @unchecked Sendable {
    struct Call: Equatable { var count: Int; var onMainThread: Bool }
    private let lock = NSLock()
    private var log: [Call] = []
    func record(_ count: Int, onMainThread: Bool) { lock.withLock { log.append(Call(count: count, onMainThread: onMainThread)) } }
    var calls: [Call] { lock.withLock { log } }
}

struct StoreDown: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

extension StoreClient {
    /// The real store, except that appends fail while `appendsFail` is on.
    static func flaky(_ store: LocalStore, appendsFail: Switch) -> StoreClient {
        var client = StoreClient.live(store)
        let append = client.append
        client.append = { ops, id in
            if appendsFail.isOn { throw StoreDown() }
            try append(ops, id)
        }
        return client
    }
}

/// A stroke op whose author tells tests apart.
func strokeOp(_ n: Int, author: String = "Mia") -> SketchOp {
    let p = Point(Double(10 * n), 20)
    // The same n is the same stroke, so tests can compare logs.
    let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
    return .addStroke(Stroke(id: id, author: author, color: PenColor.red.rgba, width: 4, start: p,
                             segments: [.line(from: p, to: Point(Double(10 * n) + 5, 40))],
                             startedAt: Date(timeIntervalSince1970: 1_750_000_000 + Double(n)),
                             endedAt: Date(timeIntervalSince1970: 1_750_000_000 + Double(n))))
}

func document(_ meta: SketchMeta, ops count: Int) -> SketchDocument {
    SketchDocument(meta: meta, ops: (1...max(count, 1)).prefix(count).map { strokeOp($0) })
}

/// The start of a PNG of `side` × `side` pixels (what `AvatarPNG` reads),
/// told apart by `tag`.
func avatarPNG(side: Int = 128, tag: UInt8 = 0) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8)
    for v in [side, side] { bytes += [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    bytes += [8, 6, 0, 0, 0, tag]
    return Data(bytes)
}
