import Testing
@testable import SchoolServer

/// The server says at start what to type into the app: never 0.0.0.0,
/// always with its scheme and port.
@Suite struct TypedAddressesTests {
    @Test func listeningEverywhereNamesTheMachinesAddressesThenLoopback() {
        let own = ["127.0.0.1", "192.168.1.20", "10.0.0.5", "192.168.1.20"]
        #expect(TypedAddresses.list(host: "0.0.0.0", port: 8470, tls: false, ownAddresses: own)
                == ["http://192.168.1.20:8470", "http://10.0.0.5:8470", "http://127.0.0.1:8470"])
        #expect(TypedAddresses.list(host: "::", port: 9000, tls: true, ownAddresses: [])
                == ["https://127.0.0.1:9000"])
    }

    @Test func aChosenHostIsTheOneToType() {
        #expect(TypedAddresses.list(host: "schule.local", port: 8470, tls: true, ownAddresses: ["10.0.0.5"])
                == ["https://schule.local:8470"])
        #expect(TypedAddresses.list(host: "fd00::5", port: 8470, tls: false, ownAddresses: [])
                == ["http://[fd00::5]:8470"])
    }
}
