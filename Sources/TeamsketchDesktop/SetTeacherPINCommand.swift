import ArgumentParser
import Foundation
import TeamsketchCore
import TeamsketchCommandSupport

/// `TeamsketchDesktop set-teacher-pin`: the school's IT sets (or changes)
/// the PIN that opens the teacher's window and closes a kiosk, for the user
/// account it runs as. A kiosk whose closing needs the PIN offers no PIN to
/// choose on its screen, where anyone walks by; this is how it gets one.
/// The PIN (4 to 8 digits) is read from the first line of stdin, so it is
/// never in the shell's history or the process list.
struct SetTeacherPINCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-teacher-pin",
        abstract: "Set the teacher's PIN for this user account (read from stdin).")

    func run() throws {
        let line = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
        guard let pin = TeacherPIN.make(line) else {
            throw CLIFailure(message: "The PIN is 4 to 8 digits, on the first line of stdin.")
        }
        let failure: PreferencesError? = MainActor.assumeIsolated {
            do throws(PreferencesError) { try DevicePreferences.live().setTeacherPIN(pin) } catch { return error }
            return nil
        }
        if let failure { throw CLIFailure(message: "The PIN could not be saved: \(failure)") }
        print("The teacher's PIN is set.")
    }
}
