import Testing
@testable import LearnRender

@Suite struct GzipTests {
    private let text = Array(String(repeating: "<stroke tool=\"pen\">1.5 2.5 3.5</stroke>\n", count: 2000).utf8)

    @Test func roundTripIsExactAndCompresses() throws {
        let packed = try Gzip.compress(text)
        #expect(Gzip.isGzip(packed))
        #expect(packed.count < text.count / 10)
        #expect(try Gzip.decompress(packed) == text)
    }

    @Test func emptyInputRoundTrips() throws {
        let packed = try Gzip.compress([])
        #expect(Gzip.isGzip(packed))
        #expect(try Gzip.decompress(packed) == [])
    }

    @Test func concatenatedMembersAreJoinedAsGunzipDoes() throws {
        let a = Array("first part, ".utf8), b = Array("second part".utf8)
        let joined = try Gzip.compress(a) + Gzip.compress(b)
        #expect(try Gzip.decompress(joined) == a + b)
    }

    @Test func truncatedDataIsAnError() throws {
        let packed = try Gzip.compress(text)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(packed.prefix(packed.count / 2))) }
    }

    @Test func damagedDataIsAnError() throws {
        var packed = try Gzip.compress(text)
        for i in 20..<40 { packed[i] ^= 0x5A }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed) }
    }

    @Test func highlyCompressedDataGrowsPastTheFirstBuffer() throws {
        let big = [UInt8](repeating: 0x41, count: 5_000_000)
        #expect(try Gzip.decompress(Gzip.compress(big)) == big)
    }
}
