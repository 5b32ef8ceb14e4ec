import ArgumentParser

/// The developers' tools, apart from the app: benchmarks (`make bench`) and
/// what the tests run beside the app.
struct ToolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "TeamsketchTools",
        abstract: "Teamsketch's benchmarks and test tools.",
        subcommands: [GenerateCommand.self, DrawGroupsCommand.self, BenchCommand.self, SessionBenchCommand.self,
                      StoreBenchCommand.self, SchoolBenchCommand.self, WallBenchCommand.self,
                      GalleryBenchCommand.self, RelayBenchCommand.self, RenderBenchCommand.self]
    )
}
