import Foundation
import Testing
@testable import LearnModel

@Suite struct SchoolServerTXTTests {
    let good = SchoolServerTXT.entries(tls: true)

    @Test func whatTheServerPublishesReadsBack() throws {
        #expect(good == ["path=/api/v1", "tls=1", "v=1"])
        let a = try #require(SchoolServerTXT.address(name: "Teamsketch server on schule", host: "10.0.0.5",
                                                     port: 8470, txt: good))
        #expect(a == SchoolServerAddress(name: "Teamsketch server on schule", host: "10.0.0.5", port: 8470,
                                         tls: true, path: "/api/v1"))
        #expect(a.urlString == "https://10.0.0.5:8470/api/v1")
        #expect(a.url?.host == "10.0.0.5")
        let plain = SchoolServerTXT.address(name: "S", host: "fe80::1", port: 80, txt: SchoolServerTXT.entries(tls: false))
        #expect(plain?.urlString == "http://[fe80::1]:80/api/v1")
    }

    @Test func keysFollowRFC6763() {
        // Case-insensitive keys, first occurrence wins, unknown keys ignored.
        let a = SchoolServerTXT.address(name: "S", host: "10.0.0.5", port: 8470,
                                        txt: ["V=1", "TLS=0", "tls=1", "Path=/api/v1", "future=yes"])
        #expect(a?.tls == false)
    }

    @Test func hostileValuesAreRefused() {
        func refused(_ txt: [String], name: String = "S", host: String = "10.0.0.5", port: Int = 8470,
                     sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(SchoolServerTXT.address(name: name, host: host, port: port, txt: txt) == nil,
                    sourceLocation: sourceLocation)
        }
        refused(["path=/api/v1", "tls=1"])                       // no version
        refused(["path=/api/v1", "tls=1", "v=2"])                // a version we do not know
        refused(["path=/api/v1", "v=1"])                         // no tls
        refused(["path=/api/v1", "tls=yes", "v=1"])
        refused(["tls=1", "v=1"])                                // no path
        refused(["path=api/v1", "tls=1", "v=1"])                 // not absolute
        refused(["path=//evil.example/api", "tls=1", "v=1"])
        refused(["path=/api/../admin", "tls=1", "v=1"])
        refused(["path=/api?x=1", "tls=1", "v=1"])
        refused(["path=/api#x", "tls=1", "v=1"])
        refused(["path=/a@b", "tls=1", "v=1"])
        refused(["path=/a%2f", "tls=1", "v=1"])
        refused(["path=/a b", "tls=1", "v=1"])
        refused(["path=/" + String(repeating: "a", count: 64), "tls=1", "v=1"])
        refused(good, port: 0)
        refused(good, port: 65536)
        refused(good, port: -1)
        refused(good, host: "")
        refused(good, host: "evil.example")
        refused(good, host: "10.0.0.5/x")
        refused(good, host: "10.0.0")
        refused(good, host: String(repeating: "1:", count: 30))
        refused(good, name: "\u{202E}\u{0007}\n")
        #expect(SchoolServerTXT.address(name: "S", host: "10.0.0.5", port: 8470,
                                        txt: ["path=/" + String(repeating: "a", count: 63), "tls=1", "v=1"]) != nil)
    }

    @Test func namesAreCleanedAndCapped() {
        let a = SchoolServerTXT.address(name: "Schule\u{202E}\u{0007} " + String(repeating: "x", count: 100),
                                        host: "10.0.0.5", port: 8470, txt: good)
        #expect(a?.name.hasPrefix("Schule x") == true)
        #expect((a?.name.utf8.count ?? 99) <= 63)
    }

    @Test func instanceNamesFitOneLabel() {
        #expect(SchoolServerTXT.instanceName(hostName: "schule") == "Teamsketch server on schule")
        let long = SchoolServerTXT.instanceName(hostName: String(repeating: "ü", count: 60))
        #expect(long.utf8.count <= 63 && long.hasPrefix("Teamsketch server on ü"))
        #expect(SchoolServerTXT.instanceName(hostName: "\n") == "Teamsketch server")
    }
}
