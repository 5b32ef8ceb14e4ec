import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The relay's addresses. WebSocket upgrades (`/relay/v1/...`) go to
/// `webSocketRouter`; a refused upgrade can only be a bare 400, so the
/// same paths asked plainly say why: 401 without a valid token, 403 for a
/// session of another class, 404 for one that is gone, 400 when the
/// upgrade would have been allowed.
///
/// - `GET /relay/v1/sessions` (JSON): the relayed sessions of the caller's
///   classes.
/// - `/relay/v1/host/{session}?name=…&class=…`: a host's control socket.
///   The server sends "ready" (text) once the session is listed, then
///   "open <connection> <account>" for each member joining.
/// - `/relay/v1/join/{session}`: a member's socket; its binary messages are
///   the session protocol's bytes, both ways.
/// - `/relay/v1/answer/{session}/{connection}`: the host's socket for that
///   member.
struct RelayRoutes: Sendable {
    let api: SchoolAPI
    let hub: RelayHub
    let logger: Logger

    /// A frame of the session protocol is at most 1 MiB; a client sends it
    /// in pieces of 64 KiB.
    static let maxMessageBytes = (1 << 20) + 64

    func register(on router: Router<ServerRequestContext>) {
        let relay = router.group("relay/v1")
        relay.get("sessions") { request, _ -> Response in
            let account = try await account(request.headers)
            let listings = await hub.listings(visibleTo: try await classes(of: account))
            let body = try JSONSerialization.data(withJSONObject: listings.map {
                ["id": $0.id.uuidString.lowercased(), "name": $0.name, "host": $0.hostName,
                 "hostId": $0.hostID.uuidString.lowercased(), "classId": $0.classID.uuidString.lowercased()]
            })
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        // Reached only when the upgrade was refused or not asked for.
        for path in ["host/:session", "join/:session", "answer/:session/:connection"] {
            relay.get(RouterPath(path)) { request, context -> Response in
                let session = try Self.uuid(context.parameters.get("session"))
                let account = try await account(request.headers)
                let listed = await hub.session(session)
                if path.hasPrefix("join") {
                    try await mayJoin(account, session)
                } else if path.hasPrefix("answer") {
                    guard let listed else { throw Problem(.notFound, "no such session is relayed (it may have ended)") }
                    guard listed.host.id == account.id else { throw Problem(.forbidden, "only the session's host answers") }
                } else {
                    _ = try await hostClass(account, request.uri.queryParameters["class"].map(String.init))
                    if let listed, listed.host.id != account.id {
                        throw Problem(.conflict, "another host relays a session with this id")
                    }
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
            let account = try await account(request.headers)
            _ = try await hostClass(account, request.uri.queryParameters["class"].map(String.init))
            if let existing = await hub.session(session), existing.host.id != account.id { return .dontUpgrade }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let request = context.request
            guard let session = UUID(uuidString: request.uri.path.split(separator: "/").last.map(String.init) ?? ""),
                  let account = try? await account(request.headers),
                  let classID = try? await hostClass(account, request.uri.queryParameters["class"].map(String.init))
            else { return }
            let name = String((request.uri.queryParameters["name"].map(String.init) ?? "").prefix(200))
            guard let registration = try? await hub.register(.init(id: session, name: name, classID: classID, host: account,
                                                                   control: outbound, startedAt: Date()))
            else { return }
            logger.info("relaying session \(session) of \(account.name)")
            // The control socket carries nothing from the host; it is open
            // as long as the session is. However it ends (a reset, a cable
            // pulled), the session is no longer listed.
            do {
                try await outbound.write(.text("ready"))
                for try await _ in inbound {}
            } catch {
                logger.debug("relay control socket of \(session) ended: \(error)")
            }
            await hub.unregister(session, registration: registration)
            logger.info("no longer relaying session \(session)")
        })
        relay.ws("join/:session", shouldUpgrade: { request, context in
            let session = try Self.uuid(context.parameters.get("session"))
            try await mayJoin(try await account(request.headers), session)
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let parts = context.request.uri.path.split(separator: "/")
            guard let session = parts.last.flatMap({ UUID(uuidString: String($0)) }),
                  let account = try? await account(context.request.headers),
                  (try? await mayJoin(account, session)) != nil,
                  case let (connection, host?)? = try? await hub.join(session, account: account.id, member: outbound)
            else { return }
            // The member's bytes go to the host's data socket until either
            // side ends; then the other side is closed too.
            await pipe(inbound, to: host, connection: connection, session: session)
        })
        relay.ws("answer/:session/:connection", shouldUpgrade: { request, context in
            let session = try Self.uuid(context.parameters.get("session"))
            _ = try Self.uuid(context.parameters.get("connection"))
            let account = try await account(request.headers)
            return await hub.session(session)?.host.id == account.id ? .upgrade([:]) : .dontUpgrade
        }, onUpgrade: { inbound, outbound, context in
            let parts = context.request.uri.path.split(separator: "/")
            guard parts.count >= 2,
                  let connection = UUID(uuidString: String(parts[parts.count - 1])),
                  let session = UUID(uuidString: String(parts[parts.count - 2])),
                  let account = try? await account(context.request.headers),
                  let member = try? await hub.answer(connection, session: session, host: account.id, writer: outbound)
            else { return }
            await pipe(inbound, to: member, connection: connection, session: session)
        })
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
        guard let named, let id = UUID(uuidString: named), mine.contains(id) else {
            throw Problem(.forbidden, "a session is for one of the host's own classes")
        }
        return id
    }

    private func mayJoin(_ account: Account, _ session: UUID) async throws {
        guard let listed = await hub.session(session) else {
            throw Problem(.notFound, "no such session is relayed (it may have ended)")
        }
        guard try await classes(of: account).contains(listed.classID) else {
            throw Problem(.forbidden, "only the session's class may join")
        }
    }

    private static func uuid(_ text: String?) throws -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw Problem(.notFound, "no such session") }
        return id
    }
}
