import Foundation
import HummingbirdWebSocket
import LearnModel

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
/// A session lives in the process its host's control socket is connected
/// to (its owner); the listing is in the database (`RelayListingStore`),
/// and a member or answer arriving at another process is passed on to the
/// owner (`RelayProxy`). See docs/ARCHITECTURE.md, "The relay".
actor RelayHub {
    struct Session: Sendable {
        var id: UUID
        var name: String
        var classID: UUID
        var host: Account
        var control: WebSocketOutboundWriter
        var startedAt: Date
        /// This registration's own: a control socket closing ends only the
        /// registration it made, not a newer one of the same host.
        var registration = UUID()
    }

    enum Refusal: Error, Equatable {
        case noSuchSession, sessionTaken, tooManyWaiting, hostDidNotAnswer, notTheHost
    }

    private var sessions: [UUID: Session] = [:]
    /// Open member sockets in this process, by account (joins arriving
    /// here, whether paired here or passed on to the owner).
    private var memberSockets: [UUID: Int] = [:]
    /// Where other processes reach this one; known once listening (the
    /// port may be picked then).
    private(set) var ownAddress: String?
    /// Members waiting for their host's data socket, by connection.
    private var waiting: [UUID: Waiting] = [:]

    private struct Waiting {
        var session: UUID
        var member: WebSocketOutboundWriter
        var answer: CheckedContinuation<WebSocketOutboundWriter?, Never>
        var timeout: Task<Void, Never>?
    }

    /// Paired connections one of whose sides has ended, by session (kept
    /// until the session ends, so a side that looks late still sees it),
    /// and the sides waiting for that.
    private var endedPairs: [UUID: Set<UUID>] = [:]
    private var pairWaiters: [UUID: [CheckedContinuation<Void, Never>]] = [:]

    /// At most this many members wait for a host's answer at once, per
    /// session: a flood of joins cannot pile up sockets on the server.
    static let maxWaitingPerSession = 16
    /// How long a member waits for the host to open its data socket.
    static let hostAnswerTime: Duration = .seconds(10)
    /// At most this many member sockets of one account at once: one
    /// pupil's script cannot hold the server's sockets.
    static let maxMemberSocketsPerAccount = 16

    /// Every relay socket open in this process (control, member, answer,
    /// passed on), told goodbye when the server stops.
    private var openSockets: [UUID: WebSocketOutboundWriter] = [:]
    /// Set by `farewell`: no socket opens from then on.
    private(set) var stopping = false

    func listening(at address: String) { ownAddress = address }

    /// Counts a socket as open; nil once the server is stopping.
    func track(_ writer: WebSocketOutboundWriter) -> UUID? {
        guard !stopping else { return nil }
        let id = UUID()
        openSockets[id] = writer
        return id
    }

    func untrack(_ id: UUID) { openSockets[id] = nil }

    /// The server is stopping: every relayed desktop is told why ("going
    /// away", with the reason), all at once. The sockets then end as a
    /// peer's close would end them, which takes each session off the
    /// listing.
    func farewell(_ reason: String) async {
        stopping = true
        let all = openSockets.values
        await withTaskGroup(of: Void.self) { group in
            for writer in all {
                group.addTask { try? await writer.close(.goingAway, reason: reason) }
            }
        }
    }

    /// Sessions whose host is connected to this process, and the member
    /// sockets open here (for the metrics page).
    var counts: (sessions: Int, members: Int) { (sessions.count, memberSockets.values.reduce(0, +)) }

    func mayOpenMemberSocket(_ account: UUID) -> Bool {
        memberSockets[account, default: 0] < Self.maxMemberSocketsPerAccount
    }

    /// Counts a member socket for as long as it is open; false at the cap.
    func openMemberSocket(_ account: UUID) -> Bool {
        guard mayOpenMemberSocket(account) else { return false }
        memberSockets[account, default: 0] += 1
        return true
    }

    func closeMemberSocket(_ account: UUID) {
        let left = memberSockets[account, default: 1] - 1
        memberSockets[account] = left > 0 ? left : nil
    }

    /// Lists a session; its registration, for `unregister`. An id another
    /// host has is refused.
    func register(_ session: Session) throws(Refusal) -> UUID {
        if let existing = sessions[session.id], existing.host.id != session.host.id { throw .sessionTaken }
        sessions[session.id] = session
        return session.registration
    }

    /// The host's control socket closed: the session is no longer listed,
    /// and members still waiting are told no.
    func unregister(_ id: UUID, registration: UUID) {
        guard sessions[id]?.registration == registration else { return }
        sessions[id] = nil
        endedPairs[id] = nil
        for (connection, entry) in waiting where entry.session == id { give(connection, nil) }
    }

    /// Returns once the other side of a paired connection has ended (or
    /// this side, which wakes both).
    func untilPairEnds(_ connection: UUID, session: UUID) async {
        if endedPairs[session]?.contains(connection) == true { return }
        await withCheckedContinuation { pairWaiters[connection, default: []].append($0) }
    }

    /// One side of a pair is done: the other stops too, so a member or host
    /// that vanished without a word does not keep its socket for the
    /// minutes TCP takes to notice.
    func pairEnded(_ connection: UUID, session: UUID) {
        endedPairs[session, default: []].insert(connection)
        for waiter in pairWaiters.removeValue(forKey: connection) ?? [] { waiter.resume() }
    }

    func session(_ id: UUID) -> Session? { sessions[id] }

    /// A member asks to join: the host is told, and the member waits for
    /// the host's data socket (nil when the host does not answer in time
    /// or leaves).
    /// `account`: who joins, told to the host so that its caps for one
    /// machine apply to one account (every relayed member comes from the
    /// server's address).
    func join(_ sessionID: UUID, account: UUID, member: WebSocketOutboundWriter) async throws(Refusal) -> (UUID, WebSocketOutboundWriter?) {
        guard let session = sessions[sessionID] else { throw .noSuchSession }
        guard waiting.values.count(where: { $0.session == sessionID }) < Self.maxWaitingPerSession else {
            throw .tooManyWaiting
        }
        let connection = UUID()
        let control = session.control
        let message = "open \(connection.lowercasedText) \(account.lowercasedText)"
        let host = await withCheckedContinuation { (answer: CheckedContinuation<WebSocketOutboundWriter?, Never>) in
            // The clock runs from now, whatever the write to the host does.
            let timeout = Task {
                try? await Task.sleep(for: Self.hostAnswerTime)
                if !Task.isCancelled { self.give(connection, nil) }
            }
            waiting[connection] = Waiting(session: sessionID, member: member, answer: answer, timeout: timeout)
            Task {
                do {
                    try await control.write(.text(message))
                } catch {
                    self.give(connection, nil)
                }
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
        give(connection, writer)
        return entry.member
    }

    private func give(_ connection: UUID, _ writer: WebSocketOutboundWriter?) {
        guard let entry = waiting.removeValue(forKey: connection) else { return }
        entry.timeout?.cancel()
        entry.answer.resume(returning: writer)
    }
}
