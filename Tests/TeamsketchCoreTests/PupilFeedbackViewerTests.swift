import Foundation
import LearnModel
import Testing
import TeamsketchCore

@Suite struct PupilFeedbackViewerTests {
    let mia: AccountID = "6a1d9b2e-2222-4c3d-8e4f-5a6b7c8d9e0f"

    @Test func aTeacherSignedInSeesNoPupilsFeedbackHere() {
        let now = Date()
        func signIn(teacher: Bool, expires: Date) -> SchoolSignIn {
            SchoolSignIn(server: "https://s", accountID: mia, name: "Mia", isTeacher: teacher, token: "t", expiresAt: expires)
        }
        #expect(PupilFeedback.Viewer.current(signIn: signIn(teacher: true, expires: now + 60), profileName: "X", now: now) == nil)
        #expect(PupilFeedback.Viewer.current(signIn: signIn(teacher: false, expires: now + 60), profileName: "X", now: now)
                == .init(accountID: mia, name: "Mia"))
        #expect(PupilFeedback.Viewer.current(signIn: nil, profileName: "Ben", now: now) == .init(accountID: nil, name: "Ben"))
    }
}
