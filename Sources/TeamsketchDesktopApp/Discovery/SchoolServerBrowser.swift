import CAvahi
import LearnModel

/// Finds school servers on the LAN (`_teamsketch-server._tcp`, announced by
/// `TeamsketchServer serve`), for `find-servers` and the "choose server"
/// screen. Keeps its own Avahi connection, so it works without a lobby's
/// DiscoveryService, and heals across daemon restarts like the lobby does.
///
/// Runs on the main actor, which is the GLib main loop (MainQueueBridge
/// must be installed, as the app and the CLI loops do).
@MainActor
package final class SchoolServerBrowser {
    /// Servers in first-seen order, each address once however many
    /// interfaces it is heard on.
    package var servers: [SchoolServerAddress] {
        var seen = Set<SchoolServerAddress>()
        return found.map(\.address).filter { seen.insert($0).inserted }
    }
    /// DNS-SD's state, for the screen to say why the list is empty.
    package var status: MechanismStatus {
        guard let connection else { return .off }
        return connection.client != nil ? browser.status : connection.status
    }
    /// Called after `servers` or `status` changed.
    package var onChange: (() -> Void)?

    private let browser = AvahiBrowser(serviceType: SchoolServerTXT.serviceType)
    private var connection: AvahiConnection?
    private var found: [(instance: AvahiBrowser.Instance, address: SchoolServerAddress)] = []

    package init() {
        browser.onResolved = { [weak self] in self?.resolved($0) }
        browser.onGone = { [weak self] in self?.gone($0) }
        browser.onChange = { [weak self] in self?.onChange?() }
    }

    package func start() {
        guard connection == nil else { return }
        let c = AvahiConnection()
        c.onChange = { [weak self] in self?.connectionChanged() }
        connection = c
        c.start()
    }

    package func stop() {
        guard let c = connection else { return }
        connection = nil
        c.onChange = nil
        browser.detach()
        c.stop()
        found = []
        onChange?()
    }

    private func connectionChanged() {
        if let client = connection?.client {
            browser.attach(client)
        } else {
            browser.detach()
        }
        onChange?()
    }

    private func resolved(_ r: AvahiBrowser.ResolvedService) {
        let address = SchoolServerTXT.address(name: r.instance.name, host: r.host, port: Int(r.port), txt: r.txt)
        if let i = found.firstIndex(where: { $0.instance == r.instance }) {
            if let address { found[i].address = address } else { found.remove(at: i) }
        } else if let address {
            found.append((r.instance, address))
        } else {
            // Our type with records we cannot trust: nothing to show.
            return
        }
        onChange?()
    }

    private func gone(_ instance: AvahiBrowser.Instance) {
        guard let i = found.firstIndex(where: { $0.instance == instance }) else { return }
        found.remove(at: i)
        onChange?()
    }
}
