import ArgumentParser
import Foundation
import LearnModel
import TeamsketchDesktopApp

/// `TeamsketchDesktop announce --name NAME --port P`: publishes a session
/// (DNS-SD and beacon) with nothing behind it. Hidden; for discovery tests.
struct AnnounceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "announce",
        abstract: "Announce a session without hosting it (tests).",
        shouldDisplay: false)

    @Option(help: "The host name to announce.")
    var name: String

    @Option(help: "The TCP port to announce.")
    var port: Int

    @Option(help: "Stop after this many seconds (default: until Ctrl+C).")
    var seconds: Double?

    @Option(help: "Session id (default: a new UUID).")
    var id: String?

    @Option(help: "The activity's kind: sketch, wordpost or any 1–32 of a-z, 0-9, '-'.")
    var activity: SessionActivity = .sketch

    @Option(help: "Close the lobby (open=0) after this many seconds.")
    var closeAfter: Double?

    @OptionGroup var mechanisms: DiscoveryMechanismOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1…65535.") }
        if let id, !SessionAnnouncement.isValidSessionID(id) {
            throw ValidationError("--id must be 1–64 printable ASCII characters without spaces.")
        }
        if SessionAnnouncement(sessionID: "x", hostName: name, activity: .sketch, port: port).hostName.isEmpty {
            throw ValidationError("--name must not be empty.")
        }
    }

    func run() throws {
        MainActor.assumeIsolated {
            let service = DiscoveryService(options: mechanisms.serviceOptions)
            let printer = DiscoveryPrinter(service: service)
            service.onChange = { printer.printStatusChanges() }
            let announcement = SessionAnnouncement(sessionID: id ?? UUID().lowercasedText, hostName: name,
                                                   activity: activity, port: port)
            let loop = HeadlessMainLoop(seconds: seconds) { await service.shutdown() }
            service.announce(announcement)
            let code = service.ownJoinCode(port: port)?.digits ?? "-"
            DiscoveryPrinter.emit("announcing: \(announcement.sessionID) \(announcement.hostName) port=\(port) code=\(code)")
            printer.printStatusChanges()
            if let closeAfter {
                var closed = announcement
                closed.lobbyOpen = false
                runAfter(ms: UInt32(closeAfter * 1000)) { [closed] in
                    service.announce(closed)
                    DiscoveryPrinter.emit("closed: \(closed.sessionID)")
                }
            }
            loop.run()
        }
    }
}
