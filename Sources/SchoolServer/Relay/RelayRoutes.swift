import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LearnModel
import Logging
import NIOCore

/// The relay's addresses. WebSocket upgrades (`/relay/v1/...`) go to
/// `webSocketRouter`; a refused upgrade can only be a bare 400, so the
/// same paths asked plainly say why: 401 without a valid token, 403 for a
/// session of another class, 404 for one that is gone, 409 for a session
/// id another host has had, 429 over a cap, 400 when the upgrade would
/// have been allowed (or the address is malformed). These answers come
/// from the database's listing, so every server process gives the same.
///
/// - `GET /relay/v1/sessions` (JSON): the relayed sessions of the caller's
///   classes, from every process.
/// - `/relay/v1/host/{session}?name=…&class=…&activity=…`: a host's control socket.
///   The server sends "ready" (text) once the session is listed, then
///   "open <connection> <account>" for each member joining.
/// - `/relay/v1/join/{session}`: a member's socket; its binary messages are
///   the session protocol's bytes, both ways.
/// - `/relay/v1/answer/{session}/{connection}`: the host's socket for that
///   member.
///
/// A session is paired in the process holding its host's control socket;
/// a join or answer arriving elsewhere is passed on there (`RelayProxy`).
struct RelayRoutes: Sendable {
    let api: SchoolAPI
    let hub: RelayHub
    let proxy: RelayProxy
    let logger: Logger

    /// A frame of the session protocol is at most 1 MiB; a client sends it
    /// in pieces of 64 KiB.
    static let maxMessageBytes = (1 << 20) + 64

    private var listings: RelayListingStore { RelayListingStore(db: api.dependencies.database) }

    func register(on router: Router<ServerRequestContext>) {
        let relay = router.group("relay/v1")
        relay.get("sessions") { request, _ -> Response in
            let account = try await account(request.headers)
            let mine = try await classes(of: account)
            let now = api.now
            let rows = try await api.database { try await listings.live(classes: mine, now: now) }
            let body = try JSONSerialization.data(withJSONObject: rows.map {
                var entry: [String: Any] = ["id": $0.id.key, "name": $0.name, "host": $0.hostName,
                                            "hostId": $0.hostID.key, "classId": $0.classID.key, "activity": $0.activity]
                if let lan = $0.lanSessionID { entry["session"] = lan.key }
                return entry
            })
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        // Reached only when the upgrade was refused or not asked for.
        for path in ["host/:session", "join/:session", "answer/:session/:connection"] {
            relay.get(RouterPath(path)) { request, context -> Response in
                let session = try Self.uuid(context.parameters.get("session"))
                let account = try await account(request.headers)
                if path.hasPrefix("join") {
                    _ = try await mayJoin(account, session)
                    guard await hub.mayOpenMemberSocket(account.id) else { throw Self.tooManySockets }
                } else if path.hasPrefix("answer") {
                    _ = try await mayAnswer(account, session)
                } else {
                    _ = try await mayHost(account, session, request.uri.queryParameters)
                }
                // Allowed, but only as a WebSocket (a client learning why its
                // upgrade was refused finds this).
                throw Problem(.badRequest, "a WebSocket upgrade is needed here")
            }
        }
    }

    func register(on router: Router<BasicWebSocketRequestContext>) {
        let relay = router.group("relay/v1")
        relay.ws("host/:session", shouldUpgrade: { request, context in
            let session = try Self.uuid(context.parameters.get("session"))
            _ = try await mayHost(try await account(request.headers), session, request.uri.queryParameters)
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            await tracked(outbound) {
                let request = context.request
                guard let session = UUID(text: request.uri.path.split(separator: "/").last.map(String.init) ?? ""),
                      let account = try? await account(request.headers),
                      let hosting = try? await mayHost(account, session, request.uri.queryParameters)
                else { return }
                await host(session, hosting, account: account, inbound: inbound, outbound: outbound)
            }
        })
        relay.ws("join/:session", shouldUpgrade: { request, context in
            let session = try Self.uuid(context.parameters.get("session"))
            let account = try await account(request.headers)
            _ = try await mayJoin(account, session)
            return await hub.mayOpenMemberSocket(account.id) ? .upgrade([:]) : .dontUpgrade
        }, onUpgrade: { inbound, outbound, context in
            await tracked(outbound) {
                let request = context.request
                guard let session = request.uri.path.split(separator: "/").last.flatMap({ UUID(text: String($0)) }),
                      let account = try? await account(request.headers),
                      let listed = try? await mayJoin(account, session),
                      await hub.openMemberSocket(account.id)
                else { return }
                await pairHereOrPassOn(listed, request, inbound, outbound) {
                    if case let (connection, host?)? = try? await hub.join(session, account: account.id, member: outbound) {
                        // The member's bytes go to the host's data socket until
                        // either side ends; then the other side is closed too.
                        await pipe(inbound, to: host, connection: connection, session: session)
                    }
                }
                await hub.closeMemberSocket(account.id)
            }
        })
        relay.ws("answer/:session/:connection", shouldUpgrade: { request, context in
            let session = try Self.uuid(context.parameters.get("session"))
            _ = try Self.uuid(context.parameters.get("connection"))
            _ = try await mayAnswer(try await account(request.headers), session)
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            await tracked(outbound) {
                let request = context.request
                let parts = request.uri.path.split(separator: "/")
                guard parts.count >= 2,
                      let connection = UUID(text: String(parts[parts.count - 1])),
                      let session = UUID(text: String(parts[parts.count - 2])),
                      let account = try? await account(request.headers),
                      let listed = try? await mayAnswer(account, session)
                else { return }
                await pairHereOrPassOn(listed, request, inbound, outbound) {
                    guard let member = try? await hub.answer(connection, session: session, host: account.id, writer: outbound)
                    else { return }
                    await pipe(inbound, to: member, connection: connection, session: session)
                }
            }
        })
    }

    /// A relay socket for as long as it is open, known to the hub so that
    /// a stopping server says goodbye on it; one opened while the server
    /// stops is closed at once with the reason.
    private func tracked(_ outbound: WebSocketOutboundWriter, _ body: () async -> Void) async {
        guard let id = await hub.track(outbound) else {
            try? await outbound.close(.goingAway, reason: ServerStop.reason)
            return
        }
        await body()
        await hub.untrack(id)
    }

    /// A data socket is paired here when this process holds the session's
    /// host (`pair`), or passed on to the process that does.
    private func pairHereOrPassOn(_ listed: RelayListingStore.Row, _ request: Request, _ inbound: WebSocketInboundStream,
                                  _ outbound: WebSocketOutboundWriter, pair: () async -> Void) async {
        switch await route(listed, request.headers) {
        case .here:
            await pair()
        case .owner(let address):
            await proxy.pass(inbound, outbound, to: address, path: request.uri.path,
                             authorization: request.headers[.authorization])
        case .nowhere:
            break
        }
    }

    /// A host's control socket, for as long as it is open: the session is
    /// listed in the database with this process as its owner, the listing
    /// kept fresh, and marked ended however the socket ends (a reset, a
    /// cable pulled). A process that dies leaves a listing that goes stale.
    private func host(_ session: UUID, _ hosting: Hosting, account: Account,
                      inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        guard let own = await hub.ownAddress else { return }
        let listings = listings, clock = api.dependencies.clock, every = api.configuration.relayHeartbeat
        let logger = logger
        let registration = UUID()
        // In the hub first: a member passed on here as soon as the listing
        // names this process finds the session.
        guard (try? await hub.register(.init(id: session, name: hosting.name, classID: hosting.classID, host: account,
                                             control: outbound, startedAt: Date(), registration: registration))) != nil
        else { return }
        let now = clock.now()
        let claim: RelayListingStore.Claim
        do {
            claim = try await listings.claim(.init(
                id: session, classID: hosting.classID, name: hosting.name, activity: hosting.activity,
                hostID: account.id, hostName: account.name, ownerAddress: own, registration: registration,
                registeredAt: now, heartbeatAt: now, lanSessionID: hosting.lanSessionID))
        } catch {
            logger.error("relay: listing session \(session) failed: \(error)")
            await hub.unregister(session, registration: registration)
            return
        }
        guard claim == .claimed else {
            // Checked before the upgrade; lost to another process since.
            await hub.unregister(session, registration: registration)
            try? await outbound.close(.policyViolation, reason: claim == .taken ? "session id taken" : "too many sessions")
            return
        }
        logger.info("relaying session \(session) of \(account.name)")
        // The control socket carries nothing from the host; it is open as
        // long as the session is. It also ends when the host registered the
        // session again elsewhere (this listing is then no longer ours).
        do {
            try await outbound.write(.text("ready"))
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await _ in inbound {}
                    } catch {
                        logger.debug("relay control socket of \(session) ended: \(error)")
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: every)
                        if Task.isCancelled { return }
                        do {
                            if try await !listings.heartbeat(session, registration: registration, now: clock.now()) {
                                logger.info("relay session \(session) was registered again elsewhere")
                                return
                            }
                        } catch {
                            // Not fatal: the listing only goes stale if this lasts.
                            logger.warning("relay: refreshing session \(session) failed: \(error)")
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        } catch {
            logger.debug("relay control socket of \(session) ended: \(error)")
        }
        await hub.unregister(session, registration: registration)
        do {
            try await listings.end(session, registration: registration, now: clock.now())
        } catch {
            logger.warning("relay: ending session \(session) failed (its listing goes stale): \(error)")
        }
        logger.info("no longer relaying session \(session)")
    }

    private enum Route {
        /// This process holds the session's host.
        case here
        /// Another live process does.
        case owner(String)
        /// The listing names this process, but its registration is gone
        /// here (a restart within the staleness window), or the socket was
        /// passed on once already.
        case nowhere
    }

    private func route(_ listed: RelayListingStore.Row, _ headers: HTTPFields) async -> Route {
        if await hub.session(listed.id)?.registration == listed.registration { return .here }
        if headers[RelayProxy.hopHeader] != nil { return .nowhere }
        if listed.ownerAddress == (await hub.ownAddress) { return .nowhere }
        return .owner(listed.ownerAddress)
    }

    /// Every data frame as it comes, as binary: the bytes are a stream of
    /// the session protocol, whose own frames do not care where a
    /// WebSocket message ends. Runs until this side ends or the other side
    /// of the pair does; then the other side is closed.
    private func pipe(_ inbound: WebSocketInboundStream, to writer: WebSocketOutboundWriter,
                      connection: UUID, session: UUID) async {
        let hub = hub, logger = logger
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await frame in inbound where frame.opcode != .text {
                        try await writer.write(.binary(frame.data))
                    }
                } catch {
                    logger.debug("relay pipe ended: \(error)")
                }
            }
            group.addTask { await hub.untilPairEnds(connection, session: session) }
            await group.next()
            await hub.pairEnded(connection, session: session)
            group.cancelAll()
        }
        try? await writer.close(.normalClosure, reason: nil)
    }

    // MARK: who may

    private func account(_ headers: HTTPFields) async throws -> Account {
        guard let token = RequestInfo.token(from: headers) else {
            throw Problem.noToken
        }
        let info = RequestInfo(peerAddress: RequestInfo.current.peerAddress, token: token)
        return try await RequestInfo.$current.withValue(info) { try await api.signedIn() }
    }

    /// The classes whose sessions an account sees and joins: a pupil's own
    /// class, a teacher's classes that are not archived.
    private func classes(of account: Account) async throws -> Set<UUID> {
        if account.role == .pupil { return Set([account.classID].compactMap { $0 }) }
        let classes = try await api.database { try await api.store.classes(of: account.id) }
        return Set(classes.map(\.id))
    }

    /// The class a session is for: a pupil hosts for their own class, a
    /// teacher for one of theirs, named in the address.
    private func hostClass(_ account: Account, _ named: String?) async throws -> UUID {
        let mine = try await classes(of: account)
        if account.role == .pupil, let own = mine.first { return own }
        guard let named, let id = UUID(text: named), mine.contains(id) else {
            throw Problem(.forbidden, "a session is for one of the host's own classes")
        }
        return id
    }

    /// What a host's address asks for.
    struct Hosting: Sendable {
        var classID: UUID
        var name: String
        var activity: String
        /// The session's id on the room's network, as the host says: only
        /// for a join screen to show one card for a session it sees both
        /// ways. Never what the relay is keyed by (that id is broadcast).
        var lanSessionID: UUID?
    }

    static let tooManySockets = Problem(
        .tooManyAttempts, "one account has at most \(RelayHub.maxMemberSocketsPerAccount) relayed sockets open at once")

    /// Whether `account` may list `session` (first or again): a session id
    /// stays its first host's for good, so nobody can take over a class's
    /// session by its id, even after it ended.
    private func mayHost(_ account: Account, _ session: UUID,
                         _ query: FlatDictionary<Substring, Substring>) async throws -> Hosting {
        // The same rule as an activity's name on the room's network, so any
        // activity the apps can host can be relayed.
        guard let activity = SessionActivity(rawValue: query["activity"].map(String.init) ?? "sketch")?.rawValue else {
            throw Problem(.badRequest, "activity is 1–32 of a–z, 0–9 and - (sketch, wordpost)")
        }
        let classID = try await hostClass(account, query["class"].map(String.init))
        let now = api.now
        let listings = listings
        let (existing, live) = try await api.database {
            (try await listings.session(session), try await listings.liveCount(host: account.id, except: session, now: now))
        }
        if let existing, existing.hostID != account.id {
            throw Problem(.conflict, "another host relays (or relayed) a session with this id")
        }
        guard live < RelayListingStore.maxLivePerHost else {
            throw Problem(.tooManyAttempts, "one account relays at most \(RelayListingStore.maxLivePerHost) sessions at once")
        }
        let name = String((query["name"].map(String.init) ?? "").prefix(200))
        let lan = query["session"].flatMap { UUID(text: String($0)) }
        return Hosting(classID: classID, name: name, activity: activity, lanSessionID: lan)
    }

    /// A live session of one of the account's classes.
    private func mayJoin(_ account: Account, _ session: UUID) async throws -> RelayListingStore.Row {
        let listed = try await live(session)
        guard try await classes(of: account).contains(listed.classID) else {
            throw Problem(.forbidden, "only the session's class may join")
        }
        return listed
    }

    /// A live session of this host.
    private func mayAnswer(_ account: Account, _ session: UUID) async throws -> RelayListingStore.Row {
        let listed = try await live(session)
        guard listed.hostID == account.id else { throw Problem(.forbidden, "only the session's host answers") }
        return listed
    }

    private func live(_ session: UUID) async throws -> RelayListingStore.Row {
        let now = api.now
        let listings = listings
        guard let listed = try await api.database({ try await listings.session(session) }), listed.isLive(now: now) else {
            throw Problem(.notFound, "no such session is relayed (it may have ended)")
        }
        return listed
    }

    private static func uuid(_ text: String?) throws -> UUID {
        guard let text, let id = UUID(text: text) else { throw Problem(.notFound, "no such session") }
        return id
    }
}
