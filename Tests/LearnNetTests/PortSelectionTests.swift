import Foundation
import Testing
import LearnModel
import LearnNet
import TeamsketchTestSupport

/// The one port selection every host uses (sketch, word game, `host` command).
@Suite struct PortSelectionTests {
    private func config() -> SessionHost.Configuration {
        var c = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Ports"))
        c.bindHost = "127.0.0.1"
        c.log = .silent
        return c
    }

    @Test func aTakenPortIsSkippedForTheNextOne() async throws {
        let first = try await SessionHost.start(config())
        let taken = first.port
        let base = config()
        let second = try await PortSelection.firstFree([taken, 0]) { port in
            var c = base
            c.port = port
            return try await SessionHost.start(c)
        }
        #expect(second.port != taken && second.port != 0)
        await second.shutdown()
        await first.shutdown()
    }

    @Test func everyPortTakenIsAnErrorNamingThePorts() async throws {
        let first = try await SessionHost.start(config())
        let taken = first.port
        let base = config()
        await #expect(throws: PortSelectionError.self) {
            _ = try await PortSelection.firstFree([taken]) { port in
                var c = base
                c.port = port
                return try await SessionHost.start(c)
            }
        }
        do {
            _ = try await PortSelection.firstFree([taken]) { port -> Int in
                throw CancellationError()
            }
        } catch {
            #expect(error.ports == [taken])
            #expect(error.description.contains("\(taken)"))
        }
        await first.shutdown()
    }

    @Test func theSessionPortsAreTheOnesWithJoinCodes() {
        #expect(PortSelection.sessionPorts == Array(47851...47860))
        #expect(PortSelection.sessionPorts.allSatisfy { JoinCode.sessionPorts.contains($0) })
    }
}
