import ArgumentParser
import Foundation
import LearnModel
import LearnNet
import LearnRender
import TeamsketchCore
import TeamsketchCommandSupport
import TeamsketchDesktopApp

/// `TeamsketchDesktop host --name NAME [--port P] [--accept-all] …`: hosts a
/// Team Sketch session without a window, for tests, benchmarks and a
/// classroom machine that only serves. Prints `session:`, `address:` and (when
/// the address allows one) `code:` lines on start; runs until SIGINT/SIGTERM
/// or the time limit, then ends the session for everyone.
struct HostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a Team Sketch session without a window.",
        discussion: """
            Without --port the first free port of \(JoinCode.sessionPorts.lowerBound)–\(JoinCode.sessionPorts.upperBound) \
            is used (those have join codes), else any free port. With --accept-all everyone who asks is accepted \
            (drawers up to 4, host included; observers too) and drawing starts once --start-with drawers are in; without it, joiners wait.
            With --relay the session is also offered through the school server's relay (prints `relayed:` and the id it is relayed under), \
            for the class's machines that cannot reach this one; the account's token is read from TEAMSKETCH_TOKEN.
            Exit status: 0 ok, 1 port busy, the relay refused or the sketch could not be written, 64 bad arguments.
            """)

    @Option(help: "The host's name, shown to joiners and on its strokes.")
    var name: String

    @Option(help: "TCP port to listen on (0 = any free port).")
    var port: Int?

    @Flag(help: "Accept every drawer without asking.")
    var acceptAll = false

    @Option(help: "Line guides.")
    var guides: LineGuides = .none

    @Option(help: "Time limit in minutes (0 = none, at most 120).")
    var minutes = 0

    @Option(help: "The sketch's name (default: \"NAME's sketch\").")
    var title: String?

    @Option(help: "With --accept-all: start drawing once this many drawers (host included) are in.")
    var startWith = 2

    @Flag(help: "Let the host clear the sheet.")
    var allowClear = false

    @Option(help: "Also write the sketch to this file when the session ends (png, pdf, svg, xopp, teamsketch).")
    var out: String?

    @Option(help: "Address to listen on.")
    var bind = "0.0.0.0"

    /// For tests: a sketch full after this many ops (the file limit by default).
    @Option(help: ArgumentHelp("Refuse ops once the sketch holds this many.", visibility: .hidden))
    var maxOps: Int?

    /// For tests: how many joiners may wait at once (12 by default).
    @Option(help: ArgumentHelp("Joiners that may wait for the host at once.", visibility: .hidden))
    var maxWaiting: Int?

    @OptionGroup var relayOptions: RelayOptions

    @Option(help: ArgumentHelp("Once started, draw this many strokes with the host's pen, one every quarter second (tests, demos).",
                               visibility: .hidden))
    var draw = 0

    @Option(help: "With --relay, for a teacher's token: the class the session is for (a pupil hosts for their own).")
    var forClass: String?

    func validate() throws {
        if let forClass, UUID(uuidString: forClass) == nil { throw ValidationError("--for-class must be a class's id.") }
        guard SketchLimits.timeLimitMinutes.contains(minutes) else { throw ValidationError("--minutes must be 0…120.") }
        let fewest = SketchActivity.startRule.minimumPlayers
        guard (fewest...HostSession.maxDrawers).contains(startWith) else {
            throw ValidationError("--start-with must be \(fewest)…\(HostSession.maxDrawers).")
        }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0…65535.") }
        guard (0...10_000).contains(draw) else { throw ValidationError("--draw must be 0…10000.") }
        if let maxOps, !(1...SketchLimits.maxOps).contains(maxOps) {
            throw ValidationError("--max-ops must be 1…\(SketchLimits.maxOps).")
        }
        if let out, SketchFileKind(path: out) == nil {
            throw ValidationError("--out must end in \(SketchFileKind.exportable.joined(separator: ", ")).")
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--name must not be empty.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.host() }
    }

    private func host() async throws {
        let (events, onEvent) = SessionCommandSupport.eventStream()
        var config = SessionHost.Configuration(
            name: name,
            params: SessionParams(name: title ?? "\(name)'s sketch", guides: guides,
                                  timeLimitMinutes: minutes))
        config.acceptAll = acceptAll
        config.bindHost = bind
        // The classroom's defaults, as a teacher's app would host with them.
        config.settings = ClassroomSettings().sessionSettings
        config.settings.clearAllowed = allowClear
        if let maxOps { config.capacity.maxOps = maxOps }
        if let maxWaiting { config.maxWaiting = max(0, maxWaiting) }
        // On a laptop a pupil signed in on (the app's stored sign-in), the
        // group is theirs as in the app: it announces their class, and
        // that class's wall watches without asking.
        let pupil = SchoolSignInClient.live().load().flatMap { $0.isValid(at: Date()) && !$0.isTeacher ? $0 : nil }
        config.classWatchKey = pupil?.hostWatchKey
        let host = try await Self.listen(config, ports: port.map { [$0] } ?? PortSelection.sessionPorts + [0],
                                         onEvent: onEvent)
        let address = bind == "0.0.0.0" ? LocalInterfaces.current().primaryAddress.description : bind
        SessionCommandSupport.say("session: \(host.sessionID.lowercasedText)")
        if let code = SessionCommandSupport.joinCode(host: address, port: host.port) {
            SessionCommandSupport.say("code: \(code)")
        }
        SessionCommandSupport.say("address: \(address):\(host.port)")
        let withdraw = await HeadlessAnnouncement.publish(name: name, sessionID: host.sessionID, port: host.port,
                                                          classTag: pupil?.classTag)
        if let endpoint = relayOptions.endpoint {
            do {
                try await host.relay(through: endpoint, sessionName: config.params.name,
                                     classID: forClass.flatMap(UUID.init(uuidString:)))
                SessionCommandSupport.say("relayed: \(endpoint.host):\(endpoint.port) as \(await host.relayID.lowercasedText)")
            } catch {
                await withdraw()
                await host.shutdown()
                throw CLIFailure(message: "the school server's relay: \(error)")
            }
        }

        let signals = SessionCommandSupport.terminationSignals()
        let startWith = startWith
        let acceptAll = acceptAll
        let draw = draw
        let reason: EndReason? = await withTaskGroup(of: EndReason?.self) { group in
            group.addTask {
                for await _ in signals { return nil }
                return nil
            }
            group.addTask {
                for await event in events {
                    Self.report(event)
                    switch event {
                    case .lobbyChanged(let lobby):
                        let players = lobby.connectedDrawers
                        if acceptAll && !lobby.started && players >= startWith
                            && SketchActivity.startRule.decide(players: players) == .start {
                            host.start()
                        }
                    case .started where draw > 0:
                        Task {
                            await Self.drawStrokes(draw, with: host)
                            SessionCommandSupport.say("drew: \(draw)")
                        }
                    case .ended(let reason):
                        return reason
                    default:
                        break
                    }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        await withdraw()
        if reason == nil { await host.end(.hostEnded) } else { await host.shutdown() }
        SessionCommandSupport.say("ended: \(reason ?? .hostEnded)")
        if let out {
            let doc = await host.document()
            do throws(SketchIOError) {
                try SketchExport.write(doc, to: out)
            } catch {
                throw CLIFailure(message: error.description)
            }
            SessionCommandSupport.say("wrote: \(out) (\(doc.strokes.count) strokes)")
        }
    }

    /// Strokes as a hand draws them: a frame's samples every 1/60 s, a new
    /// stroke every quarter second.
    private static func drawStrokes(_ count: Int, with host: SessionHost) async {
        var path = PenPath(seed: 7)
        for n in 0..<count {
            var builder = StrokeBuilder(author: "", pen: Pen(color: PenColor.allCases[n % PenColor.allCases.count], width: .fine),
                                        start: path.next(), at: Date())
            host.beginStroke(id: builder.id, color: builder.color, width: builder.width, start: builder.start)
            for _ in 0..<6 {
                host.addSegments((0..<5).flatMap { _ in builder.add(path.next()) }, to: builder.id)
                try? await Task.sleep(for: .milliseconds(16))
            }
            host.addSegments(builder.finish(at: Date()).tail, to: builder.id)
            host.endStroke(builder.id)
            try? await Task.sleep(for: .milliseconds(150))
        }
    }

    /// Binds the first port of `ports` that is free (the same selection as
    /// the app's hosts); a failure is the command's exit status 1.
    private static func listen(_ config: SessionHost.Configuration, ports: [Int],
                               onEvent: @escaping @Sendable (SessionEvent) -> Void) async throws -> SessionHost {
        do {
            return try await PortSelection.firstFree(ports) { port in
                var c = config
                c.port = port
                return try await SessionHost.start(c, onEvent: onEvent)
            }
        } catch {
            throw CLIFailure(message: error.description)
        }
    }

    /// One line per thing a person running a headless host wants to know.
    static func report(_ event: SessionEvent) {
        switch event {
        case .lobbyChanged(let lobby):
            // Names came from the network: cleaned again here so nothing in
            // one can move the cursor or reorder the line on a terminal.
            let who = lobby.members.dropFirst().map {
                "\(DisplayName.member($0.name)) (\($0.role == .observer ? ($0.state == .pending ? "observer, waiting" : "observer") : $0.state == .pending ? "waiting" : "drawer")\($0.connected ? "" : ", away")\($0.sharesName ? ", same name as another" : ""))"
            }
            SessionCommandSupport.note("lobby: \(who.isEmpty ? "nobody yet" : who.joined(separator: ", "))")
        case .started(let seconds):
            SessionCommandSupport.say("started\(seconds.map { ": \($0) s left" } ?? "")")
        case .connectionDropped(let member, let reason):
            SessionCommandSupport.note("dropped\(member.map { " member \($0)" } ?? ""): \(reason)")
        case .refused(let why):
            SessionCommandSupport.note("refused: \(why)")
        case .opRefused(let why, let member):
            SessionCommandSupport.note("refused an op of member \(member): \(why)")
        default:
            break
        }
    }
}

