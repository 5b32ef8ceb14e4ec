import ArgumentParser
import Foundation
import LearnModel
import LearnNet
import TeamsketchDesktopApp
import TeamsketchCommandSupport

/// `TeamsketchTools draw-groups`: a classroom's worth of team sketches
/// for the class wall to find. Each group is a host with its members in
/// this process (joined over loopback), announced like the app's (DNS-SD and beacon),
/// letting watchers in without asking, everyone drawing at the pen's pace
/// until the time is up or the command is stopped.
struct DrawGroupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw-groups",
        abstract: "Start groups that draw team sketches over loopback, announced for the class wall.")

    @Option(help: "Groups drawing.")
    var groups = 2

    @Option(help: "Devices in each group, host included (2–4).")
    var peers = 2

    @Option(help: "How long they draw (the command then ends the sessions).")
    var seconds = 60.0

    @Option(help: "Pen samples a second per device.")
    var rate = 120

    @Option(help: "The hosts' names, one per group (default: Group 1, Group 2, …).")
    var names: [String] = []

    func validate() throws {
        guard (1...12).contains(groups) else { throw ValidationError("--groups must be 1…12.") }
        guard (2...4).contains(peers) else { throw ValidationError("--peers must be 2…4.") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be 0…3600.") }
        guard (60...2000).contains(rate) else { throw ValidationError("--rate must be 60…2000.") }
        guard names.isEmpty || names.count == groups else { throw ValidationError("give --names once per group.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.draw() }
    }

    private func draw() async throws {
        var teams: [DrawingGroup] = []
        var withdrawals: [@Sendable () async -> Void] = []
        for g in 0..<groups {
            let name = names.isEmpty ? "Group \(g + 1)" : names[g]
            let config = SessionHost.Configuration(name: name, params: SessionParams(name: "\(name)'s sketch"))
            // Listening on every address, like the app's hosts: discovery
            // names the machine's own address, not loopback. The members
            // still connect over loopback.
            let team = try await DrawingGroup.start(name: name, peers: peers, bind: "0.0.0.0", hostConfig: config)
            teams.append(team)
            withdrawals.append(await HeadlessAnnouncement.publish(name: name, sessionID: team.host.sessionID,
                                                                  port: team.host.port))
            SessionCommandSupport.say("group: \(name) on port \(team.host.port)")
        }
        SessionCommandSupport.say("drawing")
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let samplesPerFrame = max(1, rate / 60)
        let signals = SessionCommandSupport.terminationSignals()
        let teamsToDraw = teams
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in signals { return }
            }
            group.addTask {
                _ = try? await withThrowingTaskGroup(of: Int.self) { drawing in
                    for (g, team) in teamsToDraw.enumerated() {
                        drawing.addTask { try await team.draw(until: end, samplesPerFrame: samplesPerFrame, seed: g, recorder: nil) }
                    }
                    return try await drawing.reduce(0, +)
                }
            }
            await group.next()
            group.cancelAll()
        }
        for withdraw in withdrawals { await withdraw() }
        for team in teams { await team.host.end() }
        SessionCommandSupport.say("ended")
    }
}
