import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// Three devices — Mia's and Ole's laptops and their teacher's — make
/// sketches, draw, erase, rename, share sketches as a LAN team would and
/// grade, in an order the dice decide, each syncing with the real server
/// whenever the dice say so; some push answers are lost on the way back,
/// so the device pushes the same changes again. After a last round on
/// every device, every device holds the same sketches and grades as every
/// other that may see them, nothing pushed waits or was refused, and the
/// server lists what the devices hold.
@Suite struct SyncConvergenceTests {
    /// A device and what it knows it made.
    final class Device: @unchecked Sendable {
        let name: String
        let account: UUID
        let store: LocalStore
        let service: SyncService
        let link: LossyLink

        init(name: String, account: UUID, token: String, client: SchoolServerClient, tuning: SyncService.Tuning) throws {
            self.name = name
            self.account = account
            store = try LocalStore.inMemory()
            link = LossyLink(client.connection(token: token))
            service = SyncService(store: store, connection: link.connection, key: name, tuning: tuning)
        }

        func sketchIDs() throws -> Set<UUID> { Set(try store.sketches().map(\.id)) }
    }

    /// A connection whose next push answer can be lost after the server
    /// stored it, as a dropped Wi-Fi would.
    final class LossyLink: @unchecked Sendable {
        private let lock = NSLock()
        private var losesNext = false
        let real: SchoolConnection

        init(_ real: SchoolConnection) { self.real = real }

        func loseNextAnswer() { lock.withLock { losesNext = true } }
        /// A round that pushed nothing does not carry the loss over.
        func keepAnswers() { lock.withLock { losesNext = false } }

        var connection: SchoolConnection {
            SchoolConnection(push: { entries throws(SchoolConnectionError) in
                let outcome = try await self.real.push(entries)
                let lose = self.lock.withLock { () -> Bool in
                    defer { self.losesNext = false }
                    return self.losesNext
                }
                if lose { throw SchoolConnectionError.unreachable("the answer was lost") }
                return outcome
            }, pull: { after, limit, skipping throws(SchoolConnectionError) in try await self.real.pull(after, limit, skipping) })
        }
    }

    @Test(arguments: Backend.allCases, Array(1...8) as [UInt64])
    func threeDevicesInAnyOrderEndWithTheSameRecord(_ backend: Backend, seed: UInt64) async throws {
        try await TestServer(backend).run { api in
            let (bergID, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let client = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(try #require(api.client.port))")!)
            defer { Task { await client.shutdown() } }
            // Small batches and pages, so one sync is several requests and
            // the others' changes land between them.
            var tuning = SyncService.Tuning()
            tuning.pushBatch = 3
            tuning.pullPage = 4
            func device(_ name: String, _ id: String, _ token: String) throws -> Device {
                try Device(name: name, account: try #require(UUID(uuidString: id)), token: token, client: client, tuning: tuning)
            }
            let mia = try device("Mia", twoB.pupils["Mia"]!.id, twoB.pupils["Mia"]!.token)
            let ole = try device("Ole", twoB.pupils["Ole"]!.id, twoB.pupils["Ole"]!.token)
            let teacher = try device("Berg", bergID, berg)
            let pupils = [mia, ole]
            // Who may see each sketch: its creator and whoever it was shared with.
            var authors: [UUID: Set<String>] = [:]
            // Who started each sketch, and those drawn in a LAN session.
            var creators: [UUID: String] = [:]
            var teams: Set<UUID> = []
            var nonces: [UUID: UUID] = [:]
            var refused = 0
            var rng = SplitMix64(seed: seed)
            var clock = 1_790_000_000.0

            for _ in 0..<90 {
                clock += 1
                let pupil = pupils[rng.nextInt(below: 2)]
                let own = Array(try pupil.sketchIDs()).sorted { $0.uuidString < $1.uuidString }
                switch rng.nextInt(below: 20) {
                case 0..<3:
                    // Every other sketch is hosted in a LAN session, its id
                    // made for its host.
                    let team = rng.nextInt(below: 2) == 0
                    let hosted = SessionSketch.hosted(creator: pupil.account)
                    var meta = SketchMeta(name: "\(pupil.name) \(authors.count + 1)", createdAt: Date(timeIntervalSince1970: clock))
                    if team {
                        meta.id = hosted.id
                        nonces[meta.id] = hosted.nonce
                    }
                    try pupil.store.createSketch(meta, origin: team ? .team(creator: pupil.account, nonce: hosted.nonce)
                                                                    : .alone(creator: nil))
                    authors[meta.id] = [pupil.name]
                    creators[meta.id] = pupil.name
                    if team { teams.insert(meta.id) }
                case 3..<9 where !own.isEmpty:
                    let sketch = own[rng.nextInt(below: own.count)]
                    try pupil.store.append(.addStroke(Self.stroke(by: pupil.name, x: Double(rng.nextInt(below: 800)), at: clock)),
                                           to: sketch)
                case 9 where !own.isEmpty:
                    let sketch = own[rng.nextInt(below: own.count)]
                    if let stroke = try pupil.store.loadSketch(sketch).strokes.last {
                        try pupil.store.append(.eraseStroke(id: stroke.id, by: pupil.name, at: Date(timeIntervalSince1970: clock)),
                                               to: sketch)
                    }
                case 10 where !own.isEmpty:
                    // Only who started a sketch renames it.
                    let sketch = own[rng.nextInt(below: own.count)]
                    if creators[sketch] == pupil.name {
                        try pupil.store.rename(sketch, to: "\(pupil.name) \(Int(clock))")
                    }
                case 11 where !own.isEmpty:
                    // A LAN team: the host's laptop names the other pupil as
                    // a member, whose laptop saves the sketch as the session
                    // gave it (naming itself too); both push it from then on.
                    let other = pupil === mia ? ole : mia
                    let sketch = own[rng.nextInt(below: own.count)]
                    if teams.contains(sketch), creators[sketch] == pupil.name, try !other.store.hasSketch(sketch) {
                        let doc = try pupil.store.loadSketch(sketch)
                        try pupil.store.addMembers([other.account], to: sketch)
                        try other.store.createSketch(doc.meta, origin: .team(creator: pupil.account, nonce: nonces[sketch]),
                                                     members: [other.account])
                        try other.store.append(contentsOf: doc.ops, to: sketch)
                        authors[sketch, default: []].insert(other.name)
                    }
                case 12..<14:
                    // The teacher grades a sketch their laptop has, for one of its authors.
                    let graded = Array(try teacher.sketchIDs()).sorted { $0.uuidString < $1.uuidString }
                    guard !graded.isEmpty else { break }
                    let sketch = graded[rng.nextInt(below: graded.count)]
                    let who = Array(authors[sketch] ?? []).sorted()
                    guard let name = who.first, let author = pupils.first(where: { $0.name == name }) else { break }
                    let record = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(author.account), pupilName: name,
                                             grade: 1 + rng.nextInt(below: 5), comment: "", at: Int64(clock * 1000))
                    try teacher.store.setGrade(id: GradeIdentity.pupil(.sketch, sketch, pupil: author.account), record)
                default:
                    // A device syncs; now and then its push answer is lost.
                    let device = [mia, ole, teacher][rng.nextInt(below: 3)]
                    if rng.nextInt(below: 4) == 0 { device.link.loseNextAnswer() }
                    if let round = try? await device.service.syncOnce() { refused += round.refused }
                    device.link.keepAnswers()
                }
            }
            // The last rounds: every device until a whole turn moves nothing.
            for turn in 0..<6 {
                var moved = 0
                for device in [mia, ole, teacher] {
                    let round = try await device.service.syncOnce()
                    refused += round.refused
                    moved += round.pushed + round.pulled
                }
                if moved == 0 { break }
                #expect(turn < 5, "still moving after five turns")
            }

            #expect(refused == 0)
            for device in [mia, ole, teacher] { #expect(try device.store.outboxCount() == 0, "\(device.name)") }
            #expect(try teacher.sketchIDs() == Set(authors.keys))
            for pupil in pupils {
                #expect(try pupil.sketchIDs() == Set(authors.filter { $0.value.contains(pupil.name) }.keys), "\(pupil.name)")
            }
            for (sketch, names) in authors {
                let theirs = try teacher.store.loadSketch(sketch)
                for pupil in pupils where names.contains(pupil.name) {
                    let mine = try pupil.store.loadSketch(sketch)
                    #expect(mine.meta.name == theirs.meta.name, "\(pupil.name): \(sketch)")
                    #expect(Self.visible(mine) == Self.visible(theirs), "\(pupil.name): \(sketch)")
                }
            }
            // The server lists what the teacher's laptop holds.
            let listed = try await api.call(.get, "/sketches", token: berg).array
            let names = Dictionary(uniqueKeysWithValues: try teacher.store.sketches().map { ($0.id.key, $0.name) })
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as! String, $0["name"] as! String) }) == names)
            // Each grade reached the pupil it is about, as the teacher left it.
            let grades = try teacher.store.allGrades()
            for pupil in pupils {
                let about = grades.filter { $0.value.pupilId == AccountID(pupil.account) }
                #expect(try pupil.store.allGrades().filter { $0.value.pupilId == AccountID(pupil.account) } == about, "\(pupil.name)")
            }
        }
    }

    /// What a sketch shows: its strokes by id, whatever order the ops came in.
    static func visible(_ doc: SketchDocument) -> [UUID: Stroke] {
        Dictionary(doc.strokes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    static func stroke(by author: String, x: Double, at seconds: Double) -> Stroke {
        let start = Date(timeIntervalSince1970: seconds)
        return Stroke(author: author, color: RGBA(r: 0.1, g: 0.4, b: 0.9, a: 1), width: 10, start: Point(x, 100),
                      segments: [CubicSegment(c1: Point(x + 10, 200), c2: Point(x + 20, 300), end: Point(x + 30, 400))],
                      startedAt: start, endedAt: start.addingTimeInterval(1))
    }
}
