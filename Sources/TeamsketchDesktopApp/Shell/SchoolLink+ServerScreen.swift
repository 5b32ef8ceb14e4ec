import Foundation
import TeamsketchCore

extension SchoolLink {
    /// The school link as the school server screen sees it, with the rules
    /// of setting a laptop up for a class.
    func serverScreenLink(preferences: DevicePreferences) -> SchoolServerScreen.Link {
        SchoolServerScreen.Link(
            signIn: { [unowned self] in signIn },
            status: { [unowned self] in status },
            lastServer: { [unowned self] in lastServer },
            signInAt: { [unowned self] addresses, name, password, done in
                signIn(addresses: addresses, name: name, password: password, done: done)
            },
            signOut: { [unowned self] in signOut() },
            syncNow: { [unowned self] in syncNow() },
            classes: { [unowned self] in try? await office.classes(false) },
            belong: { [unowned self] schoolClass, signIn in
                let outcome = await classSetUp(preferences: preferences, signIn: signIn).belong(to: schoolClass)
                if case .done = outcome {
                    FileHandle.standardError.write(Data("set up for class: \(schoolClass.id)\n".utf8))
                }
                return outcome
            },
            leaveSetUp: { [unowned self] in
                classSetUp(preferences: preferences, signIn: signIn).leave(problem: logProblem)
            })
    }

    /// `ClassSetUp` over this link and the device's preferences, for the
    /// teacher `signIn` (nil: nobody, and no class's code is given).
    private func classSetUp(preferences: DevicePreferences, signIn: SchoolSignIn?) -> ClassSetUp {
        ClassSetUp(introduce: { [unowned self] code in
                       guard let signIn else { return false }
                       return await introduceDevice(toClassCode: code, of: signIn)
                   },
                   save: { id in
                       guard let signIn else { throw SchoolOffice.NoTeacher() }
                       try preferences.belongToClass(id, of: signIn)
                   },
                   hasClass: { preferences.device.classID != nil },
                   signOut: { [unowned self] in signOut() },
                   forgetSchool: { try preferences.forgetSchool() })
    }
}
