import CAvahi
import LearnModel

enum AvahiError {
    /// Avahi's own words for an error code, for the diagnostics view.
    static func text(_ code: Int32) -> String {
        avahi_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// No daemon and a lost daemon look the same to a pupil: DNS-SD is off
    /// until it comes back.
    static func problem(_ code: Int32) -> MechanismProblem {
        switch Int(code) {
        case AVAHI_ERR_NO_DAEMON, AVAHI_ERR_DISCONNECTED: .daemonNotRunning
        default: .failure(text(code))
        }
    }
}
