import Foundation

/// A change to a sketch's parameters, as the device's outbox and the school
/// server carry it. `thumbnail` is only still read: stores of earlier
/// versions wrote one for every new preview; previews are drawn from the
/// ops, on every device and on the server.
public struct SketchChange: Codable, Hashable, Sendable {
    public enum Change: String, Codable, Sendable {
        case create, rename, thumbnail, delete
    }

    public var change: Change
    public var name: String?
    public var guides: String?
    public var timeLimitMinutes: Int?
    public var width: Double?
    public var height: Double?
    public var createdAt: Int64?
    /// When the change happened (Unix ms).
    public var at: Int64

    public static func create(_ meta: SketchMeta, at: Int64) -> SketchChange {
        SketchChange(change: .create, name: meta.name, guides: meta.guides.rawValue,
                     timeLimitMinutes: meta.timeLimitMinutes, width: meta.width, height: meta.height,
                     createdAt: UnixMilliseconds.milliseconds(meta.createdAt), at: at)
    }

    public static func rename(_ name: String, at: Int64) -> SketchChange {
        SketchChange(change: .rename, name: name, at: at)
    }

    public static func delete(at: Int64) -> SketchChange { SketchChange(change: .delete, at: at) }

    public func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }
}
