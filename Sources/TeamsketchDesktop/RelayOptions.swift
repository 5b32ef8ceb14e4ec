import ArgumentParser
import Foundation
import LearnNet
import TeamsketchCore

/// `--relay SERVER` for `host` and `observe`: a session through the school
/// server's relay, for machines that cannot reach each other. The token
/// comes from TEAMSKETCH_TOKEN (not the command line, where every user of
/// the machine could read it), as for `sync`.
struct RelayOptions: ParsableArguments {
    @Option(help: "The school server whose relay carries the session (as for sync: schule.local, http://10.0.0.5:8470).")
    var relay: String?

    @Option(help: "With --relay: a PEM file of the authorities to trust (a school's own CA).")
    var trust: String?

    func validate() throws {
        guard let relay else { return }
        guard SchoolAddress.parse(relay) != nil else { throw ValidationError("--relay names no school server.") }
        guard token != nil else { throw ValidationError("--relay needs the account's token in TEAMSKETCH_TOKEN.") }
    }

    private var token: String? {
        ProcessInfo.processInfo.environment["TEAMSKETCH_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Nil without --relay.
    var endpoint: RelayEndpoint? {
        guard let relay, let url = SchoolAddress.parse(relay), let host = url.host, let token else { return nil }
        return RelayEndpoint(host: host, port: url.port ?? SchoolAddress.defaultPort, token: token,
                             secure: url.scheme == "https", trustedCertificates: trust)
    }
}
