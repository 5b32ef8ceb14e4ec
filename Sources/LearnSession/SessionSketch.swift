import Foundation
import LearnRecords

/// Which sketch a Team Sketch session draws, as the host tells each member
/// it accepted (and nobody else). The id is never the session's id: that
/// one is in every beacon and lobby frame, heard by anyone on the network,
/// and the school server takes the sketch's id as part of what shows a
/// device belongs to it. `creator` is the school account of the host's
/// pupil or teacher, when the host's laptop is linked to a school, so
/// every member's copy names the same person as the one who started it;
/// the id is then made from the creator and `nonce` (`TeamSketchID`), so
/// no copy can name anyone else.
public struct SessionSketch: Hashable, Sendable {
    public var id: UUID
    public var creator: UUID?
    public var nonce: UUID?

    public init(id: UUID = UUID(), creator: UUID? = nil, nonce: UUID? = nil) {
        self.id = id; self.creator = creator; self.nonce = nonce
    }

    /// A new session's sketch on the host's laptop: with a school account
    /// to start it under, its id is bound to that account.
    public static func hosted(creator: UUID?) -> SessionSketch {
        guard let creator else { return SessionSketch() }
        let nonce = UUID()
        return SessionSketch(id: TeamSketchID.make(creator: creator, nonce: nonce), creator: creator, nonce: nonce)
    }
}
