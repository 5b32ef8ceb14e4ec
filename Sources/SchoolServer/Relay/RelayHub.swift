import Foundation
import HummingbirdWebSocket

/// The sessions the server relays, for devices of a class that cannot
/// reach each other (another room's Wi-Fi, a network that isolates its
/// clients). The hub only pairs sockets: a relayed session's bytes are the
/// session protocol's, end to end, so the host stays the one authority
/// (who is in, what is drawn); the server never reads a stroke.
///
/// A host keeps one control socket open; each member who joins opens a
/// socket of its own, the hub tells the host ("open <id>"), and the host
/// answers with a data socket for that member. From then on the two
/// sockets are a pipe, each direction with its own back-pressure, so a
/// slow member only ever slows its own pipe.
///
/// Sessions live in the process their host is connected to (see
/// docs/ARCHITECTURE.md, "The relay", for several processes).
actor RelayHub {
    struct Session: Sendable {
        var id: UUID
        var name: String
        var classID: UUID
        var host: Account
        var control: WebSocketOutboundWriter
        var startedAt: Date
    }

    /// What a device may know of a relayed session before joining.
    struct Listing: Sendable, Equatable {
        var id: UUID
        var name: String
        var hostName: String
        var hostID: UUID
        var classID: UUID
    }

    enum Refusal: Error, Equatable {
        case noSuchSession, sessionTaken, tooManyWaiting, hostDidNotAnswer, notTheHost
    }

    private var sessions: [UUID: Session] = [:]
    /// Members waiting for their host's data socket, by connection.
    private var waiting: [UUID: (session: UUID, member: WebSocketOutboundWriter,
                                 answer: CheckedContinuation<WebSocketOutboundWriter?, Never>)] = [:]

    /// At most this many members wait for a host's answer at once, per
    /// session: a flood of joins cannot pile up sockets on the server.
    static let maxWaitingPerSession = 16
    /// How long a member waits for the host to open its data socket.
    static let hostAnswerTime: Duration = .seconds(10)

    func register(_ session: Session) throws(Refusal) {
        if let existing = sessions[session.id], existing.host.id != session.host.id { throw .sessionTaken }
        sessions[session.id] = session
    }

    /// The host's control socket closed: the session is no longer listed,
    /// and members still waiting are told no.
    func unregister(_ id: UUID, control: WebSocketOutboundWriter, host: UUID) {
        guard let session = sessions[id], session.host.id == host else { return }
        sessions[id] = nil
        for (connection, entry) in waiting where entry.session == id {
            waiting[connection] = nil
            entry.answer.resume(returning: nil)
        }
    }

    func listings(visibleTo classes: Set<UUID>) -> [Listing] {
        sessions.values.filter { classes.contains($0.classID) }.sorted { $0.startedAt < $1.startedAt }.map {
            Listing(id: $0.id, name: $0.name, hostName: $0.host.name, hostID: $0.host.id, classID: $0.classID)
        }
    }

    func session(_ id: UUID) -> Session? { sessions[id] }

    /// A member asks to join: the host is told, and the member waits for
    /// the host's data socket (nil when the host does not answer in time
    /// or leaves).
    func join(_ sessionID: UUID, member: WebSocketOutboundWriter) async throws(Refusal) -> (UUID, WebSocketOutboundWriter?) {
        guard let session = sessions[sessionID] else { throw .noSuchSession }
        guard waiting.values.count(where: { $0.session == sessionID }) < Self.maxWaitingPerSession else {
            throw .tooManyWaiting
        }
        let connection = UUID()
        let control = session.control
        let host = await withCheckedContinuation { (answer: CheckedContinuation<WebSocketOutboundWriter?, Never>) in
            waiting[connection] = (sessionID, member, answer)
            Task {
                do {
                    try await control.write(.text("open \(connection.uuidString.lowercased())"))
                } catch {
                    self.give(connection, nil)
                }
                try? await Task.sleep(for: Self.hostAnswerTime)
                self.give(connection, nil)
            }
        }
        return (connection, host)
    }

    /// The host's data socket for a waiting member; the member's writer in
    /// return.
    func answer(_ connection: UUID, session sessionID: UUID, host: UUID,
                writer: WebSocketOutboundWriter) throws(Refusal) -> WebSocketOutboundWriter {
        guard let session = sessions[sessionID], session.host.id == host else { throw .notTheHost }
        guard let entry = waiting[connection], entry.session == sessionID else { throw .hostDidNotAnswer }
        waiting[connection] = nil
        entry.answer.resume(returning: writer)
        return entry.member
    }

    private func give(_ connection: UUID, _ writer: WebSocketOutboundWriter?) {
        guard let entry = waiting.removeValue(forKey: connection) else { return }
        entry.answer.resume(returning: writer)
    }
}
