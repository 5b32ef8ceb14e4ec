import ArgumentParser
import Foundation

/// Starts the GTK app; the default when no subcommand is given.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Start the app (the default).")

    @Option(help: "Open this .xopp or .teamsketch file on start.")
    var openFile: String?

    @Flag(help: "Print the time to the first drawn frame and quit (benchmarks).")
    var quitAfterFirstFrame = false

    @Flag(help: "Check that main-actor work runs inside the GTK loop, then quit (tests).")
    var selfTestMainActor = false

    func run() throws {
        let options = AppOptions(openFile: openFile, quitAfterFirstFrame: quitAfterFirstFrame,
                                 selfTestMainActor: selfTestMainActor)
        let status = MainActor.assumeIsolated { TeamsketchApp.run(options) }
        if status != 0 { throw ExitCode(status) }
    }
}
