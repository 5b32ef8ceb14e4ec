import CGtk
import Foundation
import TeamsketchCore

/// The door to the teacher's window on a machine without a school server:
/// a number pad with big keys (touch screens have no keyboard out), dots
/// for the digits typed. Choosing a PIN asks for it twice. The keyboard's
/// digits, Backspace and Enter work as well.
@MainActor
final class TeacherPINScreen {
    enum Mode { case enter, choose }

    let widget: Widget
    private let dots: Widget
    private let message: Widget
    private var digits = ""
    private var firstChoice: String?
    /// Which "please wait" count is the current one.
    private var countdowns = 0
    private let mode: Mode
    private weak var door: TeacherDoor?
    private weak var nav: (any Navigator)?

    init(door: TeacherDoor, mode: Mode, nav: any Navigator) {
        self.door = door
        self.nav = nav
        self.mode = mode
        dots = UI.label("", classes: ["pin-dots"])
        message = UI.label("", classes: ["form-message"])
        gtk_label_set_wrap(ts_label(message), 1)
        gtk_label_set_max_width_chars(ts_label(message), 40)
        gtk_label_set_justify(ts_label(message), GTK_JUSTIFY_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(widget)
        let title = mode == .enter ? `_`("Teacher PIN") : `_`("Choose a teacher PIN")
        UI.append(widget, UI.label(title, classes: ["home-title"]))
        UI.accessibleLabel(dots, `_`("Digits typed"))
        UI.append(widget, dots)
        UI.append(widget, message)
        if mode == .choose {
            UI.setText(message, `_`("4 to 8 digits. Only you should know it: it opens the classroom settings on this computer."))
        }
        UI.append(widget, pad())
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak nav] in nav?.showHome() }
        gtk_widget_set_halign(back, GTK_ALIGN_CENTER)
        UI.append(widget, back)
        installKeys()
        showDots()
    }

    private func pad() -> Widget {
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(grid), 12)
        gtk_grid_set_column_spacing(ts_grid(grid), 12)
        gtk_widget_set_halign(grid, GTK_ALIGN_CENTER)
        for n in 1...9 {
            gtk_grid_attach(ts_grid(grid), key(String(n)), Int32((n - 1) % 3), Int32((n - 1) / 3), 1, 1)
        }
        let erase = UI.iconButton("edit-clear-symbolic", tooltip: `_`("Delete the last digit"), classes: ["pin-key"]) {
            [weak self] in self?.deleteDigit()
        }
        gtk_grid_attach(ts_grid(grid), erase, 0, 3, 1, 1)
        gtk_grid_attach(ts_grid(grid), key("0"), 1, 3, 1, 1)
        let ok = UI.iconButton("object-select-symbolic", tooltip: `_`("OK"), classes: ["pin-key", "suggested-action"]) {
            [weak self] in self?.submit()
        }
        gtk_grid_attach(ts_grid(grid), ok, 2, 3, 1, 1)
        return grid
    }

    private func key(_ digit: String) -> Widget {
        let b = UI.button(digit, classes: ["pin-key"]) { [weak self] in self?.type(digit) }
        UI.accessibleLabel(b, digit)
        return b
    }

    private func installKeys() {
        let keys = gtk_event_controller_key_new()!
        // Before any focused button: Return submits, it does not press "Back".
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _ in
            guard let self else { return false }
            switch Int32(keyval) {
            case GDK_KEY_BackSpace: self.deleteDigit()
            case GDK_KEY_Return, GDK_KEY_KP_Enter: self.submit()
            default:
                guard let scalar = Unicode.Scalar(gdk_keyval_to_unicode(keyval)), ("0"..."9").contains(Character(scalar))
                else { return false }
                self.type(String(Character(scalar)))
            }
            return true
        }
        gtk_widget_add_controller(widget, keys)
    }

    func focus() { gtk_widget_grab_focus(widget) }

    private func type(_ digit: String) {
        guard digits.count < TeacherPIN.lengths.upperBound else { return }
        digits += digit
        showDots()
    }

    private func deleteDigit() {
        if !digits.isEmpty { digits.removeLast() }
        showDots()
    }

    private func showDots() {
        UI.setText(dots, digits.isEmpty ? " " : String(repeating: "●", count: digits.count))
    }

    /// "Please wait N seconds" counts down and then says the PIN may be
    /// typed again, rather than staying on screen after it stopped being
    /// true. A newer count replaces an older one.
    private func countDown(from seconds: Int) {
        countdowns += 1
        let mine = countdowns, ends = Date().addingTimeInterval(Double(seconds))
        let show: @MainActor () -> Bool = { [weak self] in
            guard let self, self.countdowns == mine else { return false }
            let left = Int(ends.timeIntervalSinceNow.rounded(.up))
            guard left > 0 else {
                UI.setText(self.message, `_`("You can type the PIN again."))
                FileHandle.standardError.write(Data("teacher PIN: the wait is over\n".utf8))
                return false
            }
            UI.setText(self.message, String(format: _n("Too many tries. Please wait %d second.", "Too many tries. Please wait %d seconds.", left), left))
            return true
        }
        FileHandle.standardError.write(Data("teacher PIN: please wait \(seconds) s\n".utf8))
        if show() { runEvery(ms: 1000, show) }
    }

    private func submit() {
        guard let door else { return }
        let entered = digits
        digits = ""
        showDots()
        switch mode {
        case .enter:
            door.unlock(pin: entered) { [weak self] answer in
                guard let self else { return }
                switch answer {
                case .open: break
                case .wrong: UI.setText(self.message, `_`("That is not the PIN."))
                case .wait(let seconds): self.countDown(from: seconds)
                }
            }
        case .choose:
            guard TeacherPIN.isWellFormed(entered) else {
                return UI.setText(message, `_`("A PIN has 4 to 8 digits."))
            }
            guard let first = firstChoice else {
                firstChoice = entered
                return UI.setText(message, `_`("Type the same PIN again."))
            }
            guard first == entered else {
                firstChoice = nil
                return UI.setText(message, `_`("The two PINs were not the same. Please start again."))
            }
            door.choosePIN(entered)
        }
    }
}
