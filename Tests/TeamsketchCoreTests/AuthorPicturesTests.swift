import Foundation
import LearnModel
import TeamsketchCore
import Testing

@Suite struct AuthorPicturesTests {
    func png(side: Int = 128, tag: UInt8 = 0) -> Data { avatarPNG(side: side, tag: tag) }

    func profile(_ name: String, _ picture: Data?) -> ProfileRecord { ProfileRecord(name: name, avatarPNG: picture, at: 1) }

    @Test func aSyncedPupilsPictureBelongsToTheirName() {
        let mia = png(tag: 1), ole = png(tag: 2)
        let pictures = AuthorPictures(profiles: [profile("Mia", mia), profile("Ole", ole)])
        #expect(pictures.picture(for: "Mia") == mia)
        #expect(pictures.picture(for: "Ole") == ole)
        #expect(pictures.picture(for: "Ben") == nil)
        #expect(pictures.pictures(for: ["Mia", "Ben", "Ole"]) == ["Mia": mia, "Ole": ole])
    }

    @Test func namesAreComparedAsALobbyComparesThem() {
        let mia = png(tag: 1)
        let pictures = AuthorPictures(profiles: [profile("Mia", mia)])
        #expect(pictures.picture(for: "mia") == mia)
        #expect(pictures.picture(for: "  MIA ") == mia)
        #expect(pictures.picture(for: "Mi\u{202E}a") == mia)   // a hidden reordering mark changes nothing
        #expect(pictures.picture(for: "Mia 2") == nil)         // a second Mia in a session is somebody else
        #expect(pictures.picture(for: "") == nil)
    }

    @Test func thisDevicesOwnPictureBelongsToItsOwnName() {
        let mine = png(tag: 9)
        let pictures = AuthorPictures(profiles: [], own: .init(name: "Frau Berg", avatarPNG: mine))
        #expect(pictures.picture(for: "Frau Berg") == mine)
        // The same picture synced for the same name is no conflict.
        let both = AuthorPictures(profiles: [profile("Frau Berg", mine)], own: .init(name: "Frau Berg", avatarPNG: mine))
        #expect(both.picture(for: "Frau Berg") == mine)
    }

    @Test func twoPeopleOfOneNameWithDifferentPicturesGetNone() {
        let a = png(tag: 1), b = png(tag: 2)
        #expect(AuthorPictures(profiles: [profile("Mia", a), profile("mia", b)]).picture(for: "Mia") == nil)
        // One Mia drew a picture, the other did not: whose sketch it is is unknown too.
        #expect(AuthorPictures(profiles: [profile("Mia", a), profile("Mia", nil)]).picture(for: "Mia") == nil)
        // This device's own picture for a name a synced pupil also has, with another picture.
        #expect(AuthorPictures(profiles: [profile("Mia", a)], own: .init(name: "Mia", avatarPNG: b)).picture(for: "Mia") == nil)
        // Two accounts with the very same picture (a pupil's two accounts) agree.
        #expect(AuthorPictures(profiles: [profile("Mia", a), profile("Mia", a)]).picture(for: "Mia") == a)
    }

    @Test func onlyPicturesThatPassTheChecksAreHandedOut() {
        let huge = png(side: 30_000)
        let notPNG = Data("GIF89a and then some bytes".utf8)
        let oversized = png() + Data(count: AvatarPNG.maxBytes)
        let pictures = AuthorPictures(profiles: [profile("Ole", huge), profile("Ben", notPNG), profile("Ida", oversized)])
        #expect(pictures.picture(for: "Ole") == nil)
        #expect(pictures.picture(for: "Ben") == nil)
        #expect(pictures.picture(for: "Ida") == nil)
        #expect(pictures.pictures.isEmpty)
        // An unusable picture counts as none, so a second Ole with a good one is still ambiguous.
        #expect(AuthorPictures(profiles: [profile("Ole", huge), profile("Ole", png(tag: 3))]).picture(for: "Ole") == nil)
    }
}
