import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct SketchFileFormatTests {
    func sampleDocument() -> SketchDocument {
        let strokes = SketchGenerator(seed: 8).strokes(count: 12, pointsPerStroke: 25)
        let dot = Stroke(author: "Cem", color: PenColor.yellow.rgba, width: 6, start: Point(10.5, 20.25),
                         segments: [], startedAt: sketchDate(100), endedAt: sketchDate(100.05))
        var ops = strokes.map(SketchOp.addStroke)
        ops.append(.eraseStroke(id: strokes[2].id, by: "Dora", at: sketchDate(50.125)))
        ops.append(.addStroke(dot))
        ops.append(.clear(by: "Teacher \"Frau Müller\"", at: sketchDate(101)))
        ops.append(.addStroke(strokes[0].with(id: UUID())))
        let meta = SketchMeta(name: "Unser Zoo 🦒 <b>&", guides: .lined, timeLimitMinutes: 45,
                              createdAt: sketchDate(-3600))
        return SketchDocument(meta: meta, ops: ops)
    }

    func expectSame(_ a: SketchDocument, _ b: SketchDocument) {
        #expect(a.meta.id == b.meta.id && a.meta.name == b.meta.name && a.meta.guides == b.meta.guides)
        #expect(a.meta.timeLimitMinutes == b.meta.timeLimitMinutes)
        #expect(a.meta.width == b.meta.width && a.meta.height == b.meta.height)
        #expect(abs(a.meta.createdAt.timeIntervalSince(b.meta.createdAt)) < 1e-6)
        #expect(a.ops.count == b.ops.count)
        for (x, y) in zip(a.ops, b.ops) {
            #expect(abs(x.date.timeIntervalSince(y.date)) < 1e-6)
            switch (x, y) {
            case (.addStroke(let s), .addStroke(let t)):
                #expect(s.id == t.id && s.author == t.author && s.color == t.color && s.width == t.width)
                #expect(s.start == t.start && s.segments == t.segments)
                #expect(abs(s.startedAt.timeIntervalSince(t.startedAt)) < 1e-6)
            case (.eraseStroke(let i, let by, _), .eraseStroke(let j, let by2, _)):
                #expect(i == j && by == by2)
            case (.clear(let by, _), .clear(let by2, _)):
                #expect(by == by2)
            default:
                Issue.record("op kinds differ: \(x.kind) vs \(y.kind)")
            }
        }
        #expect(a.strokes.map(\.id) == b.strokes.map(\.id))
    }

    @Test func roundTripKeepsTheWholeOpLog() throws {
        let doc = sampleDocument()
        let data = try SketchFileFormat.encode(doc)
        let back = try SketchFileFormat.decode(data)
        expectSame(doc, back)
        // Stable bytes: encoding the decoded document again changes nothing.
        #expect(try SketchFileFormat.encode(back) == data)
    }

    @Test func fileIsVersionedReadableJSON() throws {
        let data = try SketchFileFormat.encode(sampleDocument())
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["format"] as? String == "teamsketch")
        #expect(json["version"] as? Int == 1)
        let ops = try #require(json["ops"] as? [[String: Any]])
        #expect(ops.map { $0["kind"] as? String }.contains("eraseStroke"))
        #expect(Set(ops.compactMap { $0["kind"] as? String }) == ["addStroke", "eraseStroke", "clear"])
        let erase = try #require(ops.first { $0["kind"] as? String == "eraseStroke" })
        #expect(erase["by"] as? String == "Dora")
        #expect((erase["at"] as? Double).map { abs($0 - 1_750_000_050.125) < 1e-6 } == true)
        let stroke = try #require(ops.first?["stroke"] as? [String: Any])
        #expect(Set(stroke.keys) == ["id", "author", "color", "width", "start", "segments", "startedAt", "endedAt"])
        #expect((stroke["segments"] as? [Double]).map { $0.count % 6 == 0 } == true)
        let meta = try #require(json["meta"] as? [String: Any])
        #expect(meta["guides"] as? String == "lined")
        #expect(meta["timeLimitMinutes"] as? Int == 45)
    }

    @Test func foreignFilesAreNotSketches() {
        let foreign: [Data] = [
            Data(),
            Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),  // PNG
            Data([0x1F, 0x8B, 0x08, 0x00, 1, 2, 3]),  // gzip
            Data("<?xml version=\"1.0\"?><xournal></xournal>".utf8),
            Data("{\"hello\": \"world\"}".utf8),
            Data("[1, 2, 3]".utf8),
            Data("{\"format\": \"svg\", \"version\": 1}".utf8),
            Data("null".utf8),
        ]
        for data in foreign {
            #expect(throws: SketchFileError.notASketch) { try SketchFileFormat.decode(data) }
        }
    }

    @Test func newerVersionsAreReportedAsSuch() {
        let v2 = Data(#"{"format":"teamsketch","version":2,"meta":{"whatever":true},"shapes":[]}"#.utf8)
        #expect(throws: SketchFileError.unsupportedVersion(2)) { try SketchFileFormat.decode(v2) }
        let v0 = Data(#"{"format":"teamsketch","version":0}"#.utf8)
        #expect(throws: SketchFileError.unsupportedVersion(0)) { try SketchFileFormat.decode(v0) }
    }

    @Test func damagedFilesAreCorrupt() throws {
        let good = String(decoding: try SketchFileFormat.encode(sampleDocument()), as: UTF8.self)
        let damaged: [String] = [
            String(good.prefix(good.count / 2)),  // cut short
            good.replacingOccurrences(of: "\"kind\":\"clear\"", with: "\"kind\":\"explode\""),
            good.replacingOccurrences(of: "\"guides\":\"lined\"", with: "\"guides\":\"zigzag\""),
            good.replacingOccurrences(of: "\"timeLimitMinutes\":45", with: "\"timeLimitMinutes\":600"),
            good.replacingOccurrences(of: "\"segments\":[", with: "\"segments\":[1,"),
            good.replacingOccurrences(of: "\"width\":1600", with: "\"width\":-1"),
            #"{"format":"teamsketch","version":1}"#,
            #"{"format":"teamsketch","version":"one","meta":{}}"#,
            #"{"format":"teamsketch","meta":{},"ops":[]}"#,
        ]
        for text in damaged {
            #expect(text != good)
            do {
                _ = try SketchFileFormat.decode(Data(text.utf8))
                Issue.record("decoded a damaged file: \(text.prefix(80))")
            } catch {
                guard case .corrupt(let why) = error else {
                    Issue.record("expected corrupt, got \(error) for \(text.prefix(80))")
                    continue
                }
                #expect(!why.isEmpty)
                #expect(error.errorDescription?.contains(why) == true)
            }
        }
    }

    @Test func randomDamageNeverCrashes() throws {
        let good = try SketchFileFormat.encode(sampleDocument())
        var rng = SplitMix64(seed: 99)
        for _ in 0..<300 {
            var bytes = [UInt8](good)
            for _ in 0..<(1 + rng.nextInt(below: 4)) {
                let i = rng.nextInt(below: bytes.count)
                switch rng.nextInt(below: 3) {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + 1 + rng.nextInt(below: 40)))
                default: bytes.insert(UInt8(ascii: "\""), at: i)
                }
                if bytes.isEmpty { break }
            }
            // Decoding either works or names the problem; it never traps.
            _ = try? SketchFileFormat.decode(Data(bytes))
        }
    }

    @Test func nonFiniteCoordinatesCannotBeSaved() {
        let bad = Stroke(author: "a", color: .white, width: 4, start: Point(.nan, 0), segments: [],
                         startedAt: sketchDate(0), endedAt: sketchDate(0))
        let doc = SketchDocument(meta: SketchMeta(name: "x"), ops: [.addStroke(bad)])
        let error = #expect(throws: SketchFileError.self) { try SketchFileFormat.encode(doc) }
        guard case .unencodable = error else {
            Issue.record("expected unencodable, got \(String(describing: error))")
            return
        }
    }

    @Test func opsRoundTripThroughPlainJSONCoders() throws {
        // The Store and sync use SketchOp's Codable form with default coders.
        let doc = sampleDocument()
        let data = try JSONEncoder().encode(doc.ops)
        let ops = try JSONDecoder().decode([SketchOp].self, from: data)
        #expect(ops == doc.ops)
    }
}

fileprivate extension Stroke {
    func with(id: UUID) -> Stroke {
        var s = self
        s.id = id
        return s
    }
}
