import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// A join screen fetches a nearby host's picture for its card (`peek`)
/// without entering the lobby.
@Suite(.serialized) struct HostPictureLoopbackTests {
    @Test func theHostsPictureComesBackAndNobodyJoins() async throws {
        let png = [UInt8](repeating: 0x42, count: 3000)
        var config = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Pictures"))
        config.bindHost = "127.0.0.1"
        config.avatarPNG = png
        config.log = .silent
        let host = try await SessionHost.start(config)
        #expect(await HostPicture.fetch(host: "127.0.0.1", port: host.port) == png)
        #expect(await HostPicture.fetch(host: "127.0.0.1", port: host.port) == png)
        #expect(await host.lobby().members.map(\.name) == ["Teacher"])
        try await eventually(timeout: .seconds(5), "the peeks' connections are gone") { await host.statistics().connections == 0 }
        await host.shutdown()
    }

    @Test func noPictureNoHostOrNoAnswerGivesNil() async throws {
        let host = try await Loopback.host()
        #expect(await HostPicture.fetch(host: "127.0.0.1", port: host.port) == nil)
        let port = host.port
        await host.shutdown()
        #expect(await HostPicture.fetch(host: "127.0.0.1", port: port, timeout: .seconds(1)) == nil)
    }
}
