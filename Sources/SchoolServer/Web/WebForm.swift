import Foundation

/// A form's fields as a browser posts them (application/x-www-form-urlencoded).
/// At most 8 KiB and 32 fields are read; a field named twice keeps its
/// first value; bytes that do not decode make the field empty.
struct WebForm: Sendable {
    static let maxBytes = 8 << 10
    static let maxFields = 32

    private(set) var fields: [String: String] = [:]

    init(_ body: [UInt8]) {
        for pair in body.prefix(Self.maxBytes).split(separator: UInt8(ascii: "&")).prefix(Self.maxFields) {
            let halves = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(halves[0])
            guard !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = halves.count > 1 ? Self.decode(halves[1]) : ""
        }
    }

    subscript(_ name: String) -> String? { fields[name] }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        return text.removingPercentEncoding ?? ""
    }
}
