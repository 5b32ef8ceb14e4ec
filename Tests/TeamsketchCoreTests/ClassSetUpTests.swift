import Foundation
import LearnModel
import TeamsketchCore
import Testing

/// A laptop being set up for a class, with a server the test plays.
@MainActor
final class SetUpLaptop {
    var codesTaken: Set<String> = ["ABCD-EFGH"]
    var codesGiven: [String] = []
    var saved: SchoolClassID?
    var savingFails = false
    var signedIn = true
    var serverRemembered = true

    struct DiskFull: Error {}

    var setUp: ClassSetUp {
        ClassSetUp(
            introduce: { code in self.codesGiven.append(code); return self.codesTaken.contains(code) },
            save: { id in if self.savingFails { throw DiskFull() }; self.saved = id },
            hasClass: { self.saved != nil },
            signOut: { self.signedIn = false },
            forgetSchool: { self.serverRemembered = false })
    }
}

@MainActor @Suite struct ClassSetUpTests {
    let twoB = SchoolOffice.SchoolClass(id: "c-2b", name: "2b", pupilCount: 20, code: "ABCD-EFGH")

    @Test func aClassTheServerTakesIsSavedAndTheTeacherSignedOut() async {
        let laptop = SetUpLaptop()
        guard case .done = await laptop.setUp.belong(to: twoB) else { Issue.record("not set up"); return }
        #expect(laptop.codesGiven == ["ABCD-EFGH"])
        #expect(laptop.saved == "c-2b")
        #expect(!laptop.signedIn, "the start screen waits for the children")
    }

    @Test func aClassTheServerRefusesOrWithoutACodeChangesNothing() async {
        let laptop = SetUpLaptop()
        var unknown = twoB
        unknown.code = "ZZZZ-ZZZZ"
        var codeless = twoB
        codeless.code = nil
        for schoolClass in [unknown, codeless] {
            guard case .refused = await laptop.setUp.belong(to: schoolClass) else { Issue.record("not refused"); return }
        }
        #expect(laptop.codesGiven == ["ZZZZ-ZZZZ"], "a class without a code is not asked about")
        #expect(laptop.saved == nil && laptop.signedIn)
    }

    @Test func aChoiceThatCannotBeSavedKeepsTheTeacherSignedInToTryAgain() async {
        let laptop = SetUpLaptop()
        laptop.savingFails = true
        guard case .notSaved(let error) = await laptop.setUp.belong(to: twoB) else { Issue.record("saved"); return }
        #expect(error is SetUpLaptop.DiskFull)
        #expect(laptop.saved == nil && laptop.signedIn)
    }

    @Test func leavingBeforeAClassWasChosenAsksTheFirstQuestionAgain() {
        let laptop = SetUpLaptop()
        var problems: [any Error] = []
        #expect(laptop.setUp.leave { problems.append($0) })
        #expect(!laptop.signedIn && !laptop.serverRemembered && problems.isEmpty)
    }

    @Test func leavingALaptopThatHasAClassChangesNothing() async {
        let laptop = SetUpLaptop()
        _ = await laptop.setUp.belong(to: twoB)
        laptop.signedIn = true
        #expect(!laptop.setUp.leave { _ in })
        #expect(laptop.signedIn && laptop.serverRemembered)
    }
}
