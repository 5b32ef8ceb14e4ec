import Foundation
import Testing
import TeamsketchCore

@Test func profileKeepsNameAndSoundsThroughJSON() throws {
    let p = Profile(name: "Mia", soundsOn: false)
    let back = try JSONDecoder().decode(Profile.self, from: JSONEncoder().encode(p))
    #expect(back.name == "Mia")
    #expect(back.soundsOn == false)
}
