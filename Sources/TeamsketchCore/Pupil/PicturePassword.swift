import Foundation
import LearnModel

/// A pupil's password on a shared laptop: three of nine pictures, tapped in
/// order (a picture may come twice). The pictures are the first nine of the
/// session signs' — the same drawings the children already know from
/// joining a sketch — and the server knows them as 0–8.
public struct PicturePassword: Equatable, Sendable {
    public static let pictures: [SessionSign.Picture] = Array(SessionSign.Picture.allCases.prefix(9))
    public static let length = 3

    public private(set) var chosen: [Int] = []

    public init() {}

    public var isComplete: Bool { chosen.count == Self.length }

    /// Adds the picture at `index` (0–8); false when that is no picture or
    /// three are chosen already.
    @discardableResult
    public mutating func tap(_ index: Int) -> Bool {
        guard Self.pictures.indices.contains(index), !isComplete else { return false }
        chosen.append(index)
        return true
    }

    public mutating func removeLast() {
        if !chosen.isEmpty { chosen.removeLast() }
    }

    public mutating func reset() { chosen = [] }

    /// New pictures for a pupil: three of the nine, any may repeat, as the
    /// server allows.
    public static func random(using generator: inout some RandomNumberGenerator) -> [Int] {
        (0..<length).map { _ in Int.random(in: pictures.indices, using: &generator) }
    }
}
