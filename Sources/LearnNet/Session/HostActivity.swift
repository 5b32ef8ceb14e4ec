import Foundation
import LearnModel
import NIOCore

/// An activity riding on a host session (Buchstaben Post, or any other): the
/// session core handles hello, lobby, accept, rejoin, ping and end, and hands
/// the activity its own frames. Every call comes on the session's event
/// loop; `host` is only valid there.
public protocol HostActivity: AnyObject, Sendable {
    /// Kind, lobby block and start rule (`ActivityDefinition.declaration`).
    var declaration: ActivityDeclaration { get }

    /// One of the activity's frames from a member who said hello. `member`
    /// is the connection's, never what the frame claims. Throwing closes that
    /// connection (a malformed or forbidden frame); the others go on.
    func received(_ message: ActivityMessage, from member: MemberIndex, on connection: ConnectionID,
                  host: HostActivityContext) throws(ActivityPayloadError)

    /// A member is leaving on purpose (it said bye), before the session
    /// reports it as gone.
    func memberSaidBye(_ member: MemberIndex, host: HostActivityContext)

    /// After each batch of session effects was carried out: the start, a
    /// member accepted or gone, the end.
    func performed(_ effects: [HostSession.Effect], host: HostActivityContext)
}

extension HostActivity {
    public func memberSaidBye(_ member: MemberIndex, host: HostActivityContext) {}
}

/// What an activity may do with the session, on its loop: read the session,
/// send its frames, close a connection, end the session, schedule timers.
/// Each call checks that it runs on the session's loop.
public struct HostActivityContext: Sendable {
    let core: HostCore

    public var eventLoop: any EventLoop { core.loop }

    /// The pure session as it is now (members, connections, started, ended).
    public var session: HostSession {
        core.loop.preconditionInEventLoop()
        return core.session
    }

    /// Sends a frame of the activity to these connections.
    public func send(_ message: ActivityMessage, to connections: [ConnectionID]) {
        core.perform([.send(.activity(message), to: connections)])
    }

    /// Sends a frame of the activity to every accepted member that is connected.
    public func sendToAccepted(_ message: ActivityMessage) {
        send(message, to: session.acceptedMemberConnections)
    }

    /// Closes one connection (the member may rejoin with its token).
    public func drop(_ connection: ConnectionID, reason: String) {
        core.loop.preconditionInEventLoop()
        core.drop(connection, reason: reason)
    }

    /// Ends the session for everyone (after what was sent so far).
    public func endSession(_ reason: EndReason) {
        core.handle(.end(reason))
    }
}
