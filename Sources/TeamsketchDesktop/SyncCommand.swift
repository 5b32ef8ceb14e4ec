import ArgumentParser
import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchDesktopApp

/// `TeamsketchDesktop sync --store PATH --server URL`: one sync round of a
/// store with the school server, as the app's background service does it:
/// push the whole outbox, then pull to the end. Prints what it did as one
/// JSON line. The token comes from TEAMSKETCH_TOKEN (not the command line,
/// where every user of the machine could read it). For scripts and the
/// tests that kill a server or a client half-way.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a store with the school server once (token in TEAMSKETCH_TOKEN).")

    @Option(help: "The store file.")
    var store: String

    @Option(help: "The school server's address, e.g. https://schule.local:8470.")
    var server: String

    @Option(help: "The signed-in account's id (names the store's cursor).")
    var account: String

    @Option(help: "A PEM file of the certificate authorities to trust instead of the system's.")
    var trustedCertificates: String?

    func validate() throws {
        guard SchoolAddress.parse(server) != nil else { throw ValidationError("--server is not a server address.") }
        guard ProcessInfo.processInfo.environment["TEAMSKETCH_TOKEN"]?.isEmpty == false else {
            throw ValidationError("Set TEAMSKETCH_TOKEN to the sign-in's token.")
        }
    }

    func run() throws {
        let address = SchoolAddress.parse(server)!
        let token = ProcessInfo.processInfo.environment["TEAMSKETCH_TOKEN"]!
        let localStore = try LocalStore(path: store)
        let client = try SchoolServerClient(address: address, trustedCertificates: trustedCertificates)
        let key = SchoolSignIn(server: address.absoluteString, accountID: AccountID(account), name: "", isTeacher: false,
                               token: SchoolToken(token), expiresAt: .distantFuture).syncKey
        let service = SyncService(store: localStore, connection: client.connection(token: token), key: key)
        let outcome: Result<SyncService.Round, any Error> = try HeadlessMainLoop.runBlocking {
            let result = await Result(catching: { try await service.syncOnce() })
            await client.shutdown()
            return result
        }
        let round = try outcome.get()
        let waiting = try localStore.outboxCount()
        print(#"{"pushed":\#(round.pushed),"refused":\#(round.refused),"pulled":\#(round.pulled),"skipped":\#(round.skipped),"waiting":\#(waiting)}"#)
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
