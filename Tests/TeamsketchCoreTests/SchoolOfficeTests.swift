import Foundation
import LearnModel
import TeamsketchCore
import Testing

/// A school server the test plays: classes with their pupils, and the
/// pupil at whom it stops taking new pictures.
actor PlayedSchool {
    var classes: [SchoolOffice.SchoolClass] = []
    var pupils: [SchoolClassID: [SchoolOffice.Pupil]] = [:]
    var pictures: [AccountID: [Int]] = [:]
    var refusesPicturesOf: AccountID?

    func add(_ schoolClass: SchoolOffice.SchoolClass, _ names: [String]) {
        classes.append(schoolClass)
        pupils[schoolClass.id] = names.map { .init(id: AccountID(UUID()), name: $0, hasPicturePassword: false) }
    }

    func addPupil(_ name: String, to classID: SchoolClassID) -> AccountID {
        let id = AccountID(UUID())
        pupils[classID, default: []].append(.init(id: id, name: name, hasPicturePassword: false))
        return id
    }

    func setPictures(_ chosen: [Int], of pupil: AccountID) throws {
        if pupil == refusesPicturesOf { throw SchoolOffice.Refusal.connection(.unreachable("test")) }
        pictures[pupil] = chosen
    }

    func refusePictures(of pupil: AccountID) { refusesPicturesOf = pupil }

    nonisolated var office: SchoolOffice {
        var office = SchoolOffice.signedOut
        office.classes = { archived in await self.classes.filter { archived || !$0.archived } }
        office.pupils = { id in await self.pupils[id] ?? [] }
        office.addPupil = { name, id in await self.addPupil(name, to: id) }
        office.setPictures = { chosen, pupil in try await self.setPictures(chosen, of: pupil) }
        return office
    }
}

@Suite struct SchoolOfficeTests {
    @Test func theRosterHoldsEveryPupilOfEveryClassArchivedOnesToo() async throws {
        let school = PlayedSchool()
        await school.add(.init(id: "C1", name: "2b", pupilCount: 2), ["Mia", "Ben"])
        await school.add(.init(id: "C2", name: "4a (old)", pupilCount: 1, archived: true), ["Ole"])
        let roster = try await school.office.roster()
        #expect(roster.map(\.name).sorted() == ["Ben", "Mia", "Ole"])
        #expect(Set(roster.map(\.classID)) == ["c1", "c2"], "class ids as the grades carry them")
    }

    @Test func aClassListIsAddedByTheImportRule() async throws {
        let school = PlayedSchool()
        await school.add(.init(id: "C1", name: "2b", pupilCount: 1), ["Mia"])
        let outcome = try await school.office.importRoster(["MIA", "Ben"], into: "C1")
        #expect(outcome == .init(added: 1, wanted: 1, already: ["MIA"]))
        #expect(await school.pupils["C1"]?.map(\.name) == ["Mia", "Ben"])
    }

    @Test func newPicturesStopAtTheFirstRefusalAndOnlyThoseGivenAreReturned() async throws {
        let school = PlayedSchool()
        await school.add(.init(id: "C1", name: "2b", pupilCount: 3), ["Mia", "Ben", "Ole"])
        let pupils = try #require(await school.pupils["C1"])
        await school.refusePictures(of: pupils[1].id)
        let given = try await school.office.newPictures(pupils.map { ($0, [1, 2, 3]) })
        #expect(given.map(\.pupil.name) == ["Mia"], "Ole is not tried after Ben was refused; only Mia's card is printed")
        #expect(await school.pictures.keys.sorted() == [pupils[0].id])
    }

    @Test func signedOutNothingIsAskedAndTheWindowIsToldSo() async {
        let office = SchoolOffice.signedOut
        await #expect(throws: SchoolOffice.NoTeacher.self) { try await office.roster() }
        let mia = SchoolOffice.Pupil(id: "p", name: "Mia", hasPicturePassword: false)
        await #expect(throws: SchoolOffice.NoTeacher.self) { try await office.newPictures([(mia, [1, 2, 3])]) }
    }
}
