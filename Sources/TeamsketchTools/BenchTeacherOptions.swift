import ArgumentParser
import Foundation
import SchoolClient
import TeamsketchCore

/// The school server and teacher account the server benchmarks work as.
/// The password comes from TEAMSKETCH_PASSWORD (not the command line,
/// where every user of the machine could read it).
struct BenchTeacherOptions: ParsableArguments {
    @Option(help: "The school server's address.")
    var server: String

    @Option(help: "A teacher account on that server (password in TEAMSKETCH_PASSWORD).")
    var teacher: String

    func validate() throws {
        guard SchoolAddress.parse(server) != nil else { throw ValidationError("--server is not a server address.") }
        guard ProcessInfo.processInfo.environment["TEAMSKETCH_PASSWORD"] != nil else {
            throw ValidationError("Set TEAMSKETCH_PASSWORD to the teacher's password.")
        }
    }

    var address: URL { SchoolAddress.parse(server)! }

    /// A client of the server for `body`, shut down however it ends.
    func withClient(_ body: (SchoolServerClient) async throws -> Void) async throws {
        let client = try SchoolServerClient(address: address)
        do {
            try await body(client)
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }

    func signIn(_ client: SchoolServerClient) async throws -> SchoolServerClient.SignedIn {
        try await client.signInTeacher(name: teacher, password: ProcessInfo.processInfo.environment["TEAMSKETCH_PASSWORD"] ?? "")
    }
}
