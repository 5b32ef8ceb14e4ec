import Foundation
import ZIPFoundation

/// Everything the server holds of one pupil as one zip, what a school
/// hands a family that asks for their child's data: readable records
/// (JSON) and the pictures themselves (PNG), not a database dump.
///
/// - `pupil.json`: the account, its class, when this was made.
/// - `changes.json`: every change of theirs or about them, oldest first,
///   each payload as the app stored it (parsed, so it reads as JSON).
/// - `sketches.json`: the sketches they drew in, and each one's picture.
/// - `sketches/NNN-name.png`: each sketch at full size.
enum PupilArchive {
    /// `images`: each sketch's PNG, by id; a sketch without one is listed
    /// without a picture.
    static func make(_ data: AccountStore.PupilData, images: [UUID: [UInt8]], exportedAt: Int64) throws -> [UInt8] {
        let archive = try Archive(accessMode: .create)
        let when = Date(timeIntervalSince1970: Double(exportedAt) / 1000)
        func add(_ path: String, _ bytes: Data) throws {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: when,
                                 compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add("pupil.json", try json([
            "id": data.pupil.id.key, "name": data.pupil.name,
            "class": ["id": data.pupil.classID.key, "name": data.className],
            "exportedAt": exportedAt,
        ]))
        try add("changes.json", try json(data.changes.map { change -> [String: Any] in
            [
                "opId": change.opId, "entity": change.entity, "entityId": change.entityId,
                "createdAt": change.createdAt, "receivedAt": change.receivedAt, "pushedBy": change.authorId,
                // Stored payloads are JSON the server checked; anything
                // else is kept as the text it is.
                "payload": (try? JSONSerialization.jsonObject(with: Data(change.payload.utf8), options: .fragmentsAllowed))
                    ?? change.payload,
            ]
        }))
        var listed: [[String: Any]] = []
        for (index, sketch) in data.sketches.enumerated() {
            var entry: [String: Any] = ["id": sketch.id.key, "name": sketch.name, "createdAt": sketch.createdAt,
                                        "team": sketch.team, "deleted": sketch.deleted]
            if let png = images[sketch.id] {
                let path = "sketches/" + fileName(index + 1, sketch.name) + ".png"
                try add(path, Data(png))
                entry["image"] = path
            }
            listed.append(entry)
        }
        try add("sketches.json", try json(listed))
        guard let bytes = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return Array(bytes)
    }

    private static func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// "007-Haus am See": numbered, so names may repeat; letters, digits,
    /// spaces and dashes of the sketch's name only, so a name never makes
    /// a path (no slashes, no "..") or a name a file system refuses.
    static func fileName(_ number: Int, _ name: String) -> String {
        let kept = String(name.unicodeScalars.prefix(40).map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || scalar == " " || scalar == "-" ? Character(scalar) : "_"
        }).trimmingCharacters(in: .whitespaces)
        let number = String(format: "%03d", number)
        return kept.isEmpty ? number : number + "-" + kept
    }
}
