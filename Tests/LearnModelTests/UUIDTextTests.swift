import Foundation
import LearnModel
import Testing

@Suite struct UUIDTextTests {
    @Test func writesWhatFoundationWritesInLowercase() {
        var generator = SystemRandomNumberGenerator()
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
                     UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!]
        let random = (0..<2_000).map { _ -> UUID in
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            return bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        }
        for id in edges + random {
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(UUID(text: id.lowercasedText) == id)
            #expect(UUID(text: id.uuidString) == id, "upper case reads too")
        }
        #expect(UUID(text: "6f9619ff-8b86-D011-b42d-00C04fc964ff") == edges[2], "mixed case")
        #expect(UUID(text: Substring("x6f9619ff-8b86-d011-b42d-00c04fc964ff".dropFirst())) == edges[2])
    }

    @Test func readsNothingButThirtySixCharactersInTheirPlaces() {
        let good = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
        #expect(UUID(text: good) != nil)
        let bad = [
            "", "6f9619ff", good + "0", String(good.dropLast()), " " + String(good.dropFirst()),
            "6f9619ff8b86-d011-b42d-00c04fc964ff0", // a dash moved
            "6f9619ff-8b86-d011-b42d_00c04fc964ff", // another separator
            "6f9619fg-8b86-d011-b42d-00c04fc964ff", // not hex
            "6f9619f -8b86-d011-b42d-00c04fc964ff", // a space in a pair
            "+f9619ff-8b86-d011-b42d-00c04fc964ff", // a sign scanf would take
            "6f9619ff-8b86-d011-b42d-00c04fc964f\u{00e9}", // not ASCII: 37 bytes
            "6f9619ff-8b86-d011-b42d-00c04fc964\u{0660}\u{0660}", // Arabic-Indic digits
        ]
        for text in bad {
            #expect(UUID(text: text) == nil, "\(text)")
        }
    }

    /// Records that name ids read them the same strict way the server
    /// does: Foundation's reader took a leading sign, so a grade could
    /// pass this check and then miss the one that ties its id to its work.
    @Test func gradesAndErasuresNameIdsReadTheSameStrictWay() {
        let work = UUID().lowercasedText, pupil = UUID().lowercasedText
        let signed = "+" + work.dropFirst()
        #expect(GradeRecord(target: .sketch, targetId: GradedWorkID(work), pupilId: AccountID(pupil), grade: 2, comment: "", at: 1).problem == nil)
        #expect(GradeRecord(target: .sketch, targetId: GradedWorkID(signed), pupilId: AccountID(pupil), grade: 2, comment: "", at: 1).problem != nil)
        #expect(GradeRecord(target: .sketch, targetId: GradedWorkID(work), pupilId: AccountID("+" + pupil.dropFirst()), grade: 2, comment: "", at: 1)
            .problem != nil)
    }
}
