import Foundation

/// Which sketch a Team Sketch session draws, as the host tells each member
/// it accepted (and nobody else). The id is never the session's id: that
/// one is in every beacon and lobby frame, heard by anyone on the network,
/// and the school server takes the sketch's id as part of what shows a
/// device belongs to it. `creator` is the school account of the host's
/// pupil or teacher, when the host's laptop is linked to a school, so
/// every member's copy names the same person as the one who started it.
public struct SessionSketch: Hashable, Sendable {
    public var id: UUID
    public var creator: UUID?
    /// The secret the id is made from (`SketchProof`), on the host's
    /// laptop only: never sent to a member.
    public var proof: String?

    public init(id: UUID = UUID(), creator: UUID? = nil, proof: String? = nil) {
        self.id = id; self.creator = creator; self.proof = proof
    }

    /// A new session's sketch on the host's laptop. With a school account
    /// to start it under, its id comes from a secret this laptop keeps, so
    /// no member can push its creation as their own.
    public static func hosted(creator: UUID?) -> SessionSketch {
        guard let creator else { return SessionSketch() }
        let secret = SketchProof.makeSecret()
        return SessionSketch(id: SketchProof.sketchID(for: secret)!, creator: creator, proof: secret)
    }
}
