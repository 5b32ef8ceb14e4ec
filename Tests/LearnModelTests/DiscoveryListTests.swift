import Testing
@testable import LearnModel

@Suite struct DiscoveryListTests {
    let t0 = ContinuousClock.now

    func finding(_ mechanism: DiscoveryMechanism, id: String = "s1", name: String = "Anna", host: String = "192.168.1.5",
                 open: Bool = true, at seconds: Double) -> DiscoveryFinding {
        DiscoveryFinding(mechanism: mechanism,
                         announcement: SessionAnnouncement(sessionID: id, hostName: name, activity: .sketch,
                                                           port: 47851, lobbyOpen: open),
                         host: host, seen: t0 + .milliseconds(Int(seconds * 1000)))
    }

    func list() -> DiscoveryList { DiscoveryList(lifetimes: [.beacon: .seconds(7)]) }

    @Test func mergesMechanismsBySessionID() {
        var l = list()
        #expect(l.record(finding(.dnssd, at: 0)) == [.found(sessionID: "s1", mechanism: .dnssd)])
        #expect(l.record(finding(.beacon, at: 1)) == [.found(sessionID: "s1", mechanism: .beacon)])
        #expect(l.sessions.count == 1)
        let s = l.sessions[0]
        #expect(s.mechanisms == [.dnssd, .beacon])
        #expect(s.mechanismList == [.dnssd, .beacon])
        #expect(s.address == SessionAddress(host: "192.168.1.5", port: 47851))
        #expect(s.joinCode?.digits == "002610")
        #expect(s.lastSeen == t0 + .seconds(1))
    }

    @Test func refreshingChangesNothingVisible() {
        var l = list()
        l.record(finding(.beacon, at: 0))
        #expect(l.record(finding(.beacon, at: 2)).isEmpty)
        #expect(l.sessions[0].lastSeen == t0 + .seconds(2))
    }

    @Test func newestReportWinsForNameAndLobbyState() {
        var l = list()
        l.record(finding(.dnssd, at: 0))
        l.record(finding(.beacon, at: 1))
        #expect(l.record(finding(.beacon, name: "Anna B", open: false, at: 2)) == [.updated(sessionID: "s1")])
        #expect(l.sessions[0].hostName == "Anna B")
        #expect(!l.sessions[0].lobbyOpen)
        // When the beacon goes quiet, the DNS-SD finding doesn't resurrect the old state.
        l.expire(now: t0 + .seconds(20))
        #expect(l.sessions[0].mechanisms == [.dnssd])
        #expect(!l.sessions[0].lobbyOpen)
    }

    @Test func beaconFindingsExpireAndDnssdOnesDoNot() {
        var l = list()
        l.record(finding(.dnssd, id: "a", at: 0))
        l.record(finding(.beacon, id: "b", at: 0))
        #expect(l.expire(now: t0 + .seconds(7)).isEmpty)
        #expect(l.expire(now: t0 + .seconds(8)) == [.lost(sessionID: "b", mechanism: .beacon)])
        #expect(l.sessions.map(\.sessionID) == ["a"])
        #expect(l.expire(now: t0 + .seconds(3600)).isEmpty)
    }

    @Test func removingOneMechanismKeepsTheOthers() {
        var l = list()
        l.record(finding(.dnssd, at: 0))
        l.record(finding(.beacon, at: 0))
        #expect(l.remove(sessionID: "s1", mechanism: .dnssd) == [.lost(sessionID: "s1", mechanism: .dnssd)])
        #expect(l.sessions[0].mechanisms == [.beacon])
        #expect(l.remove(sessionID: "s1", mechanism: .beacon) == [.lost(sessionID: "s1", mechanism: .beacon)])
        #expect(l.isEmpty)
        #expect(l.remove(sessionID: "s1", mechanism: .beacon).isEmpty)
    }

    @Test func removeAllForgetsAMechanismEverywhere() {
        var l = list()
        l.record(finding(.dnssd, id: "a", at: 0))
        l.record(finding(.dnssd, id: "b", at: 0))
        l.record(finding(.beacon, id: "b", at: 0))
        #expect(Set(l.removeAll(mechanism: .dnssd)) == [.lost(sessionID: "a", mechanism: .dnssd),
                                                        .lost(sessionID: "b", mechanism: .dnssd)])
        #expect(l.sessions.map(\.sessionID) == ["b"])
    }

    /// A session hosted on this device is heard on loopback and on its LAN
    /// address: one card, showing the LAN address.
    func localList() -> DiscoveryList { DiscoveryList(lifetimes: [.beacon: .seconds(7)], localHosts: ["192.168.1.5"]) }

    @Test func lanAddressIsPreferredOverLoopback() {
        var l = localList()
        l.record(finding(.beacon, host: "192.168.1.5", at: 0))
        #expect(l.record(finding(.beacon, host: "127.0.0.1", at: 1)).isEmpty)
        #expect(l.sessions.count == 1)
        #expect(l.sessions[0].address.host == "192.168.1.5")
        // Once the LAN path goes quiet, the loopback address is used.
        l.record(finding(.beacon, host: "127.0.0.1", at: 9))
        #expect(l.expire(now: t0 + .seconds(9)) == [.updated(sessionID: "s1")])
        #expect(l.sessions[0].address.host == "127.0.0.1")
    }

    @Test func onePathGoingQuietKeepsTheMechanism() {
        var l = localList()
        l.record(finding(.dnssd, host: "127.0.0.1", at: 0))
        l.record(finding(.dnssd, host: "192.168.1.5", at: 1))
        #expect(l.sessions[0].address.host == "192.168.1.5")
        #expect(l.remove(sessionID: "s1", mechanism: .dnssd, host: "192.168.1.5") == [.updated(sessionID: "s1")])
        #expect(l.sessions[0].mechanisms == [.dnssd])
        #expect(l.sessions[0].address.host == "127.0.0.1")
    }

    @Test func tiesDoNotDependOnDictionaryOrder() {
        for _ in 0..<20 {
            var l = localList()
            l.record(finding(.dnssd, host: "127.0.0.1", at: 0))
            l.record(finding(.beacon, host: "192.168.1.5", at: 0))
            #expect(l.sessions[0].address.host == "192.168.1.5")
        }
    }

    // MARK: copies from other addresses

    @Test func aCopyFromAnotherAddressIsItsOwnCardAndChangesNothingOfTheReal() {
        var l = list()
        l.record(finding(.beacon, name: "Anna", host: "192.168.1.5", at: 0))
        // A mischievous pupil announces the same id: renamed, closed, elsewhere.
        let changes = l.record(finding(.beacon, name: "Mallory", host: "192.168.1.66", open: false, at: 1))
        #expect(changes == [.found(sessionID: "s1@192.168.1.66", mechanism: .beacon)])
        #expect(l.sessions.count == 2)
        let real = l.sessions[0], copy = l.sessions[1]
        #expect(real.cardID == "s1" && !real.isCopy)
        #expect(real.hostName == "Anna" && real.lobbyOpen && real.address.host == "192.168.1.5")
        #expect(copy.isCopy && copy.hostName == "Mallory" && copy.source == "192.168.1.66")
        #expect(l.session(id: "s1")?.hostName == "Anna")
    }

    @Test func aGoodbyeFromAnotherAddressRemovesOnlyItsOwnCard() {
        var l = list()
        l.record(finding(.beacon, host: "192.168.1.5", at: 0))
        l.record(finding(.beacon, host: "192.168.1.66", at: 1))
        #expect(l.remove(sessionID: "s1", mechanism: .beacon, host: "192.168.1.66")
                == [.lost(sessionID: "s1@192.168.1.66", mechanism: .beacon)])
        #expect(l.sessions.map(\.cardID) == ["s1"])
        // A goodbye for the real card from a third address touches nothing.
        #expect(l.remove(sessionID: "s1", mechanism: .beacon, host: "192.168.1.77").isEmpty)
        #expect(l.sessions.count == 1)
    }

    @Test func aFloodOfInventedIdsIsCappedPerAddressAndOverall() {
        var l = list()
        l.record(finding(.beacon, id: "real", host: "192.168.1.5", at: 0))
        for i in 0..<1000 { l.record(finding(.beacon, id: "fake\(i)", host: "192.168.1.66", at: 1)) }
        #expect(l.sessions.filter { $0.source == "192.168.1.66" }.count == DiscoveryList.maxCardsPerSource)
        for i in 0..<1000 { l.record(finding(.beacon, id: "f\(i)", host: "10.1.\(i / 250).\(i % 250)", at: 2)) }
        #expect(l.sessions.count == DiscoveryList.maxCards)
        #expect(l.sessions[0].sessionID == "real")
    }

    @Test func thisMachinesOwnSessionsAreCappedOnlyInAll() {
        var l = list()
        for i in 0..<8 { l.record(finding(.beacon, id: "group\(i)", host: "127.0.0.1", at: 0)) }
        #expect(l.sessions.count == 8)
        for i in 0..<100 { l.record(finding(.beacon, id: "more\(i)", host: "127.0.0.1", at: 1)) }
        #expect(l.sessions.count == DiscoveryList.maxCards)
    }

    @Test func keepsFirstSeenOrder() {
        var l = list()
        l.record(finding(.beacon, id: "z", name: "Zoe", at: 0))
        l.record(finding(.beacon, id: "a", name: "Ali", at: 1))
        l.record(finding(.dnssd, id: "z", name: "Zoe", at: 2))
        #expect(l.sessions.map(\.sessionID) == ["z", "a"])
    }

    @Test func statusCombination() {
        #expect(MechanismStatus.running.combined(with: .off) == .running)
        #expect(MechanismStatus.running.combined(with: .running) == .running)
        #expect(MechanismStatus.running.combined(with: .limited(.noMulticastRoute)) == .limited(.noMulticastRoute))
        #expect(MechanismStatus.unavailable(.portInUse(47850)).combined(with: .running) == .limited(.portInUse(47850)))
        #expect(MechanismStatus.unavailable(.portInUse(47850)).combined(with: .unavailable(.permissionDenied))
            == .unavailable(.portInUse(47850)))
        #expect(MechanismStatus.starting.combined(with: .running) == .starting)
        #expect(MechanismStatus.unavailable(.daemonNotRunning).description == "unavailable: daemon not running")
    }
}
