import ArgumentParser
import Foundation
import LearnModel
import TeamsketchDesktopApp

/// `TeamsketchDesktop find-servers [--seconds N]`: lists the school servers
/// announced on the LAN, through the same browser the "choose server"
/// screen uses. One line per server as it is found, on stdout:
///
///     <url> <name>
///
/// e.g. `http://192.168.1.10:8470/api/v1 Teamsketch server on schule`. The
/// URL comes first because it has no spaces. DNS-SD problems (no
/// avahi-daemon) go to stderr as `status: dnssd …` lines.
struct FindServersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-servers",
        abstract: "List school servers announced on the LAN (DNS-SD).")

    @Option(help: "Stop after this many seconds.")
    var seconds: Double = 5

    func validate() throws {
        if seconds < 0 { throw ValidationError("--seconds must not be negative.") }
    }

    func run() throws {
        MainActor.assumeIsolated {
            let browser = SchoolServerBrowser()
            var printed = Set<SchoolServerAddress>()
            var lastStatus: MechanismStatus?
            browser.onChange = {
                if browser.status != lastStatus {
                    lastStatus = browser.status
                    FileHandle.standardError.write(Data("status: dnssd \(browser.status)\n".utf8))
                }
                for server in browser.servers where printed.insert(server).inserted {
                    DiscoveryPrinter.emit("\(server.urlString) \(server.name)")
                }
            }
            let loop = HeadlessMainLoop(seconds: seconds) { browser.stop() }
            browser.start()
            loop.run()
        }
    }
}
