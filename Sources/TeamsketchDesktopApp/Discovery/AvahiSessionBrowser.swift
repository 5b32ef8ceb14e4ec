import CAvahi
import LearnModel

/// Team Sketch sessions (`_teamsketch._tcp`) as DiscoveryFindings: the
/// session meaning of what `AvahiBrowser` resolves.
@MainActor
final class AvahiSessionBrowser {
    var status: MechanismStatus { browser.status }
    var onFinding: ((DiscoveryFinding) -> Void)?
    var onRemoved: ((_ sessionID: String, _ host: String) -> Void)?
    var onChange: (() -> Void)? {
        get { browser.onChange }
        set { browser.onChange = newValue }
    }

    private let browser = AvahiBrowser(serviceType: AvahiPublisher.serviceType)
    private var sessionsByInstance: [AvahiBrowser.Instance: (sessionID: String, host: String)] = [:]

    init() {
        browser.onResolved = { [weak self] in self?.resolved($0) }
        browser.onGone = { [weak self] in self?.gone($0) }
    }

    func attach(_ client: OpaquePointer) { browser.attach(client) }

    /// Reports every session it had found as removed.
    func detach() { browser.detach() }

    private func resolved(_ r: AvahiBrowser.ResolvedService) {
        guard let a = DiscoveryTXT.announcement(from: r.txt, port: Int(r.port)) else {
            // Not (or no longer) a usable session: a foreign service using our
            // type, or a TXT record that lost a field.
            gone(r.instance)
            return
        }
        if let old = sessionsByInstance[r.instance], old != (a.sessionID, r.host) { onRemoved?(old.sessionID, old.host) }
        sessionsByInstance[r.instance] = (a.sessionID, r.host)
        onFinding?(DiscoveryFinding(mechanism: .dnssd, announcement: a, host: r.host, seen: .now))
    }

    private func gone(_ instance: AvahiBrowser.Instance) {
        if let gone = sessionsByInstance.removeValue(forKey: instance) { onRemoved?(gone.sessionID, gone.host) }
    }
}
