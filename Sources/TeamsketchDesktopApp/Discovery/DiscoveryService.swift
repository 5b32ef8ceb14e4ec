import Foundation
import LearnModel
import LearnNet

/// Every discovery mechanism at once, for the lobby: DNS-SD through Avahi,
/// the UDP beacon, and join codes. Browsing (`start`) and announcing
/// (`announce`) are independent: a hosting app announces, a joining app
/// browses, the headless `host` command only announces.
///
/// Runs on the main actor, which is the GLib main loop (MainQueueBridge
/// must be installed, as the app and the CLI loops do).
@MainActor
package final class DiscoveryService {
    package struct Options: Sendable {
        var dnssd = true
        /// nil: no beacon.
        var beacon: BeaconConfiguration? = .standard

        package init(dnssd: Bool = true, beacon: BeaconConfiguration? = .standard) {
            self.dnssd = dnssd
            self.beacon = beacon
        }
    }

    let options: Options
    /// Nearby sessions in first-seen order, without our own.
    package var sessions: [DiscoveredSession] {
        list.sessions.filter { $0.sessionID != announcement?.sessionID }
    }
    /// Every mechanism's state, for the diagnostics view.
    package private(set) var status: [DiscoveryMechanism: MechanismStatus] = [:]
    /// What we announce, if anything.
    private(set) var announcement: SessionAnnouncement?
    /// Called after `sessions` or `status` changed.
    package var onChange: (() -> Void)?
    /// The individual changes, for the CLI's line-per-event output.
    package var onChanges: (([DiscoveryChange]) -> Void)?

    private var list: DiscoveryList
    private var browsing = false
    private var avahi: AvahiConnection?
    private let browser = AvahiSessionBrowser()
    private let publisher = AvahiPublisher()
    private var listener: BeaconListener?
    private var announcer: BeaconAnnouncer?
    private var listenerStatus: MechanismStatus = .off
    private var announcerStatus: MechanismStatus = .off
    private var sweepGeneration = 0
    private var redrawPending = false

    package init(options: Options = Options()) {
        self.options = options
        list = DiscoveryList(lifetimes: [.beacon: (options.beacon ?? .standard).lifetime],
                             localHosts: Self.ownAddresses())
        browser.onFinding = { [weak self] in self?.apply(self?.list.record($0)) }
        browser.onRemoved = { [weak self] id, host in
            self?.apply(self?.list.remove(sessionID: id, mechanism: .dnssd, host: host))
        }
        browser.onChange = { [weak self] in self?.refreshStatus() }
        publisher.onChange = { [weak self] in self?.refreshStatus() }
        refreshStatus()
    }

    // MARK: - Browsing

    package func start() {
        guard !browsing else { return }
        browsing = true
        if options.beacon != nil { listenerStatus = .starting }
        if options.dnssd {
            connectAvahi()
            if let client = avahi?.client { browser.attach(client) }
        }
        if let config = options.beacon {
            let listener = BeaconListener(configuration: config) { event in
                Task { @MainActor [weak self] in self?.heard(event) }
            }
            self.listener = listener
            Task { @MainActor [weak self] in
                let s = await listener.start()
                guard let self, self.listener === listener else { return }
                self.listenerStatus = s
                self.refreshStatus()
            }
        }
        startSweeping()
        refreshStatus()
    }

    package func stop() {
        guard browsing else { return }
        browsing = false
        sweepGeneration += 1
        // Emptied first and silently: nothing went away, we stopped looking,
        // so no "lost" is reported for what the browser drops below.
        list = DiscoveryList(lifetimes: list.lifetimes, localHosts: Self.ownAddresses())
        browser.detach()
        if let listener { Task { await listener.stop() } }
        listener = nil
        listenerStatus = .off
        disconnectAvahiIfIdle()
        onChange?()
        refreshStatus()
    }

    // MARK: - Announcing

    /// Publishes the session (DNS-SD and beacon), or updates it: call again
    /// with `lobbyOpen: false` when the lobby closes.
    package func announce(_ a: SessionAnnouncement) {
        announcement = a
        if options.dnssd {
            // Publisher first, so a connection that is up at once finds
            // something to publish.
            publisher.publish(a)
            connectAvahi()
        }
        if let config = options.beacon {
            if announcer == nil {
                announcer = BeaconAnnouncer(configuration: config) { s in
                    Task { @MainActor [weak self] in
                        self?.announcerStatus = s
                        self?.refreshStatus()
                    }
                }
            }
            announcer?.announce(a)
        }
        refreshStatus()
    }

    /// Stops announcing; both mechanisms say goodbye so joiners drop the
    /// session at once.
    func withdraw() {
        announcement = nil
        publisher.withdraw()
        announcer?.withdraw()
        announcerStatus = .off
        disconnectAvahiIfIdle()
        refreshStatus()
    }

    /// Stops everything and waits until the beacon goodbye is on the wire:
    /// for commands that exit right after.
    package func shutdown() async {
        let announcer = self.announcer, listener = self.listener
        withdraw()
        stop()
        await announcer?.shutdown()
        await listener?.stop()
    }

    // MARK: - Joining by hand

    /// The addresses to try for what a user typed (a code or HOST:PORT).
    func joinCandidates(for input: JoinInput) -> [SessionAddress] {
        input.candidates(localAddresses: LocalInterfaces.current().addresses)
    }

    /// This machine's join code for a session on `port` (nil outside the
    /// session ports).
    package func ownJoinCode(port: Int) -> JoinCode? {
        JoinCode(host: LocalInterfaces.current().primaryAddress, port: port)
    }

    // MARK: - Internals

    private func connectAvahi() {
        guard avahi == nil else { return }
        let connection = AvahiConnection()
        connection.onChange = { [weak self] in self?.avahiChanged() }
        avahi = connection
        connection.start()
    }

    private func disconnectAvahiIfIdle() {
        guard !browsing, announcement == nil, let connection = avahi else { return }
        avahi = nil
        connection.onChange = nil
        browser.detach()
        publisher.detach()
        connection.stop()
    }

    private func avahiChanged() {
        guard let avahi else { return }
        if let client = avahi.client {
            if browsing { browser.attach(client) }
            publisher.attach(client)
        } else {
            browser.detach()
            publisher.detach()
            apply(list.removeAll(mechanism: .dnssd))
        }
        refreshStatus()
    }

    private func heard(_ event: BeaconEvent) {
        guard browsing else { return }
        switch event {
        case .heard(let finding): apply(list.record(finding))
        case .goodbye(let id, let host): apply(list.remove(sessionID: id, mechanism: .beacon, host: host))
        }
    }

    private func startSweeping() {
        sweepGeneration += 1
        let expected = sweepGeneration
        runEvery(ms: 250) { [weak self] in
            guard let self, self.sweepGeneration == expected else { return false }
            self.apply(self.list.expire(now: .now))
            return true
        }
    }

    private func apply(_ changes: [DiscoveryChange]?) {
        let visible = (changes ?? []).filter { change in
            switch change {
            case .found(let id, _), .updated(let id), .lost(let id, _): id != announcement?.sessionID
            }
        }
        guard !visible.isEmpty else { return }
        onChanges?(visible)
        scheduleRedraw()
    }

    /// The lobby redraws at most every 200 ms however many findings arrive:
    /// a flood of announcements must not keep the join screen from the
    /// pupil's taps.
    private func scheduleRedraw() {
        guard !redrawPending else { return }
        redrawPending = true
        _ = runAfter(ms: 200) { [weak self] in
            self?.redrawPending = false
            self?.onChange?()
        }
    }

    /// This device's addresses: a session hosted here and heard on several
    /// of them is one card.
    private static func ownAddresses() -> Set<String> {
        Set(LocalInterfaces.current().addresses.map(\.description))
    }

    private func refreshStatus() {
        var s: [DiscoveryMechanism: MechanismStatus] = [:]
        if !options.dnssd {
            s[.dnssd] = .off
        } else if let avahi, avahi.client != nil {
            var parts: [MechanismStatus] = []
            if browsing { parts.append(browser.status) }
            if announcement != nil { parts.append(publisher.status) }
            s[.dnssd] = parts.reduce(MechanismStatus.off) { $0.combined(with: $1) }
        } else {
            s[.dnssd] = avahi?.status ?? .off
        }
        s[.beacon] = options.beacon == nil ? .off : listenerStatus.combined(with: announcerStatus)
        // Typing a code needs nothing from the network to be available.
        s[.code] = .running
        guard s != status else { return }
        status = s
        onChange?()
    }
}
