import Foundation
import TeamsketchCore
import Testing

@Suite struct RosterImportTests {
    struct Refused: Error {}

    /// A class on a server the test plays: its names, and the name at which
    /// it stops taking pupils.
    actor FakeClass {
        var names: [String]
        let stopsAt: String?
        init(_ names: [String], stopsAt: String? = nil) { self.names = names; self.stopsAt = stopsAt }
        func add(_ name: String) throws {
            if name == stopsAt { throw Refused() }
            names.append(name)
        }
    }

    @Test func namesAlreadyInTheClassAreLeftOutWhateverTheirCase() async throws {
        let schoolClass = FakeClass(["Mia", "Ben"])
        let outcome = try await RosterImport.run(["mia", "Ole", "BEN", "Ada"], present: { await schoolClass.names },
                                                 add: { try await schoolClass.add($0) })
        #expect(outcome == .init(added: 2, wanted: 2, already: ["mia", "BEN"]))
        #expect(await schoolClass.names == ["Mia", "Ben", "Ole", "Ada"])
        let again = try await RosterImport.run(["mia", "Ole", "BEN", "Ada"], present: { await schoolClass.names },
                                               add: { try await schoolClass.add($0) })
        #expect(again.added == 0 && again.wanted == 0, "the same list twice adds nobody twice")
    }

    @Test func theFirstRefusalStopsTheImportAndSaysHowManyGotIn() async throws {
        let schoolClass = FakeClass([], stopsAt: "Ole")
        let outcome = try await RosterImport.run(["Mia", "Ole", "Ada"], present: { await schoolClass.names },
                                                 add: { try await schoolClass.add($0) })
        #expect(outcome == .init(added: 1, wanted: 3, already: []))
        #expect(await schoolClass.names == ["Mia"], "Ada is not tried after Ole was refused")
    }

    @Test func aClassThatCannotBeListedAddsNobody() async {
        let schoolClass = FakeClass([])
        await #expect(throws: Refused.self) {
            try await RosterImport.run(["Mia"], present: { throw Refused() }, add: { try await schoolClass.add($0) })
        }
        #expect(await schoolClass.names.isEmpty)
    }
}
