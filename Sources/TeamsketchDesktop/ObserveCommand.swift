import ArgumentParser
import Foundation
import LearnModel
import LearnNet
import LearnRender
import TeamsketchCommandSupport
import TeamsketchDesktopApp

/// `TeamsketchDesktop observe --join CODE|HOST:PORT --out FILE`: joins a
/// session as a silent observer and writes its sketch to FILE when the
/// session ends (or the host leaves) or on SIGINT/SIGTERM.
struct ObserveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "Watch a Team Sketch session and save its sketch.",
        discussion: """
            Prints `code:` (when the address has one) and `address:` once connected, `started` and `ended: REASON`.
            With --relay and --session the session is reached through the school server's relay (token in TEAMSKETCH_TOKEN).
            Exit status: 0 written, 1 the file could not be written, 64 bad arguments, \
            \(SessionExitStatus.unreachable) host unreachable, \(SessionExitStatus.declined) declined, \
            \(SessionExitStatus.protocolMismatch) protocol mismatch.
            """)

    @Option(help: "A six-digit join code or HOST:PORT.")
    var join: String?

    @OptionGroup var relayOptions: RelayOptions

    @Option(help: "With --relay: the id the session is relayed under (the host prints it after `relayed:`, its LAN id is another).")
    var session: String?

    @Flag(help: ArgumentHelp("Join as a drawer who never draws, so a host waiting for drawers starts (tests).",
                             visibility: .hidden))
    var asDrawer = false

    @Option(help: "Where to write the sketch (png, pdf, svg, xopp, teamsketch).")
    var out: String

    @Option(help: "The name the host sees.")
    var name = "Observer"

    @Option(help: "Seconds to keep trying to rejoin after the connection breaks.")
    var rejoinSeconds = 15.0

    func validate() throws {
        guard SketchFileKind(path: out) != nil else {
            throw ValidationError("--out must end in \(SketchFileKind.exportable.joined(separator: ", ")).")
        }
        if relayOptions.relay != nil {
            guard join == nil, let session, UUID(uuidString: session) != nil else {
                throw ValidationError("--relay needs --session ID (and no --join).")
            }
            return
        }
        guard let join else { throw ValidationError("--join (or --relay with --session) is needed.") }
        do { _ = try JoinInput(parsing: join) } catch {
            throw ValidationError("--join must be a six-digit code or HOST:PORT (\(error)).")
        }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.observe() }
    }

    /// Where to try: the join's candidates, or the relay.
    private func candidates() throws -> [(SessionAddress, RelayRoute?)] {
        if let endpoint = relayOptions.endpoint, let session = session.flatMap(UUID.init(uuidString:)) {
            return [(SessionAddress(host: endpoint.host, port: endpoint.port), RelayRoute(endpoint: endpoint, sessionID: session))]
        }
        let input = try JoinInput(parsing: join ?? "")
        return input.candidates(localAddresses: LocalInterfaces.current().addresses).map { ($0, nil) }
    }

    private func observe() async throws {
        let (events, onEvent) = SessionCommandSupport.eventStream()
        var client: SessionClient?
        var reached: SessionAddress?
        var failures: [String] = []
        for (candidate, relay) in try candidates() {
            var config = SessionClient.Configuration(host: candidate.host, port: candidate.port, name: name,
                                                     role: asDrawer ? .drawer : .observer)
            config.relay = relay
            config.rejoinWindow = .milliseconds(Int(rejoinSeconds * 1000))
            do {
                client = try await SessionClient.connect(config, onEvent: onEvent)
                reached = candidate
                break
            } catch {
                failures.append(error.description)
            }
        }
        guard let client, let reached else {
            throw SessionCommandSupport.fail("host unreachable: \(failures.joined(separator: "; "))",
                                             status: SessionExitStatus.unreachable)
        }
        if let code = SessionCommandSupport.joinCode(host: reached.host, port: reached.port) {
            SessionCommandSupport.say("code: \(code)")
        }
        SessionCommandSupport.say("address: \(reached)")

        enum Outcome: Sendable { case interrupted, ended(EndReason), declined(DeclineReason) }
        let signals = SessionCommandSupport.terminationSignals()
        let outcome: Outcome = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                for await _ in signals { return .interrupted }
                return nil
            }
            group.addTask {
                for await event in events {
                    switch event {
                    case .lobbyChanged(let lobby):
                        // The host's words reach a terminal: nothing in them may steer it.
                        SessionCommandSupport.note("lobby: \(DisplayName.member(lobby.params.name)), \(lobby.members.count) in")
                    case .accepted:
                        // Watchers wait for the host like painters; say when let in.
                        SessionCommandSupport.say("accepted")
                    case .started:
                        SessionCommandSupport.say("started")
                    case .connectionLost(let reason):
                        SessionCommandSupport.note("connection lost (\(reason)); rejoining")
                    case .declined(let reason):
                        return .declined(reason)
                    case .ended(let reason):
                        return .ended(reason)
                    default:
                        break
                    }
                }
                return nil
            }
            var first: Outcome?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .interrupted
        }
        switch outcome {
        case .declined(.protocolMismatch(let v)):
            throw SessionCommandSupport.fail("protocol mismatch: the host speaks version \(v), this program \(SessionProtocol.version)",
                                             status: SessionExitStatus.protocolMismatch)
        case .declined(let reason):
            throw SessionCommandSupport.fail("declined: \(reason)", status: SessionExitStatus.declined)
        case .ended(let reason):
            SessionCommandSupport.say("ended: \(reason)")
        case .interrupted:
            SessionCommandSupport.say("ended: interrupted")
        }
        await client.leave()
        let doc = await client.document()
        do throws(SketchIOError) {
            try SketchExport.write(doc, to: out)
        } catch {
            throw CLIFailure(message: error.description)
        }
        SessionCommandSupport.say("wrote: \(out) (\(doc.strokes.count) strokes)")
    }
}
