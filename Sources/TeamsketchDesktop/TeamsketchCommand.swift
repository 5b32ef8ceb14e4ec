import ArgumentParser

struct TeamsketchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "TeamsketchDesktop",
        abstract: "Teamsketch Desktop: draw together, play Buchstaben Post.",
        subcommands: [RunCommand.self, ExportCommand.self, DiscoverCommand.self, FindServersCommand.self,
                      AnnounceCommand.self, HostCommand.self, ObserveCommand.self, SyncCommand.self,
                      SetTeacherPINCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
