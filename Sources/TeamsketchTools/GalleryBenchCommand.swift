import ArgumentParser
import CGtk
import Foundation
import LearnModel
import LearnRender
import LearnStore
import TeamsketchCore
import TeamsketchDesktopApp

/// `TeamsketchTools bench-gallery --dir D`: what the teacher's sketch grid
/// costs with a class's worth of work. Fills a store in D with 500 sketches
/// (alone and in teams of two to four, by 24 pupils over four weeks, no
/// stored thumbnails — as they arrive synced from the school server) and the
/// pupils' profiles with drawn pictures, then times exactly what
/// `TeacherSketchesView` runs: listing, filtering, each sketch's digest
/// (authors and thumbnail, drawn and decoded off the main thread) and the
/// authors' pictures. Prints `NAME: VALUE UNIT` lines (docs/PERFORMANCE.md).
/// The store stays in D for the scroll test under Xvfb.
struct GalleryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-gallery",
        abstract: "Benchmark the teacher's sketch grid with many sketches.",
        shouldDisplay: false)

    @Option(help: "Folder for the store (teamsketch/teamsketch.sqlite below it, as XDG_DATA_HOME).")
    var dir: String

    @Option(help: "Sketches in the store.")
    var sketches = 500

    @Option(help: "Pupils who drew them.")
    var pupils = 24

    @Option(help: "Timed runs of the list and the filter (the median is printed).")
    var runs = 11

    func validate() throws {
        guard (1...5000).contains(sketches) else { throw ValidationError("--sketches must be 1…5000.") }
        guard (1...200).contains(pupils) else { throw ValidationError("--pupils must be 1…200.") }
        guard (1...1000).contains(runs) else { throw ValidationError("--runs must be 1…1000.") }
    }

    static func names(_ count: Int) -> [String] {
        let first = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fatma", "Greta", "Hugo", "Ida", "Jonas", "Kira", "Leon",
                     "Mia", "Noah", "Ole", "Paula", "Quirin", "Rosa", "Sami", "Tara", "Umut", "Vera", "Wim", "Yara"]
        return (0..<count).map { i in i < first.count ? first[i] : "\(first[i % first.count]) \(i / first.count + 1)" }
    }

    func run() throws {
        let folder = dir + "/" + StoreLocation.directoryName
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + StoreLocation.fileName
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try LocalStore(path: path)
        let names = Self.names(pupils)
        try fill(store, names: names)
        let library = SketchLibrary.live(store)

        // Listing: what the grid's model is built from.
        var summaries: [SketchSummary] = []
        let list = try Stopwatch.median(runs: runs) { () throws in summaries = try store.sketches() }
        print(String(format: "gallery_list_%d: %.2f ms", sketches, list * 1000))

        // Each sketch's digest, one after another as the loader's worker
        // does them (the first cards fill while the rest are read).
        var perSketch: [Double] = []
        var textureBytes = 0
        var items: [TeacherSketchItem] = []
        let cpu0 = Stopwatch.processCPUSeconds()
        let all = Stopwatch.seconds {
            for s in summaries {
                var digest: SketchLibrary.Digest?
                perSketch.append(Stopwatch.seconds { digest = library.digest(s.id, stored: s.thumbnail) })
                guard let digest else { continue }
                if let png = digest.thumbnail, let size = AvatarPNG.dimensions(png) { textureBytes += size.width * size.height * 4 }
                items.append(TeacherSketchItem(id: s.id, name: s.name, modifiedAt: s.modifiedAt, authors: digest.authors))
            }
        }
        let cpu = Stopwatch.processCPUSeconds() - cpu0
        perSketch.sort()
        // Of each digest, the texture (the PNG decoded for the grid): made
        // on the worker too, so the main thread only shows it.
        var textures: [Double] = []
        for s in summaries.prefix(100) {
            guard let png = library.digest(s.id, stored: s.thumbnail).thumbnail else { continue }
            textures.append(Stopwatch.seconds { _ = SketchDigestLoader.DecodedTexture(png: png) })
        }
        print(String(format: "gallery_digest_p50: %.2f ms", Stopwatch.median(of: perSketch) * 1000))
        print(String(format: "gallery_digest_p95: %.2f ms", perSketch[min(perSketch.count - 1, perSketch.count * 95 / 100)] * 1000))
        print(String(format: "gallery_digest_texture_p50: %.2f ms", Stopwatch.median(of: textures) * 1000))
        print(String(format: "gallery_digest_all_%d: %.2f s", sketches, all))
        print(String(format: "gallery_digest_all_%d_cpu: %.2f s", sketches, cpu))
        // What the grid keeps once every thumbnail was seen: one RGBA
        // texture per sketch.
        print(String(format: "gallery_textures_%d: %.0f MB", sketches, Double(textureBytes) / 1_048_576))

        // Filtering: the pupil menu, then one pupil's team sketches of the week.
        let now = items.map(\.modifiedAt).max() ?? Date()
        var shown = 0
        let filter = Stopwatch.median(runs: runs) {
            let known = SketchListFilter.pupils(in: items)
            shown = SketchListFilter(pupil: known.first, period: .week, kind: .team).apply(items, now: now).count
        }
        print(String(format: "gallery_filter_%d: %.3f ms", sketches, filter * 1000))
        FileHandle.standardError.write(Data("bench-gallery: the filter shows \(shown) of \(items.count)\n".utf8))

        // The authors' pictures: read, matched to names, decoded.
        var decoded = 0
        let pictures = Stopwatch.median(runs: runs) {
            decoded = AuthorPictureLoader.decode(from: library, own: .init(name: "Frau Berg", avatarPNG: nil))?.count ?? 0
        }
        print(String(format: "gallery_author_pictures_%d: %.2f ms", decoded, pictures * 1000))
        fflush(nil)
        try store.close()
    }

    /// 500 sketches by `names`: a third drawn alone, the rest by teams of
    /// two to four; 20–120 strokes of 30–60 points each; one every ~80
    /// minutes back from now. Buchstaben Post results for every pupil.
    /// Every pupil has a synced profile with a drawn picture.
    private func fill(_ store: LocalStore, names: [String]) throws {
        var rng = SplitMix64(seed: 500)
        let now = Date()
        for i in 0..<sketches {
            let teamSize = rng.next() % 3 == 0 ? 1 : 2 + Int(rng.next() % 3)
            var team: [String] = []
            while team.count < min(teamSize, names.count) {
                let n = names[Int(rng.next() % UInt64(names.count))]
                if !team.contains(n) { team.append(n) }
            }
            let generator = SketchGenerator(seed: UInt64(i + 1), authors: team,
                                            startDate: now.addingTimeInterval(-Double(i) * 4800))
            let doc = generator.document(strokes: 20 + Int(rng.next() % 101), pointsPerStroke: 30 + Int(rng.next() % 31),
                                         name: "\(team.joined(separator: ", ")) \(i + 1)")
            try store.saveSketch(doc)
        }
        // A few weeks of Buchstaben Post for the teacher's results: each
        // pupil in six games of three rounds, four to a game.
        for g in 0..<max(1, names.count * 6 / 4) {
            let team = Array(Set((0..<4).map { names[(g * 4 + $0) % names.count] }))
            let ids = Dictionary(uniqueKeysWithValues: team.enumerated().map { (PlayerID($0.offset), $0.element) })
            let game = now.addingTimeInterval(-Double(g) * 86_400 / 2)
            for round in 1...3 {
                let results = ids.keys.sorted().map { p in
                    WordPostRoundResult(player: p, word: "Wort\(round)", finished: rng.next() % 5 != 0,
                                        milliseconds: Int64(8_000 + rng.next() % 52_000),
                                        lettersSent: Int(rng.next() % 6), lettersReceived: Int(rng.next() % 6),
                                        wrongPlacements: Int(rng.next() % 4))
                }
                let start = game.addingTimeInterval(Double(round) * 90)
                try store.recordRound(WordPostRoundSummary(round: round, startedAt: start, endedAt: start.addingTimeInterval(60),
                                                           results: results), gameID: UUID(), names: ids)
            }
        }
        for (i, name) in names.enumerated() {
            try store.setProfile(accountID: "pupil-\(i)", ProfileRecord(name: name, avatarPNG: Data(try face(i)), at: 1))
        }
    }

    /// A 128 × 128 picture like one drawn with the felt pens: a face in the pupil's colour.
    private func face(_ i: Int) throws -> [UInt8] {
        let image = try CairoImage(width: 128, height: 128)
        let cr = cairo_create(image.surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        let hue = Double(i % 8) / 8
        cairo_set_source_rgb(cr, 0.3 + 0.7 * hue, 0.8 - 0.5 * hue, 0.4)
        cairo_arc(cr, 64, 64, 50, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
        cairo_set_line_width(cr, 5)
        for x in [46.0, 82.0] { cairo_arc(cr, x, 52, 6, 0, 2 * .pi); cairo_fill(cr) }
        cairo_arc(cr, 64, 70, 24, 0.2, .pi - 0.2)
        cairo_stroke(cr)
        cairo_surface_flush(image.surface)
        return try image.pngData()
    }
}
