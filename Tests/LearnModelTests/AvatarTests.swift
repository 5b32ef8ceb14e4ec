import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct AvatarPNGTests {
    /// The first 24 bytes of a PNG of `w` × `h` pixels (signature and IHDR).
    func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [w, h] { b += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return b + [8, 6, 0, 0, 0]
    }

    @Test func onlySmallPicturesAreDecoded() {
        #expect(AvatarPNG.dimensions(header(128, 96))! == (128, 96))
        #expect(AvatarPNG.isAcceptable(header(128, 128)))
        #expect(AvatarPNG.isAcceptable(header(512, 1)))
        #expect(!AvatarPNG.isAcceptable(header(30_000, 30_000)), "a few bytes claiming gigabytes")
        #expect(!AvatarPNG.isAcceptable(header(513, 10)))
        #expect(!AvatarPNG.isAcceptable(header(0, 10)))
        #expect(!AvatarPNG.isAcceptable(Array("GIF89a and more bytes here".utf8)))
        #expect(!AvatarPNG.isAcceptable(header(64, 64) + [UInt8](repeating: 0, count: AvatarPNG.maxBytes)), "too many bytes")
        #expect(AvatarPNG.dimensions([0x89, 0x50]) == nil)
    }

    @Test func theHostsScreenGetsAJoinersPictureAtOnce() {
        var sim = SessionSimulation()
        let png = header(128, 128)
        sim.connect(1, PeerSession(name: "Lina", role: .drawer, avatarPNG: png))
        #expect(sim.hostEvents.contains(.avatar(member: 1, png: png)))
        // The other joiners only once the host lets Lina in.
        sim.connect(2, PeerSession(name: "Ole", role: .drawer))
        sim.hostDo(.accept(2))
        sim.run()
        #expect(!sim.events(2).contains(.avatar(member: 1, png: png)))
        sim.hostDo(.accept(1))
        sim.run()
        #expect(sim.events(2).contains(.avatar(member: 1, png: png)))
    }
}
