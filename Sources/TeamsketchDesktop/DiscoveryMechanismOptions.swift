import ArgumentParser
import LearnModel
import TeamsketchDesktopApp

/// The switches `discover` and `announce` share: which mechanisms run, and
/// the beacon's port (tests move it off the real one).
struct DiscoveryMechanismOptions: ParsableArguments {
    @Flag(help: "Don't use DNS-SD (Avahi).")
    var noDnssd = false

    @Flag(help: "Don't use the UDP beacon.")
    var noBeacon = false

    @Option(help: ArgumentHelp("UDP port of the beacon (tests).", visibility: .hidden))
    var beaconPort = BeaconConfiguration.standardPort

    var serviceOptions: DiscoveryService.Options {
        var beacon = BeaconConfiguration.standard
        beacon.port = beaconPort
        return .init(dnssd: !noDnssd, beacon: noBeacon ? nil : beacon)
    }
}
