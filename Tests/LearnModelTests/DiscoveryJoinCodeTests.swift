import Testing
@testable import LearnModel

@Suite struct DiscoveryJoinCodeTests {
    @Test(arguments: [
        ("192.168.1.23", 47851), ("10.0.0.1", 47860), ("127.0.0.1", 47851),
        ("172.16.255.255", 47855), ("192.168.0.0", 47851),
    ])
    func roundTripsThroughDigits(host: String, port: Int) throws {
        let ip = try #require(IPv4Address(host))
        let code = try #require(JoinCode(host: ip, port: port))
        #expect(code.digits.count == 6)
        let parsed = try JoinCode(parsing: code.digits)
        #expect(parsed == code)
        let address = parsed.address(prefix: (ip.octets.0, ip.octets.1))
        #expect(address == SessionAddress(host: host, port: port))
    }

    @Test func documentedExamples() throws {
        #expect(JoinCode(host: IPv4Address(127, 0, 0, 1), port: 47851)?.digits == "000010")
        #expect(JoinCode(host: IPv4Address(192, 168, 1, 23), port: 47851)?.digits == "002790")
        #expect(JoinCode(host: IPv4Address(10, 0, 255, 255), port: 47860)?.digits == "655359")
        #expect(JoinCode(host: IPv4Address(10, 0, 1, 5), port: 47853)?.grouped == "002 612")
    }

    @Test func portsOutsideTheSessionRangeHaveNoCode() {
        let ip = IPv4Address(192, 168, 1, 2)
        #expect(JoinCode(host: ip, port: JoinCode.basePort - 1) == nil)
        #expect(JoinCode(host: ip, port: JoinCode.basePort + 10) == nil)
        #expect(JoinCode.sessionPorts == 47851...47860)
    }

    @Test func acceptsSpacesAndDashes() throws {
        let code = try JoinCode(parsing: " 002-790 ")
        #expect(code.value == 2790)
        #expect(try JoinCode(parsing: "002 790") == code)
    }

    @Test(arguments: [
        ("", JoinCode.ParseError.empty), ("  ", .empty), ("12a456", .notDigits), ("１２３４５６", .notDigits),
        ("12345", .wrongLength(5)), ("1234567", .wrongLength(7)), ("655360", .outOfRange), ("999999", .outOfRange),
    ])
    func rejectsBadInput(text: String, error: JoinCode.ParseError) {
        #expect(throws: error) { try JoinCode(parsing: text) }
    }

    @Test func inputIsCodeOrAddress() throws {
        #expect(try JoinInput(parsing: "002790") == .code(JoinCode(value: 2790)!))
        #expect(try JoinInput(parsing: " 192.168.1.5:47853 ")
            == .address(SessionAddress(host: "192.168.1.5", port: 47853)))
        #expect(try JoinInput(parsing: "192.168.1.5") == .address(SessionAddress(host: "192.168.1.5", port: 47851)))
        #expect(try JoinInput(parsing: "anna-laptop.local:5000")
            == .address(SessionAddress(host: "anna-laptop.local", port: 5000)))
    }

    @Test(arguments: [
        ("", JoinInput.ParseError.empty), ("12345", .badCode(.wrongLength(5))), ("1.2.3:80", .badHost),
        ("192.168.1.300:80", .badHost), ("192.168.1.5:0", .badPort), ("192.168.1.5:99999", .badPort),
        ("host:", .badPort), (":47851", .badHost), ("my host:1", .badHost),
    ])
    func rejectsBadJoinInput(text: String, error: JoinInput.ParseError) {
        #expect(throws: error) { try JoinInput(parsing: text) }
    }

    @Test func codeIsCompletedWithLocalPrefixesLanFirstLoopbackLast() throws {
        let input = try JoinInput(parsing: "002790")
        let local = [IPv4Address(127, 0, 0, 1), IPv4Address(192, 168, 7, 9), IPv4Address(10, 3, 0, 2),
                     IPv4Address(192, 168, 8, 1)]
        #expect(input.candidates(localAddresses: local).map(\.description)
            == ["192.168.1.23:47851", "10.3.1.23:47851", "127.0.1.23:47851"])
        #expect(input.candidates(localAddresses: []).map(\.description) == ["127.0.1.23:47851"])
    }

    @Test func strictDottedQuads() {
        #expect(IPv4Address("10.1") == nil)
        #expect(IPv4Address("1.2.3.4.5") == nil)
        #expect(IPv4Address("01.2.3.4") != nil)
        #expect(IPv4Address("1.2.3.-4") == nil)
        #expect(IPv4Address("255.255.255.255")?.description == "255.255.255.255")
    }
}
