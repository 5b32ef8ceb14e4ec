import ArgumentParser
import Foundation
import TeamsketchDesktopApp

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
        Self.preferCairoWithoutGPU()
        let options = AppOptions(openFile: openFile, quitAfterFirstFrame: quitAfterFirstFrame,
                                 selfTestMainActor: selfTestMainActor)
        let status = MainActor.assumeIsolated { TeamsketchApp.run(options) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Without a GPU (kiosks, thin clients, Xvfb) GTK's GL renderer runs on
    /// Mesa's software rasterizer: slower than GTK's Cairo renderer and about
    /// 70 MB bigger. Even with the Cairo renderer GDK still opens GL on X11 to
    /// choose its window visual, which maps Mesa and LLVM (about 50 MB
    /// resident), so GL is switched off altogether. Machines with a render
    /// node keep GL; GSK_RENDERER wins, and a GDK_DEBUG of one's own is kept.
    static func preferCairoWithoutGPU() {
        let env = ProcessInfo.processInfo.environment
        guard env["GSK_RENDERER"] == nil else { return }
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        guard !nodes.contains(where: { $0.hasPrefix("renderD") }) else { return }
        setenv("GSK_RENDERER", "cairo", 1)
        if env["GDK_DEBUG"] == nil { setenv("GDK_DEBUG", "gl-disable", 1) }
    }
}
