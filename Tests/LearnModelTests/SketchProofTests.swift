import Foundation
@testable import LearnModel
import Testing

/// A team sketch's id is made from a secret its host's laptop keeps: the
/// secret proves the id and nothing else, and it never leaves the host in
/// the session.
@Suite struct SketchProofTests {
    @Test func anIdMadeFromASecretIsProvenByItAlone() throws {
        let secret = SketchProof.makeSecret()
        let id = try #require(SketchProof.sketchID(for: secret))
        #expect(SketchProof.sketchID(for: secret) == id)
        #expect(SketchProof.needsProof(id))
        #expect(SketchProof.proves(secret, id))
        #expect(!SketchProof.proves(SketchProof.makeSecret(), id))
        #expect(!SketchProof.proves(nil, id))
        // Only 64 lowercase hex digits are a secret.
        for bad in [secret.uppercased(), String(secret.dropLast()), secret + "0", String(secret.dropLast()) + "g", ""] {
            #expect(SketchProof.sketchID(for: bad) == nil, "\(bad)")
        }
        // Ids made the other ways need no proof: random ones, as a
        // sketch drawn alone gets.
        #expect(!SketchProof.needsProof(UUID()))
        #expect(!SketchProof.needsProof(SketchMeta(name: "Zoo").id))
    }

    @Test func aHostWithASchoolAccountKeepsTheSecretAndTellsMembersOnlyTheId() throws {
        let mia = UUID()
        let hosted = SessionSketch.hosted(creator: mia)
        #expect(SketchProof.proves(hosted.proof, hosted.id))
        // Without an account there is no one to prove: the id is random.
        let alone = SessionSketch.hosted(creator: nil)
        #expect(alone.proof == nil && !SketchProof.needsProof(alone.id))
        let told = SessionSimulation.throughCodec(.accepted(Accepted(token: .random(), yourIndex: 1, sketch: hosted)))
        guard case .accepted(let accepted) = told else { Issue.record("not an acceptance: \(told)"); return }
        #expect(accepted.sketch.id == hosted.id && accepted.sketch.creator == mia)
        #expect(accepted.sketch.proof == nil)
    }
}
