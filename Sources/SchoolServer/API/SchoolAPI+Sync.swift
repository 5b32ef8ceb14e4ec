import Foundation
import LearnModel
import OpenAPIRuntime
import SchoolServerAPI

/// Push, pull and the sketches the server keeps. The generated code checks
/// types and unknown fields; the bounds the spec states are checked here,
/// before anything is read further.
extension SchoolAPI {
    var sync: SyncStore { SyncStore(db: dependencies.database) }

    static let maxChangesPerPush = 500
    static let maxPayloadBytes = 1 << 20
    /// Pushes a pull may leave out: a round of 64 pushes of 500 changes.
    static let maxSkippedPushes = 64
    /// The longest a pull waits for a change (`wait=`): under the
    /// desktops' request timeout and the server's idle timeout.
    static let maxPullWait = 25

    func pushChanges(_ input: Operations.PushChanges.Input) async throws -> Operations.PushChanges.Output {
        let account = try await signedIn()
        try requireRoom()
        guard pushes.begin(account.id) else {
            throw Problem(.tooManyAttempts, "this account's previous push is still being stored", retryAfter: 1)
        }
        defer { pushes.end(account.id) }
        let body = switch input.body { case .json(let body): body }
        guard (1...Self.maxChangesPerPush).contains(body.changes.count) else {
            throw Problem(.badRequest, "a push carries 1 to \(Self.maxChangesPerPush) changes")
        }
        // What a device could send in good faith is refused change by
        // change, so one bad row never blocks its outbox; only what breaks
        // the spec refuses the whole push.
        let parsed = try body.changes.map { c -> (UUID, Result<SyncChange, PushRejection>) in
            guard let opId = UUID(text: c.opId) else { throw Problem(.badRequest, "an opId is a UUID") }
            return (opId, try Self.change(c, opId: opId))
        }
        let readable = parsed.compactMap { try? $0.1.get() }
        var facts = try await database { try await sync.facts(for: readable, pusher: account) }
        facts.now = now
        try await checkQuota(of: account, startsSketch: readable.contains { $0.entity == .sketch && facts.sketches[$0.entityKey] == nil })
        let pusher = facts.people[account.id]
            ?? PushFacts.Person(id: account.id, isPupil: account.role == .pupil, classID: account.classID)
        var decided: [(opId: UUID, SyncChange?, ChangeDecision)] = []
        decided.reserveCapacity(parsed.count)
        for (opId, result) in parsed {
            switch result {
            case .failure(let rejection):
                decided.append((opId, nil, .reject(rejection)))
            case .success(let change):
                // The same op twice in one push is stored once: the rules
                // count what they accepted as stored.
                decided.append((opId, change, ChangeRules.decide(change, by: pusher, facts: &facts)))
            }
        }
        let now = now
        let storable = decided.compactMap { entry in entry.1.map { ($0, entry.2) } }
        let push = UUID()
        try await database { try await sync.store(storable, pusher: account, push: push, now: now) }
        if !storable.isEmpty { bell.ring() }
        var accepted: [String] = []
        var rejected: [Components.Schemas.Rejection] = []
        for (opId, _, decision) in decided {
            if case .reject(let why) = decision {
                rejected.append(.init(opId: opId.key, code: .init(rawValue: why.code.rawValue) ?? .badRequest,
                                      message: why.message))
            } else {
                accepted.append(opId.key)
            }
        }
        metrics.pushes.increment()
        metrics.opsStored.increment(by: accepted.count)
        metrics.opsRefused.increment(by: rejected.count)
        if !rejected.isEmpty {
            // The first reason says what a device (or a script) keeps
            // getting wrong; the rest are usually the same.
            logger.notice("push: changes refused", metadata: ["account": "\(account.id.key)", "refused": "\(rejected.count)",
                                                              "first": "\(rejected[0].message)"])
        }
        return .ok(.init(body: .json(.init(pushId: push.key, accepted: accepted, rejected: rejected))))
    }

    /// Refuses the whole push once the account has reached a quota, so its
    /// device keeps every change (a change refused alone would be dropped)
    /// and tries again when Retry-After says.
    private func checkQuota(of account: Account, startsSketch: Bool) async throws {
        let now = now
        let usage = try await database {
            try await sync.usage(of: account.id, day: AccountQuota.day(of: now), countingSketches: startsSketch)
        }
        guard let limit = configuration.quota.reached(usage, startsSketch: startsSketch) else { return }
        logger.notice("push: over quota", metadata: ["account": "\(account.id.key)", "limit": "\(limit.rawValue)"])
        throw Problem(.overQuota, Self.message(limit, configuration.quota.value(of: limit)),
                      retryAfter: AccountQuota.retryAfter(limit, now: now), limit: limit)
    }

    static func message(_ limit: AccountQuota.Limit, _ value: Int64) -> String {
        switch limit {
        case .bytesToday: "this account has sent more than \(value >> 20) MiB today; the rest waits until tomorrow"
        case .changesToday: "this account has sent more than \(value) changes today; the rest waits until tomorrow"
        case .bytesInAll: "this account has stored \(value >> 20) MiB, the most one account may; the server's administrator can raise it"
        case .changesInAll: "this account has stored \(value) changes, the most one account may; the server's administrator can raise it"
        case .sketches: "this account has \(value) sketches, the most one account may; delete some to start another"
        }
    }

    func pullChanges(_ input: Operations.PullChanges.Input) async throws -> Operations.PullChanges.Output {
        let account = try await signedIn()
        let after = input.query.after ?? 0
        let limit = input.query.limit ?? 500
        guard after >= 0, after <= Self.maxCursor else { throw Problem(.badRequest, "after is a cursor from an earlier pull") }
        guard (1...SyncStore.maxListed).contains(limit) else { throw Problem(.badRequest, "limit is 1 to \(SyncStore.maxListed)") }
        let skip = input.query.skip ?? []
        guard skip.count <= Self.maxSkippedPushes else { throw Problem(.badRequest, "skip names \(Self.maxSkippedPushes) pushes at most") }
        let pushes = try Set(skip.map(Self.id))
        let wait = input.query.wait ?? 0
        guard (0...Self.maxPullWait).contains(wait) else { throw Problem(.badRequest, "wait is 0 to \(Self.maxPullWait) seconds") }
        // Nothing new yet: ask again each time a push rings the bell (or
        // every few seconds, for pushes to another process) until the time
        // is up. No database connection is held while waiting.
        let deadline = Date().addingTimeInterval(Double(wait))
        // The bell's count before each question: a ring while the database
        // answers is not missed.
        var rung = bell.generation
        var page = try await database {
            try await sync.changes(visibleTo: account, after: after, limit: limit, skipping: pushes)
        }
        if wait > 0, page.changes.isEmpty, !page.more, bell.enter(account.id) {
            defer { bell.leave(account.id) }
            var asked = Date()
            while page.changes.isEmpty, !page.more, !bell.isClosed, !Task.isCancelled {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { break }
                await bell.wait(seconds: min(left, ChangeBell.recheck), after: rung)
                let gap = ChangeBell.minimumGap + asked.timeIntervalSinceNow
                if gap > 0, gap < deadline.timeIntervalSinceNow {
                    try? await Task.sleep(for: .milliseconds(Int64(gap * 1000)))
                }
                rung = bell.generation
                asked = Date()
                page = try await database {
                    try await sync.changes(visibleTo: account, after: after, limit: limit, skipping: pushes)
                }
            }
        }
        let changes = page.changes.map { stored in
            Components.Schemas.ServerChange(
                seq: stored.seq, opId: stored.change.opId.key,
                entity: stored.change.entity.rawValue, entityId: stored.change.entityId,
                payload: stored.change.payload, createdAt: stored.change.createdAt, authorId: stored.authorID.key)
        }
        metrics.pulls.increment()
        return .ok(.init(body: .json(.init(changes: changes, cursor: page.cursor, more: page.more))))
    }

    func listSketches(_ input: Operations.ListSketches.Input) async throws -> Operations.ListSketches.Output {
        let page = try await sketchPage(before: input.query.before, limit: input.query.limit, pupil: input.query.pupilId)
        // Digits, a dot and a UUID: nothing the generated code would
        // percent-encode in a header.
        return .ok(.init(headers: .init(nextBefore: page.next?.text), body: .json(page.sketches.map {
            .init(id: $0.id.key, name: $0.name, createdAt: $0.createdAt, modifiedAt: $0.modifiedAt,
                  opCount: Int($0.opCount), authors: $0.authors.map(\.key))
        })))
    }

    /// A page of the signed-in account's sketches (the web gallery's pages
    /// ask here too); a cursor or limit out of range is the caller's
    /// mistake.
    func sketchPage(before: String?, limit: Int?, pupil: String?) async throws -> SyncStore.SketchPage<SyncStore.SketchRecord> {
        let account = try await signedIn()
        let limit = limit ?? SyncStore.maxListed
        guard (1...SyncStore.maxListed).contains(limit) else { throw Problem(.badRequest, "limit is 1 to \(SyncStore.maxListed)") }
        let cursor = try Self.cursor(before)
        let author = try pupil.map(Self.id)
        return try await database {
            try await sync.sketches(visibleTo: account, drawnBy: author, before: cursor, limit: limit)
        }
    }

    /// One sketch the signed-in account may see, or 404.
    func sketchSummary(_ id: UUID) async throws -> SyncStore.SketchRecord {
        let account = try await signedIn()
        guard let sketch = try await database({ try await sync.sketch(id, visibleTo: account) }) else {
            throw Problem(.notFound, "no such sketch")
        }
        return sketch
    }

    /// How many sketches the signed-in account may see.
    func sketchCount() async throws -> Int {
        let account = try await signedIn()
        return try await database { try await sync.sketchCount(visibleTo: account) }
    }

    func getSketchThumbnail(_ input: Operations.GetSketchThumbnail.Input) async throws -> Operations.GetSketchThumbnail.Output {
        let png = try await image(of: try Self.id(input.path.sketchId), width: SketchImages.thumbnailWidth)
        return .ok(.init(body: .png(HTTPBody(png))))
    }

    func getSketchImage(_ input: Operations.GetSketchImage.Input) async throws -> Operations.GetSketchImage.Output {
        let png = try await image(of: try Self.id(input.path.sketchId), width: nil)
        return .ok(.init(body: .png(HTTPBody(png))))
    }

    /// A sketch the account may see, rendered; thumbnails are kept in the
    /// database and full-size images in memory until the sketch gets
    /// another op. 404 for a sketch that is someone else's, so ids of
    /// others' work are not confirmed. `deleted`: a deleted one instead
    /// (for the teacher's list of what can be brought back).
    func image(of id: UUID, width: Int?, deleted: Bool = false) async throws -> [UInt8] {
        let account = try await signedIn()
        guard let sketch = try await database({ try await sync.sketch(id, visibleTo: account, deleted: deleted) }) else {
            throw Problem(.notFound, "no such sketch")
        }
        if width != nil, let kept = try await database({ try await sync.thumbnail(of: id, opCount: sketch.opCount) }) {
            return kept
        }
        let png: [UInt8]
        do {
            png = try await renderer.png(sketch, for: account.id, width: SketchImages.pixelWidth(sketch, box: width),
                                         cacheKey: width == nil ? "\(id.key):\(sketch.opCount)" : nil) {
                try await database { try await sync.opPayloads(of: id) }
            }
        } catch let refusal as RenderPlaces.Refusal {
            throw Self.problem(refusal)
        } catch let problem as Problem {
            throw problem
        } catch {
            logger.error("rendering sketch \(id.key): \(error)")
            throw Problem(.unavailable, "the sketch cannot be drawn just now")
        }
        if width != nil, disk.hasRoom() {
            // Kept for next time if it can be: a full disk costs the next
            // request a drawing, not this one its answer (and the reserve
            // stays the sign-ins').
            do {
                try await database { try await sync.storeThumbnail(png, of: id, opCount: sketch.opCount) }
            } catch let problem as Problem where problem.code == .diskFull || problem.code == .unavailable {
                logger.notice("a thumbnail was drawn but not kept", metadata: ["sketch": "\(id.key)"])
            }
        }
        return png
    }

    /// A sketch the account may see as a PDF (the web gallery's download);
    /// 404 for others' work, as for its images.
    func pdf(of id: UUID) async throws -> (name: String, pdf: [UInt8]) {
        let account = try await signedIn()
        guard let sketch = try await database({ try await sync.sketch(id, visibleTo: account) }) else {
            throw Problem(.notFound, "no such sketch")
        }
        do {
            let pdf = try await renderer.pdf(sketch, for: account.id) { try await database { try await sync.opPayloads(of: id) } }
            return (sketch.name, pdf)
        } catch let refusal as RenderPlaces.Refusal {
            throw Self.problem(refusal)
        } catch let problem as Problem {
            throw problem
        } catch {
            logger.error("rendering sketch \(id.key) as PDF: \(error)")
            throw Problem(.unavailable, "the sketch cannot be drawn just now")
        }
    }

    /// A drawing that cannot even wait for its turn: the same account asked
    /// for too many at once (429), or the whole server has too many waiting
    /// (503); both say when to ask again.
    static func problem(_ refusal: RenderPlaces.Refusal) -> Problem {
        switch refusal {
        case .accountBusy: Problem(.tooManyAttempts, "wait for the pictures already asked for", retryAfter: 2)
        case .serverBusy: Problem(.unavailable, "the server is drawing many pictures; try again soon", retryAfter: 5)
        }
    }

    /// JavaScript's largest exact integer, the spec's bound for cursors.
    static let maxCursor: Int64 = 9_007_199_254_740_991
    static let dateRange: ClosedRange<Int64> = 0...253_402_300_799_999

    /// What the spec rules out refuses the whole push (a device never
    /// sends it); a payload too big to store refuses only its change, since
    /// a device can draw a stroke that long.
    static func change(_ c: Components.Schemas.Change, opId: UUID) throws -> Result<SyncChange, PushRejection> {
        guard (1...100).contains(c.entityId.utf8.count),
              c.entityId.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { throw Problem(.badRequest, "an entityId is 1 to 100 letters, digits, '.', '_' or '-'") }
        guard dateRange.contains(c.createdAt) else { throw Problem(.badRequest, "createdAt is out of range") }
        guard let entity = SyncChange.Entity(rawValue: c.entity.rawValue) else { throw Problem(.badRequest, "unknown entity") }
        guard c.payload.utf8.count <= maxPayloadBytes else {
            return .failure(PushRejection(.badRequest, "a change's payload is at most 1 MiB"))
        }
        return .success(SyncChange(opId: opId, entity: entity, entityId: c.entityId, payload: c.payload, createdAt: c.createdAt))
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
