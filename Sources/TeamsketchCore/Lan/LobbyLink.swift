import Foundation
import LearnModel
import LearnNet

/// What the lobby does with the LAN session underneath it, whichever
/// activity runs on it. The host's actions (`accept`, `start`, …) do
/// nothing on a member's link, where `port` is nil.
public struct LobbyLink: Sendable {
    /// The port this device hosts on; nil when it joined someone else's.
    public var port: Int?
    public var accept: @Sendable (MemberIndex) -> Void
    public var decline: @Sendable (MemberIndex) -> Void
    /// Sends away everyone still waiting (a flood of strangers).
    public var declineAllWaiting: @Sendable () -> Void
    public var start: @Sendable () -> Void
    /// The lobby as the host holds it now (nil on a member's link: a
    /// member learns it from the session's events).
    public var lobby: @Sendable () async -> Lobby?
    /// Ends the session for everyone (host) or leaves it (member).
    public var finish: @Sendable () async -> Void
    /// Offers the hosted session through the school server for as long as
    /// it runs; nil on a member's link. Cancel the task to stop offering.
    /// `onChange` hears how the offer stands, and the details for the log.
    public var offerThroughSchool: (@Sendable (_ endpoint: RelayEndpoint, _ sessionName: String, _ classID: SchoolClassID?,
                                               _ onChange: @escaping @Sendable (RelayOfferStatus, _ detail: String) -> Void)
                                    -> Task<Void, Never>)?

    public init(port: Int?, accept: @escaping @Sendable (MemberIndex) -> Void = { _ in },
                decline: @escaping @Sendable (MemberIndex) -> Void = { _ in },
                declineAllWaiting: @escaping @Sendable () -> Void = {}, start: @escaping @Sendable () -> Void = {},
                lobby: @escaping @Sendable () async -> Lobby? = { nil }, finish: @escaping @Sendable () async -> Void,
                offerThroughSchool: (@Sendable (RelayEndpoint, String, SchoolClassID?,
                                                @escaping @Sendable (RelayOfferStatus, String) -> Void) -> Task<Void, Never>)? = nil) {
        self.port = port
        self.accept = accept
        self.decline = decline
        self.declineAllWaiting = declineAllWaiting
        self.start = start
        self.lobby = lobby
        self.finish = finish
        self.offerThroughSchool = offerThroughSchool
    }
}

extension LobbyLink {
    /// The lobby of a session this device hosts. Every activity's lobby is
    /// the session core's; only starting and ending are the activity's own.
    static func hosting(_ host: SessionHost, start: @escaping @Sendable () -> Void,
                        finish: @escaping @Sendable () async -> Void) -> LobbyLink {
        LobbyLink(port: host.port, accept: { host.accept($0) }, decline: { host.decline($0) },
                  declineAllWaiting: { host.declineAllWaiting() }, start: start, lobby: { await host.lobby() },
                  finish: finish,
                  offerThroughSchool: { endpoint, name, classID, onChange in
                      // The relay names a class by its UUID (the app offers only such classes).
                      host.keepRelayed(through: endpoint, sessionName: name, classID: classID?.uuid) { state in
                          onChange(RelayOfferStatus(state), "\(state)")
                      }
                  })
    }

    /// The lobby of a session this device joined: it can only leave.
    static func member(leave: @escaping @Sendable () async -> Void) -> LobbyLink {
        LobbyLink(port: Int?.none, finish: leave)
    }
}
