import Foundation
@testable import LearnModel
import Testing

/// A team sketch's id is made for the account that hosted it: with the
/// nonce every member is told, it names that account and no other.
@Suite struct TeamSketchIDTests {
    @Test func anIdMadeForACreatorBindsThatCreatorAndNonceAlone() throws {
        let mia = UUID(), ben = UUID(), nonce = UUID()
        let id = TeamSketchID.make(creator: mia, nonce: nonce)
        #expect(TeamSketchID.make(creator: mia, nonce: nonce) == id)
        #expect(TeamSketchID.isBound(id))
        #expect(TeamSketchID.binds(id, creator: mia, nonce: nonce))
        #expect(!TeamSketchID.binds(id, creator: ben, nonce: nonce))
        #expect(!TeamSketchID.binds(id, creator: mia, nonce: UUID()))
        #expect(TeamSketchID.make(creator: mia, nonce: UUID()) != id)
        // Ids made the other ways are not bound: random ones, as a sketch
        // drawn alone gets.
        #expect(!TeamSketchID.isBound(UUID()))
        #expect(!TeamSketchID.isBound(SketchMeta(name: "Zoo").id))
    }

    @Test func membersAreToldTheCreatorAndTheNonceWithTheId() throws {
        let mia = UUID()
        let hosted = SessionSketch.hosted(creator: mia)
        let nonce = try #require(hosted.nonce)
        #expect(TeamSketchID.binds(hosted.id, creator: mia, nonce: nonce))
        // Without an account there is no one to bind: the id is random.
        let alone = SessionSketch.hosted(creator: nil)
        #expect(alone.nonce == nil && !TeamSketchID.isBound(alone.id))
        let frame = SessionMessage.accepted(Accepted(token: .random(), yourIndex: 1, sketch: hosted)).frame()
        guard case .accepted(let accepted) = try decode(frame) else { Issue.record("not an acceptance"); return }
        #expect(accepted.sketch == hosted)

        // An app of the version before sends no nonce: its acceptance still
        // reads, with none.
        var older = Array(frame.dropLast(17))
        let length = UInt32(older.count - 4).bigEndian
        withUnsafeBytes(of: length) { older.replaceSubrange(0..<4, with: $0) }
        guard case .accepted(let read) = try decode(older) else { Issue.record("not an acceptance"); return }
        #expect(read.sketch == SessionSketch(id: hosted.id, creator: mia, nonce: nil))
    }

    private func decode(_ bytes: [UInt8]) throws -> SessionMessage? {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return try decoder.next()
    }
}
