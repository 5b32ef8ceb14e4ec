import Foundation
import LearnSketch

/// What a session tells its UI, in order. The host and members report the
/// same kinds of events, so the canvas handles both alike: keep a
/// `SketchDocument`, apply `opApplied` ops to it in order, replace it on
/// `documentReset`, and draw `LiveStroke`s on top while they grow.
public enum SessionEvent: Hashable, Sendable {
    case lobbyChanged(Lobby)
    case avatar(member: MemberIndex, png: [UInt8])
    /// This device was accepted (members only), to draw in `sketch`.
    case accepted(index: MemberIndex, token: ResumeToken, sketch: SessionSketch)
    /// This device was declined (members only); the connection is closed.
    case declined(DeclineReason)
    case started(secondsLeft: Int?)
    /// A snapshot arrived (late join or rejoin): the whole document and the
    /// strokes still being drawn replace what was there.
    case documentReset(SketchDocument, live: [LiveStroke])
    /// Someone began a stroke. `isOwn` marks this device's own strokes coming
    /// back from the host (their ink is already on screen).
    case strokeBegan(LiveStroke, isOwn: Bool)
    /// A live stroke grew: `segments` continue it from index `firstIndex`.
    case strokeExtended(id: UUID, sender: MemberIndex, firstIndex: Int, segments: [CubicSegment], isOwn: Bool)
    /// An op entered the document (a stroke ended, an erase, a clear). Own
    /// ops are confirmed here: this is their place in the shared order.
    case opApplied(SketchOp, sender: MemberIndex, isOwn: Bool)
    case memberLeft(MemberIndex)
    /// The session is over; the document is final.
    case ended(EndReason)
    /// Members: the connection to the host broke; rejoining is under way.
    case connectionLost(reason: String)
    /// Host: a connection was closed (bad frames, too slow, replaced, …).
    case connectionDropped(member: MemberIndex?, reason: String)
    /// A local action was refused (not started, session full, setting off …).
    case refused(String)
    /// The host did not take an op (the sketch is full, too many strokes
    /// open, values outside the limits). Host: whose op it was (0 for its
    /// own). Member: always this member's own op.
    case opRefused(OpRefusalReason, member: MemberIndex)
    /// This device's own stroke was refused as a whole (its begin): its ink,
    /// drawn at once from the pen, goes again, since it is in nobody's sketch.
    case ownStrokeRefused(UUID)
}
