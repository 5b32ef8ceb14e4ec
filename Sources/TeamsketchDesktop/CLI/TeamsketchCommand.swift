import ArgumentParser

struct TeamsketchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "TeamsketchDesktop",
        abstract: "Teamsketch Desktop: draw together, play Buchstaben Post.",
        subcommands: [RunCommand.self, ExportCommand.self, GenerateCommand.self, BenchCommand.self,
                      DiscoverCommand.self, FindServersCommand.self, AnnounceCommand.self, HostCommand.self,
                      ObserveCommand.self, SessionBenchCommand.self, StoreBenchCommand.self, SyncCommand.self,
                      SchoolBenchCommand.self, WallBenchCommand.self, DrawGroupsCommand.self, GalleryBenchCommand.self,
                      RelayBenchCommand.self, RenderBenchCommand.self, SetTeacherPINCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
