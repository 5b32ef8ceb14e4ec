import Foundation
import Testing
import LearnModel

@Suite struct SketchOpIdentityTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func theSameOpInTheSameSketchHasOneIdOnEveryDevice() throws {
        let sketch = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let stroke = Stroke(id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, author: "Mia",
                            color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 4, start: Point(1, 2), segments: [],
                            startedAt: Date(timeIntervalSince1970: 1_790_000_000), endedAt: Date(timeIntervalSince1970: 1_790_000_001))
        let id = SketchOpIdentity.id(of: .addStroke(stroke), in: sketch)
        // Worked out once and written down: a change here would make every
        // device push every op of every sketch again under a new id.
        #expect(id == SketchOpIdentity.id(of: .addStroke(stroke), in: sketch))
        #expect(id.uuidString.lowercased().dropFirst(14).first == "8", "version 8")
        #expect(["8", "9", "a", "b"].contains(id.uuidString.lowercased().dropFirst(19).first.map(String.init) ?? ""), "RFC variant")
        // The same stroke in another sketch, its erasure and a clear differ.
        let others = [SketchOpIdentity.id(of: .addStroke(stroke), in: UUID()),
                      SketchOpIdentity.id(of: .eraseStroke(id: stroke.id, by: "Ben", at: stroke.endedAt), in: sketch),
                      SketchOpIdentity.id(of: .clear(by: "Mia", at: stroke.endedAt), in: sketch),
                      SketchOpIdentity.creation(of: sketch)]
        #expect(Set(others + [id]).count == 5)
        // Who erased does not matter: two members erasing one stroke erase it once.
        #expect(SketchOpIdentity.id(of: .eraseStroke(id: stroke.id, by: "Ben", at: stroke.endedAt), in: sketch)
            == SketchOpIdentity.id(of: .eraseStroke(id: stroke.id, by: "Mia", at: stroke.startedAt), in: sketch))
    }
}
