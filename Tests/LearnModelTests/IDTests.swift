import Foundation
import LearnModel
import Testing

@Suite struct IDTests {
    @Test func aUUIDIsItsLowercaseTextHoweverItWasSpelled() throws {
        let uuid = try #require(UUID(uuidString: "6F1C2A4E-0000-4000-8000-0000000000AB"))
        let made = SchoolClassID(uuid)
        #expect(made.text == "6f1c2a4e-0000-4000-8000-0000000000ab")
        #expect(SchoolClassID("6F1C2A4E-0000-4000-8000-0000000000AB") == made)
        #expect(Set([made, SchoolClassID(made.text.uppercased())]).count == 1)
        #expect(made.uuid == uuid)
    }

    @Test func otherTextIsLowercasedToo() {
        let id = AccountID("Pupil-7")
        #expect(id.text == "pupil-7")
        #expect(id == AccountID("pupil-7"))
        #expect(id != AccountID("pupil-8"))
        #expect(id.uuid == nil)
    }

    @Test func itTravelsAsPlainText() throws {
        struct Stored: Codable, Equatable { var classID: SchoolClassID?; var account: AccountID }
        let stored = Stored(classID: "6f1c2a4e-0000-4000-8000-000000000001", account: "a1")
        let json = try JSONEncoder().encode(stored)
        #expect(String(decoding: json, as: UTF8.self).contains("\"classID\":\"6f1c2a4e-0000-4000-8000-000000000001\""))
        #expect(try JSONDecoder().decode(Stored.self, from: json) == stored)
        // What an earlier version wrote (plain strings) reads the same.
        let earlier = Data(#"{"classID":"6F1C2A4E-0000-4000-8000-000000000001","account":"A1"}"#.utf8)
        #expect(try JSONDecoder().decode(Stored.self, from: earlier) == stored)
    }

    @Test func anIdFromAFileOrTheNetworkIsCheckedBeforeItIsKept() {
        #expect(AccountID(wire: "") == nil)
        #expect(AccountID(wire: String(repeating: "x", count: AccountID.maxLength + 1)) == nil)
        #expect(AccountID(wire: String(repeating: "X", count: AccountID.maxLength))?.text
                == String(repeating: "x", count: AccountID.maxLength))
        #expect(SchoolClassID(wire: "6F1C2A4E-0000-4000-8000-000000000001") == "6f1c2a4e-0000-4000-8000-000000000001")
        // "İ" lowercases to two code points: the wire form, not the text
        // read, must fit.
        let growing = String(repeating: "İ", count: AccountID.maxLength / 2)
        #expect(growing.utf8.count <= AccountID.maxLength)
        #expect(AccountID(wire: growing) == nil)
    }

    @Test func anEmptyOrOverlongIdIsRefusedWhenRead() {
        for text in ["", String(repeating: "x", count: AccountID.maxLength + 1)] {
            let json = Data("[\"\(text)\"]".utf8)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode([AccountID].self, from: json) }
        }
        let longest = String(repeating: "x", count: AccountID.maxLength)
        #expect((try? JSONDecoder().decode([AccountID].self, from: Data("[\"\(longest)\"]".utf8))) == [AccountID(longest)])
    }
}
