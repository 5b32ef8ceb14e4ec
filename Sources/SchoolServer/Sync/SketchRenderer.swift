import Foundation
import LearnModel
import LearnRender
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// How much drawing the server does for sketch images, and where.
public struct RenderLimits: Sendable, Equatable {
    /// Threads that draw: a pool of their own, so drawing never holds up
    /// the one that checks passwords (signing in must stay quick while a
    /// class's teacher opens big sketches).
    public var threads = max(1, System.coreCount / 2)
    /// Images drawn at once for one account, and in all; the rest wait in
    /// line (a teacher's class page asks for dozens of thumbnails at once).
    public var perAccount = 2
    public var total = 8
    /// Images waiting for one account, and in all; beyond, 429 (the
    /// account asks for too much at once) or 503, with when to ask again.
    public var waitingPerAccount = 48
    public var waitingInAll = 256
    /// The ink one image may cost, in pixels painted (`SketchImages.inkPixels`):
    /// about 250 times over a 1600 × 1000 sheet. A sketch beyond it is
    /// drawn smaller until it fits; a real class sketch never is.
    public var inkPixels = 400_000_000.0
    /// Full-size images kept, by sketch and op count, in bytes of PNG.
    public var cacheBytes = 64 << 20

    public init() {}
}

/// Draws sketch images within `RenderLimits`: on its own threads, a few
/// at a time per account and in all, each within an ink budget, and keeps
/// the full-size ones until their sketch changes.
final class SketchRenderer: Sendable {
    let limits: RenderLimits
    private let pool: NIOThreadPool
    private let places: RenderPlaces
    private let state = NIOLockedValueBox(State())

    private struct State {
        var cache: [String: [UInt8]] = [:]
        /// Least recently used first.
        var order: [String] = []
        var cachedBytes = 0
        /// Images drawn, for tests and the log.
        var drawn = 0
    }

    init(limits: RenderLimits) {
        self.limits = limits
        places = RenderPlaces(limits: limits)
        pool = NIOThreadPool(numberOfThreads: limits.threads)
        pool.start()
    }

    deinit { pool.shutdownGracefully { _ in } }

    var imagesDrawn: Int { state.withLockedValue { $0.drawn } }

    /// Takes a place for one of `account`'s images, waiting in line when
    /// all are taken.
    func admit(_ account: UUID) async throws(RenderPlaces.Refusal) { try await places.acquire(account) }

    func release(_ account: UUID) async { await places.release(account) }

    /// Images being drawn now, and waiting for a place.
    var queue: (drawing: Int, waiting: Int) { get async { await places.queue } }

    /// `body` once a place is taken; the place is given back however it ends.
    private func inPlace<T: Sendable>(for account: UUID, _ body: () async throws -> T) async throws -> T {
        try await admit(account)
        do {
            let value = try await body()
            await release(account)
            return value
        } catch {
            await release(account)
            throw error
        }
    }

    /// A PNG of the sketch `width` pixels wide (less when its ink would
    /// pass the budget), drawn on the renderer's threads. Full-size
    /// images (`cacheKey` given) come from the cache when the sketch has
    /// not changed since.
    func png(_ sketch: SyncStore.SketchRecord, for account: UUID, width: Int, cacheKey: String?,
             payloads: () async throws -> [String]) async throws -> [UInt8] {
        if let cacheKey, let kept = cached(cacheKey) { return kept }
        let budget = limits.inkPixels
        let pool = pool
        let png = try await inPlace(for: account) {
            let payloads = try await payloads()
            return try await pool.runIfActive {
                let doc = SketchImages.document(sketch, payloads: payloads)
                return try SketchExport.pngData(doc, width: SketchImages.width(width, of: doc, inkBudget: budget))
            }
        }
        state.withLockedValue { $0.drawn += 1 }
        if let cacheKey { keep(png, as: cacheKey) }
        return png
    }

    /// The sketch as a vector PDF, within the same places.
    func pdf(_ sketch: SyncStore.SketchRecord, for account: UUID, payloads: () async throws -> [String]) async throws -> [UInt8] {
        let pool = pool
        return try await inPlace(for: account) {
            let payloads = try await payloads()
            return try await pool.runIfActive { try SketchExport.pdfData(SketchImages.document(sketch, payloads: payloads)) }
        }
    }

    private func cached(_ key: String) -> [UInt8]? {
        state.withLockedValue { s in
            guard let png = s.cache[key] else { return nil }
            s.order.removeAll { $0 == key }
            s.order.append(key)
            return png
        }
    }

    private func keep(_ png: [UInt8], as key: String) {
        guard png.count <= limits.cacheBytes else { return }
        state.withLockedValue { s in
            if let old = s.cache[key] { s.cachedBytes -= old.count; s.order.removeAll { $0 == key } }
            s.cache[key] = png
            s.order.append(key)
            s.cachedBytes += png.count
            while s.cachedBytes > limits.cacheBytes, !s.order.isEmpty {
                let oldest = s.order.removeFirst()
                s.cachedBytes -= s.cache.removeValue(forKey: oldest)?.count ?? 0
            }
        }
    }
}

/// The places for drawing: a few at once per account and in all, the rest
/// waiting in line in the order they came, each taking the first place it
/// may use.
actor RenderPlaces {
    /// Why an image cannot even wait for a place.
    enum Refusal: Error, Equatable {
        case accountBusy, serverBusy
    }

    private let limits: RenderLimits
    private var drawing: [UUID: Int] = [:]
    private var total = 0
    private var line: [(account: UUID, go: CheckedContinuation<Void, Never>)] = []

    init(limits: RenderLimits) { self.limits = limits }

    func acquire(_ account: UUID) async throws(Refusal) {
        if line.isEmpty, free(for: account) {
            take(account)
            return
        }
        guard line.count(where: { $0.account == account }) < limits.waitingPerAccount else { throw .accountBusy }
        guard line.count < limits.waitingInAll else { throw .serverBusy }
        await withCheckedContinuation { line.append((account, $0)) }
    }

    func release(_ account: UUID) {
        total -= 1
        let n = drawing[account, default: 1] - 1
        drawing[account] = n > 0 ? n : nil
        // Whoever waits longest and may draw now goes next.
        while let next = line.firstIndex(where: { free(for: $0.account) }) {
            let waiting = line.remove(at: next)
            take(waiting.account)
            waiting.go.resume()
        }
    }

    var queue: (drawing: Int, waiting: Int) { (total, line.count) }

    private func free(for account: UUID) -> Bool {
        total < limits.total && drawing[account, default: 0] < limits.perAccount
    }

    private func take(_ account: UUID) {
        drawing[account, default: 0] += 1
        total += 1
    }
}
