import ArgumentParser
import Foundation
import LearnModel
import TeamsketchDesktopApp

/// `TeamsketchDesktop discover [--seconds N]`: lists nearby sessions as the
/// lobby would see them, one line per event, for tests and troubleshooting:
///
///     status: dnssd running
///     found: beacon <sessionID> <hostName> <host>:<port> code=<code|->
///     changed: <sessionID> <hostName> <host>:<port> open=0|1
///     lost: beacon <sessionID>
struct DiscoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List nearby sessions and the state of each discovery mechanism.")

    @Option(help: "Stop after this many seconds (default: until Ctrl+C).")
    var seconds: Double?

    @OptionGroup var mechanisms: DiscoveryMechanismOptions

    func validate() throws {
        if let seconds, seconds < 0 { throw ValidationError("--seconds must not be negative.") }
    }

    func run() throws {
        MainActor.assumeIsolated {
            let service = DiscoveryService(options: mechanisms.serviceOptions)
            let printer = DiscoveryPrinter(service: service)
            service.onChange = { printer.printStatusChanges() }
            service.onChanges = { printer.printChanges($0) }
            let loop = HeadlessMainLoop(seconds: seconds) { await service.shutdown() }
            service.start()
            printer.printStatusChanges()
            loop.run()
        }
    }
}

/// The line format shared by `discover` and `announce`.
@MainActor
final class DiscoveryPrinter {
    private let service: DiscoveryService
    private var printed: [DiscoveryMechanism: MechanismStatus] = [:]

    init(service: DiscoveryService) {
        self.service = service
    }

    func printStatusChanges() {
        for m in DiscoveryMechanism.allCases {
            guard let s = service.status[m], printed[m] != s else { continue }
            printed[m] = s
            DiscoveryPrinter.emit("status: \(m) \(s)")
        }
    }

    func printChanges(_ changes: [DiscoveryChange]) {
        for change in changes {
            switch change {
            case .found(let id, let m):
                guard let s = service.sessions.first(where: { $0.sessionID == id }) else { continue }
                DiscoveryPrinter.emit("found: \(m) \(id) \(s.hostName) \(s.address) code=\(s.joinCode?.digits ?? "-")")
            case .updated(let id):
                guard let s = service.sessions.first(where: { $0.sessionID == id }) else { continue }
                DiscoveryPrinter.emit("changed: \(id) \(s.hostName) \(s.address) open=\(s.lobbyOpen ? 1 : 0)")
            case .lost(let id, let m):
                DiscoveryPrinter.emit("lost: \(m) \(id)")
            }
        }
    }

    /// One line to stdout, flushed at once: tests read these lines while
    /// the command is still running.
    nonisolated static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }
}
