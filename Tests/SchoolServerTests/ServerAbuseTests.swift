import Foundation
import HTTPTypes
import LearnModel
import Testing
@testable import SchoolServer

/// A pupil with a script tries to make the server slow or hold too much for
/// everyone else; each try is refused or harmless.
@Suite struct ServerAbuseTests {
    /// A profile padded with keys the server does not know is refused
    /// (it would be handed to every classmate on every page); the biggest
    /// real profile, a 64 KiB drawing, passes, and 140 of them in a row
    /// leave one picture to show, read by itself.
    @Test(arguments: Backend.allCases)
    func aPaddedProfileIsRefusedAndManyRealOnesLeaveOnePicture(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let (mia, ole) = (klass.pupils["Mia"]!, klass.pupils["Ole"]!)

            let padded: [String: Any] = ["name": "Mia", "at": 1, "junk": String(repeating: "x", count: 900_000)]
            let paddedChange = Changes.change(UUID(), "profile", mia.id, try JSONSerialization.data(withJSONObject: padded))
            let refused = try await api.push([paddedChange], token: mia.token)
            #expect(refused.accepted.isEmpty && refused.rejected.values.first == "badRequest")

            var generator = SystemRandomNumberGenerator()
            var last = Data()
            for round in 0..<140 {
                let avatar = Data([0x89, 0x50, 0x4E, 0x47] + (4..<ProfileRecord.maxAvatarBytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
                let change = Changes.record("profile", mia.id, ProfileRecord(name: "Mia", avatarPNG: avatar, at: Int64(round + 1)))
                #expect(try JSONSerialization.data(withJSONObject: change).count > 64 * 1024)
                let pushed = try await api.push([change], token: mia.token)
                #expect(pushed.accepted.count == 1, "round \(round): \(pushed.rejected)")
                last = avatar
            }
            // Ole's pages show Mia's latest picture; another teacher's
            // browser gets none of it.
            func browser(_ token: String) -> WebGalleryTests.Browser {
                let browser = WebGalleryTests.Browser(api.client)
                browser.cookies[WebCookies.session] = token
                return browser
            }
            let picture = try await browser(ole.token).get("/gallery/people/\(mia.id)/picture.png")
            #expect(picture.status == .ok && picture.body == [UInt8](last))
            let (_, kurz) = try await api.teacher("Herr Kurz")
            #expect(try await browser(kurz).get("/gallery/people/\(mia.id)/picture.png").status == .notFound)
            #expect(try await browser(berg).get("/gallery/classes/\(klass.id)").text.contains("/gallery/people/\(mia.id)/picture.png"))
            let stored = try await api.database.query("SELECT COUNT(*) AS n FROM profileState")
            #expect(try stored.first?.int("n") == 1, "one current profile, not 140")
        }
    }

    /// A sketch takes as many drawing steps as a laptop can open, and no
    /// more: the next op is refused with the reason, the sketch is whole.
    @Test(arguments: Backend.allCases)
    func aSketchTakesNoMoreOpsThanALaptopCanOpen(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            #expect(try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token).accepted.count == 2)
            // As if she had drawn all but two of them already.
            try await api.database.execute("UPDATE sketch SET opCount = ? WHERE id = ?",
                                           [.int(Int64(SketchLimits.maxOps) - 2), .text(sketch.key)])
            let strokes = (0..<3).map { Changes.stroke(sketch, x: Double(200 + $0)) }
            let pushed = try await api.push(strokes, token: mia.token)
            #expect(pushed.accepted.count == 2 && pushed.rejected.values.first == "conflict", "\(pushed.rejected)")
            let listed = try await api.call(.get, "/sketches", token: mia.token).array
            #expect(listed.first?["opCount"] as? Int == SketchLimits.maxOps)
        }
    }
}
