import Foundation
import Testing
@testable import LearnModel

/// The op payload every device and the school server read: its own reader
/// (`PayloadJSONReader`) gives what `JSONDecoder` gave for every payload a
/// device writes, reads any JSON spelling of one, and refuses what is not
/// one (never a trap, never a wrong number).
@Suite struct SketchOpPayloadTests {
    private static let strokeID = "0b5e6f5c-3f1e-4d4a-9f49-1c2d3e4f5a6b"

    /// A plain stroke's payload, spelled by hand.
    private static func stroke(_ fields: String = "") -> String {
        """
        {"kind":"addStroke","id":"\(strokeID)","author":"Mia","color":[0.5,1,0,1],"width":4,\
        "start":[10,20],"segments":[1,2,3,4,5,6],"startedAt":1750000000000,"endedAt":1750000000500\(fields)}
        """
    }

    private static func stroke(replacing part: String, with other: String) -> String {
        stroke().replacingOccurrences(of: part, with: other)
    }

    private func decode(_ text: String) -> SketchOp? {
        SketchOpPayload.decode(Data(text.utf8))
    }

    @Test func generatedStrokesRoundTrip() throws {
        var strokes = SketchGenerator(seed: 7).strokes(count: 200, pointsPerStroke: 30)
        strokes += SketchGenerator(seed: 8).strokes(count: 50, pointsPerStroke: 5, shape: .polyline)
        // Numbers JSONEncoder spells with exponents, and the extremes.
        strokes[0].start = Point(1e-5, -2.5e-300)
        strokes[1].start = Point(1.7976931348623157e308, -0.0)
        strokes[2].width = 5e-324
        strokes[3].widths = Array(repeating: 0.1, count: strokes[3].segments.count)
        strokes[3].fill = 0.25
        strokes[3].dashes = [6, 3]
        strokes[3].blend = .multiply
        strokes[4].author = "Jérôme \"Jo\" 😀\n\\/\u{1}"
        for var s in strokes {
            // Payloads keep whole milliseconds.
            s.startedAt = UnixMilliseconds.date(UnixMilliseconds.milliseconds(s.startedAt))
            s.endedAt = UnixMilliseconds.date(UnixMilliseconds.milliseconds(s.endedAt))
            let op = SketchOp.addStroke(s)
            let bytes = try SketchOpPayload.encode(op)
            let back = SketchOpPayload.decode(bytes)
            #expect(back == op, "\(String(describing: back)) \(op) \(String(decoding: bytes, as: UTF8.self))")
        }
        let at = Date(timeIntervalSince1970: 1_750_000_000.25)
        for op in [SketchOp.eraseStroke(id: UUID(), by: "Ole", at: at), .clear(by: "Ben", at: at)] {
            #expect(SketchOpPayload.decode(try SketchOpPayload.encode(op)) == op)
        }
    }

    @Test func anySpellingOfTheSameJSONReadsTheSame() throws {
        let plain = try #require(decode(Self.stroke()))
        let spellings = [
            // White space everywhere JSON allows it, keys in another order.
            " {\n\t\"segments\" : [ 1 , 2,3 ,4,5, 6 ] ,\r\n \"kind\":\"addStroke\", \"id\":\"\(Self.strokeID)\","
                + "\"author\":\"Mia\",\"color\":[5e-1,1.0,0,1E0],\"width\":0.4e1,\"start\":[10,20.0],"
                + "\"startedAt\":1750000000000,\"endedAt\":1750000000500 } \n",
            // Keys a newer version may add, of every JSON type.
            Self.stroke(#","pressure":{"a":[1,{"b":null}],"c":"}\"]"},"tags":[true,false,null,-1.5e+3,"x"]"#),
            // Escaped characters mean themselves.
            Self.stroke(replacing: "\"Mia\"", with: #""\u004dia""#)
                .replacingOccurrences(of: "\"kind\":\"addStroke\"", with: #""k\u0069nd":"add\u0053troke""#),
            // Optional styles given as null are absent.
            Self.stroke(#","widths":null,"fill":null,"dashes":null,"blend":null"#),
            // Whole times spelled as JSONDecoder also read them.
            Self.stroke(replacing: "1750000000000,", with: "1750000000000.0,").replacingOccurrences(of: "1750000000500", with: "1.7500000005e12"),
        ]
        for text in spellings {
            #expect(decode(text) == plain, "\(text)")
        }
        guard case .addStroke(let s)? = decode(Self.stroke(replacing: "\"Mia\"", with: #""\ud83d\ude00 \u00e9""#))
        else { Issue.record("an escaped surrogate pair was refused"); return }
        #expect(s.author == "😀 é")
    }

    @Test func whatIsNotAnOpIsRefused() {
        let refused: [String] = [
            "", "null", "[]", "{}", "\"addStroke\"",
            Self.stroke() + "x", Self.stroke() + "{}",
            Self.stroke(replacing: "addStroke", with: "addSticker"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":\"4\""),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":null"),
            Self.stroke(replacing: "\"width\":4,", with: ""),
            Self.stroke(replacing: "1750000000000", with: "1750000000000.5"),
            Self.stroke(replacing: "1750000000000", with: "1e400"),
            Self.stroke(replacing: "1750000000000", with: "9223372036854775808"),
            Self.stroke(replacing: "1750000000000", with: "-9007199254740993"),
            Self.stroke(replacing: "1750000000000", with: "-9223372036854775808"),
            Self.stroke(replacing: "1750000000000", with: "-9.3e18"),
            Self.stroke(replacing: "[0.5,1,0,1]", with: "[0.5,1,0]"),
            Self.stroke(replacing: "[1,2,3,4,5,6]", with: "[1,2,3,4,5]"),
            Self.stroke(replacing: "[1,2,3,4,5,6]", with: "[1,2,3,4,5,\"6\"]"),
            Self.stroke(replacing: Self.strokeID, with: "not-a-uuid"),
            Self.stroke(#","fill":"half""#),
            Self.stroke(#","blend":7"#),
            // Not JSON numbers.
            Self.stroke(replacing: "\"width\":4", with: "\"width\":04"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":4."),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":.4"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":+4"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":4e"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":0x4"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":1e400"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":1" + String(repeating: "0", count: 70) + "e400"),
            Self.stroke(replacing: "\"width\":4", with: "\"width\":NaN"),
            // Not JSON strings.
            Self.stroke(replacing: "\"Mia\"", with: "\"Mi\ta\""),
            Self.stroke(replacing: "\"Mia\"", with: #""\ud83d""#),
            Self.stroke(replacing: "\"Mia\"", with: #""\ude00\ud83d""#),
            Self.stroke(replacing: "\"Mia\"", with: #""\x41""#),
            Self.stroke(replacing: "\"Mia\"", with: #""\u00G1""#),
            // Deeper than the reader follows, in a key it does not even need.
            Self.stroke(",\"deep\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)),
        ]
        for text in refused {
            #expect(decode(text) == nil, "\(text)")
        }
        #expect(SketchOpPayload.decode(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) == nil, "bytes that are not UTF-8")
        // Every cut of a payload is refused, never read past its end.
        let whole = Array(Self.stroke(#","fill":0.5,"blend":"multiply""#).utf8)
        for length in 0..<whole.count {
            #expect(SketchOpPayload.decode(Data(whole[0..<length])) == nil, "cut at \(length)")
        }
        // Nesting up to the limit is followed.
        let nested = Self.stroke(",\"deep\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        #expect(decode(nested) != nil)
    }

    /// The desktop app runs in the pupil's locale; in German "0.5" would be
    /// read as 0 by a locale-following strtod. The locale comes from
    /// LOCPATH, which scripts/swift-test.sh (`make test`) fills: setting it
    /// here would race with tests reading the environment meanwhile.
    @Test func numbersReadTheSameInAGermanLocale() throws {
        let german = newlocale(Int32(1 << LC_NUMERIC), "de_DE.UTF-8", nil)
        let locale = try #require(german, "no de_DE.UTF-8 in LOCPATH: run the tests with scripts/swift-test.sh")
        defer { freelocale(locale) }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        #expect(strtod("0.5", nil) == 0, "the locale reads a point as the end of a number")
        guard case .addStroke(let s)? = decode(Self.stroke()) else { Issue.record("refused"); return }
        #expect(s.color.r == 0.5)
    }
}
