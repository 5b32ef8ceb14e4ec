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
                await belong(to: schoolClass, signIn: signIn, preferences: preferences)
            },
            leaveSetUp: { [unowned self] in
                // Without a class chosen, the first start's question comes
                // again, with the teacher signed out and the server
                // forgotten (a sign-in remembers it): asked until answered.
                guard preferences.device.classID == nil else { return false }
                signOut()
                logProblems { try preferences.forgetSchool() }
                return true
            })
    }

    /// The class's code is given to the server as a pupil would type it,
    /// so this laptop may list the class's names; the choice is saved and
    /// the teacher signed out, so the start screen waits for the children.
    private func belong(to schoolClass: SchoolOffice.SchoolClass, signIn: SchoolSignIn,
                        preferences: DevicePreferences) async -> SchoolServerScreen.ClassSetUp {
        guard let code = schoolClass.code, await introduceDevice(toClassCode: code, of: signIn) else { return .refused }
        do {
            try preferences.belongToClass(schoolClass.id, of: signIn)
        } catch {
            return .notSaved(error)
        }
        FileHandle.standardError.write(Data("set up for class: \(schoolClass.id)\n".utf8))
        signOut()
        return .done
    }
}
