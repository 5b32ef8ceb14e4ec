import Foundation
import LearnModel
import LearnStore

/// Keeps the device's store and the school server in step, in the
/// background, for as long as a server is chosen and someone is signed in.
///
/// A round pushes the outbox oldest first (the server stores each op id
/// once, so a push repeated after a lost answer is harmless), then pulls
/// from the stored cursor; each pulled page is applied with its cursor in
/// one transaction, so a device stopped half-way resumes where it was.
/// When the server does not answer, the service waits longer each time
/// (`SyncBackoff`) and tries again by itself. Nothing in the app waits for
/// it: drawing and playing only ever write the local store.
public actor SyncService {
    public struct Tuning: Sendable {
        /// How often the outbox is looked at while things go well.
        public var interval: Double = 5
        /// How often the server is asked for others' changes when nothing
        /// was sent.
        public var pullInterval: Double = 30
        /// The most the server takes in one push.
        public var pushBatch = 500
        /// Payload bytes per push, well under the server's body limit
        /// even with JSON's escaping.
        public var pushBytes = 4 << 20
        public var pullPage = 500
        public var backoff = SyncBackoff()
        /// How long one pull that waits for news lasts (the server's most).
        public var waitSeconds = 25

        public init() {}
    }

    /// What one round did.
    public struct Round: Sendable, Equatable {
        public var pushed = 0
        public var refused = 0
        public var pulled = 0
        public var skipped = 0
        /// Sketches deleted elsewhere whose unsent ops this device kept as
        /// copies.
        public var keptAsCopies: [LocalStore.KeptCopy] = []
        /// Deletions made here that the server refused, undone.
        public var undone = 0
    }

    private let store: LocalStore
    private let connection: SchoolConnection
    /// Names the server and the account: the cursor belongs to both.
    private let key: String
    private let tuning: Tuning
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let onStatus: @Sendable (SyncStatus) -> Void
    /// After a round that pulled changes, with how many: what lists the
    /// store's contents looks again.
    private let onPulled: @Sendable (Int) -> Void
    /// What a sketch deleted elsewhere is kept as here, and who is told.
    private let copyName: @Sendable (String) -> String
    private let onKeptCopies: @Sendable ([LocalStore.KeptCopy]) -> Void
    private var loop: Task<Void, Never>?
    /// Waits on the server for changes this account may see (a task the
    /// teacher just set) and syncs at once when one comes, so news does
    /// not wait for the next pull on the clock.
    private var watcher: Task<Void, Never>?
    private var failures = 0
    private var unreachableSince: Date?
    private var lastPull: Date?
    /// Why the server takes nothing now (a quota the account reached, or
    /// its full disk), and when it said to push again: until then the loop
    /// only pulls.
    private var held: (status: @Sendable (Int) -> SyncStatus, until: Date)?
    /// A round is under way: another one asked for meanwhile (the "Sync
    /// now" button while the loop syncs) would only send the same batch.
    private var inRound = false

    public init(store: LocalStore, connection: SchoolConnection, key: String, tuning: Tuning = Tuning(),
                now: @escaping @Sendable () -> Date = { Date() },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                onStatus: @escaping @Sendable (SyncStatus) -> Void = { _ in },
                onPulled: @escaping @Sendable (Int) -> Void = { _ in },
                copyName: @escaping @Sendable (String) -> String = LocalStore.defaultCopyName,
                onKeptCopies: @escaping @Sendable ([LocalStore.KeptCopy]) -> Void = { _ in }) {
        self.store = store
        self.connection = connection
        self.key = key
        self.tuning = tuning
        self.now = now
        self.random = random
        self.onStatus = onStatus
        self.onPulled = onPulled
        self.copyName = copyName
        self.onKeptCopies = onKeptCopies
    }

    /// Starts syncing in the background; a second call does nothing.
    public func start() {
        guard loop == nil else { return }
        loop = Task { [weak self] in await self?.run() }
        if connection.waitForChanges != nil {
            watcher = Task { [weak self] in await self?.watch() }
        }
    }

    public func stop() {
        loop?.cancel()
        loop = nil
        watcher?.cancel()
        watcher = nil
    }

    /// One pull that waits at a time, from the stored cursor. When it
    /// says something came, a round syncs now. Between two such rounds
    /// lies at least the loop's interval, and so does a wait the server
    /// answered at once with nothing (it holds only so many, or is older
    /// than waiting): a teacher's laptop in a class that draws, or a
    /// server that does not hold pulls, is not asked again and again.
    private func watch() async {
        guard let waitForChanges = connection.waitForChanges else { return }
        var failures = 0
        let pause = Duration.milliseconds(Int64(tuning.interval * 1000))
        while !Task.isCancelled {
            do {
                let cursor = try store.syncCursor(for: key)
                let asked = ContinuousClock.now
                if try await waitForChanges(cursor, tuning.waitSeconds), !Task.isCancelled {
                    _ = try? await round(pushing: held.map { now() >= $0.until } ?? true)
                    try? await Task.sleep(for: pause)
                } else if ContinuousClock.now - asked < .seconds(tuning.waitSeconds) / 2 {
                    try? await Task.sleep(for: pause)
                }
                failures = 0
            } catch SchoolConnectionError.signedOut {
                return
            } catch {
                failures += 1
                let delay = tuning.backoff.delay(afterFailures: failures, random: random())
                try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            }
        }
    }

    private func run() async {
        while !Task.isCancelled {
            guard let wait = await step() else {
                loop = nil
                return
            }
            try? await Task.sleep(for: .milliseconds(Int64(wait * 1000)))
        }
    }

    /// What the loop does each time it wakes: a round when something waits
    /// to be pushed (and no quota holds it) or a pull is due. Answers how
    /// long to sleep before the next time, or nil when signed out, which
    /// ends the loop. Tests call it to walk the loop without its clock.
    func step() async -> Double? {
        do {
            let due = lastPull.map { now().timeIntervalSince($0) >= tuning.pullInterval } ?? true
            let pushing = held.map { now() >= $0.until } ?? true
            if try (pushing && store.outboxCount() > 0) || due {
                _ = try await round(pushing: pushing)
            }
            return tuning.interval
        } catch SchoolConnectionError.signedOut {
            return nil
        } catch {
            return tuning.backoff.delay(afterFailures: failures, random: random())
        }
    }

    /// One round now: push everything waiting, then pull everything new.
    /// Reports the status whatever happens. Asked for by hand, it pushes
    /// even while a quota holds the loop back (the teacher may have made
    /// room).
    @discardableResult
    public func syncOnce() async throws -> Round {
        try await round(pushing: true)
    }

    private func round(pushing: Bool) async throws -> Round {
        guard !inRound else { return Round() }
        inRound = true
        defer { inRound = false }
        do {
            let round = try await pushThenPull(pushing: pushing)
            failures = 0
            unreachableSince = nil
            lastPull = now()
            let waiting = (try? store.outboxCount()) ?? 0
            if let held, waiting > 0 {
                onStatus(held.status(waiting))
            } else {
                onStatus(waiting == 0 ? .synced(at: now()) : .waiting(count: waiting))
            }
            if round.pulled > 0 || !round.keptAsCopies.isEmpty || round.undone > 0 { onPulled(round.pulled) }
            return round
        } catch SchoolConnectionError.signedOut {
            onStatus(.signedOut)
            throw SchoolConnectionError.signedOut
        } catch {
            failures += 1
            let since = unreachableSince ?? now()
            unreachableSince = since
            onStatus(.unreachable(since: since, waiting: (try? store.outboxCount()) ?? 0))
            throw error
        }
    }

    private func pushThenPull(pushing: Bool) async throws -> Round {
        var round = Round()
        // What this round's pushes stored is here already: the pull after
        // them need not bring it back (on a big push, that was most of
        // the round).
        var pushed: [UUID] = []
        while pushing {
            let batch = try nextBatch()
            if batch.isEmpty { break }
            onStatus(.waiting(count: try store.outboxCount()))
            let outcome: PushOutcome
            do {
                outcome = try await connection.push(batch)
                held = nil
            } catch {
                // Nothing of the batch was stored and all of it stays: the
                // server takes it when the quota frees or its disk has room
                // again. Others' changes still come in meanwhile.
                let status: @Sendable (Int) -> SyncStatus, seconds: Int
                switch error {
                case .overQuota(let quota, let wait): (status, seconds) = ({ .held(quota, waiting: $0) }, wait)
                case .serverFull(let wait): (status, seconds) = ({ .serverFull(waiting: $0) }, wait)
                default: throw error
                }
                held = (status, now().addingTimeInterval(Double(min(max(seconds, 60), 86_400))))
                break
            }
            if let id = outcome.pushId, pushed.count < Self.skippedPushes { pushed.append(id) }
            let done = outcome.accepted + outcome.refused.map(\.opId)
            // Ops of a sketch deleted on the server: what this device drew
            // in it is kept as a copy, not dropped with the refusal (before
            // the refusals leave the outbox, so a crash in between loses
            // nothing).
            var deleted = Set<String>()
            for refusal in outcome.refused {
                guard let entry = batch.first(where: { $0.opId == refusal.opId }) else { continue }
                if refusal.reason == SyncRefusal.sketchDeleted, entry.entity == .sketchOp { deleted.insert(entry.entityId) }
                // A restore or a deletion the server refused is undone
                // here, so this laptop shows what every other one does.
                if entry.entity == .sketch, let id = UUID(uuidString: entry.entityId) {
                    switch (try? JSONDecoder().decode(SketchChange.self, from: entry.payload))?.change {
                    case .restore?: try store.restoreRefused(id)
                    case .delete?:
                        try store.deleteRefused(id)
                        round.undone += 1
                    default: break
                    }
                }
            }
            for sketch in deleted.sorted() {
                if let id = UUID(uuidString: sketch), let kept = try store.keepAsCopy(id, copyName: copyName) {
                    round.keptAsCopies.append(kept)
                    // Told at once: the round may yet fail, the copy is made.
                    onKeptCopies([kept])
                }
            }
            try store.acknowledge(done)
            round.pushed += outcome.accepted.count
            round.refused += outcome.refused.count
            // An answer that names none of what was sent would send the
            // same batch forever.
            guard !done.isEmpty else { throw SchoolConnectionError.refused(status: 200, message: "no change was acknowledged") }
        }
        var cursor = try store.syncCursor(for: key)
        var page = try await connection.pull(cursor, tuning.pullPage, pushed)
        while true {
            // A service stopped meanwhile writes no further page.
            try Task.checkCancellation()
            // A cursor that goes back would pull the same pages forever.
            guard page.cursor >= cursor else {
                throw SchoolConnectionError.refused(status: 200, message: "the server's cursor went back")
            }
            // A page that moves nothing would be asked for forever.
            let moved = page.cursor > cursor
            // The next page travels while this one is written here: on a
            // first pull of 10,000 ops, writing took as long as fetching.
            let next = page.more && moved ? fetch(after: page.cursor, skipping: pushed) : nil
            let applied: RemoteApplyReport
            do {
                applied = try store.applyRemote(page.changes, cursor: page.cursor, for: key, copyName: copyName)
            } catch {
                // Nothing of the round goes on after it ended.
                next?.cancel()
                _ = await next?.value
                throw error
            }
            round.pulled += applied.applied
            round.skipped += applied.skipped
            round.keptAsCopies += applied.keptAsCopies
            if !applied.keptAsCopies.isEmpty { onKeptCopies(applied.keptAsCopies) }
            cursor = page.cursor
            guard let next else { break }
            // Stopping the service stops the pull under way too.
            page = try await withTaskCancellationHandler { await next.value } onCancel: { next.cancel() }.get()
        }
        return round
    }

    /// A pull started now and awaited later, its error kept as it came.
    private func fetch(after cursor: Int64, skipping pushed: [UUID]) -> Task<Result<PulledPage, SchoolConnectionError>, Never> {
        let pull = connection.pull, limit = tuning.pullPage
        return Task.detached {
            do throws(SchoolConnectionError) {
                return .success(try await pull(cursor, limit, pushed))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The most pushes a pull names to be left out, as the server allows.
    public static let skippedPushes = 64

    /// The oldest waiting entries, at most `pushBatch` of them and
    /// `pushBytes` of payload, but always at least one.
    private func nextBatch() throws -> [OutboxEntry] {
        var bytes = 0
        var batch: [OutboxEntry] = []
        for entry in try store.pendingOutbox(limit: tuning.pushBatch) {
            if !batch.isEmpty, bytes + entry.payload.count > tuning.pushBytes { break }
            bytes += entry.payload.count
            batch.append(entry)
        }
        return batch
    }
}
