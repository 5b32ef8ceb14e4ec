import Foundation
import LearnModel
import LearnStore

/// The few things the app core asks of the device's store. `live` is a
/// `LocalStore` (on disk, or `LocalStore.inMemory()` in tests);
/// `failing` throws from every call, to see how the core reports it.
public struct StoreClient: Sendable {
    /// How many ops the sketch has stored; nil when there is no such sketch.
    public var storedOpCount: @Sendable (_ sketch: UUID) throws -> Int?
    /// Whether the id is taken, also by a deleted sketch (ids are never reused).
    public var isSketchIDTaken: @Sendable (_ sketch: UUID) throws -> Bool
    /// A new empty sketch, filed under `origin`, naming `members` at once.
    public var createSketch: @Sendable (_ meta: SketchMeta, _ origin: SketchOrigin, _ members: [UUID]) throws -> Void
    /// Names accounts that draw in a team sketch, for the school server.
    public var addMembers: @Sendable (_ accounts: [UUID], _ sketch: UUID) throws -> Void
    /// Appends ops after the ones stored, in one transaction: all or none.
    public var append: @Sendable (_ ops: [SketchOp], _ sketch: UUID) throws -> Void
    /// A new sketch with all its ops in one transaction (an import).
    public var saveSketch: @Sendable (_ document: SketchDocument) throws -> Void
    public var setThumbnail: @Sendable (_ png: Data, _ sketch: UUID) throws -> Void
    /// Buchstaben Post results of one round for the named players, filed
    /// under the accounts given (the others stay on this laptop); returns
    /// how many rows were written.
    public var recordRound: @Sendable (_ summary: WordPostRoundSummary, _ game: UUID,
                                       _ names: [PlayerID: String], _ accounts: [PlayerID: UUID]) throws -> Int
    /// A sketch deleted here since it was opened: what it holds becomes a
    /// new sketch (`LocalStore.keepDeletedAsCopy`); nil when there is none.
    public var keepDeletedAsCopy: @Sendable (_ sketch: UUID) throws -> LocalStore.KeptCopy?

    public init(storedOpCount: @escaping @Sendable (UUID) throws -> Int?,
                isSketchIDTaken: @escaping @Sendable (UUID) throws -> Bool,
                createSketch: @escaping @Sendable (SketchMeta, SketchOrigin, [UUID]) throws -> Void,
                addMembers: @escaping @Sendable ([UUID], UUID) throws -> Void = { _, _ in },
                append: @escaping @Sendable ([SketchOp], UUID) throws -> Void,
                saveSketch: @escaping @Sendable (SketchDocument) throws -> Void,
                setThumbnail: @escaping @Sendable (Data, UUID) throws -> Void,
                recordRound: @escaping @Sendable (WordPostRoundSummary, UUID, [PlayerID: String],
                                                  [PlayerID: UUID]) throws -> Int,
                keepDeletedAsCopy: @escaping @Sendable (UUID) throws -> LocalStore.KeptCopy? = { _ in nil }) {
        self.storedOpCount = storedOpCount
        self.isSketchIDTaken = isSketchIDTaken
        self.createSketch = createSketch
        self.addMembers = addMembers
        self.append = append
        self.saveSketch = saveSketch
        self.setThumbnail = setThumbnail
        self.recordRound = recordRound
        self.keepDeletedAsCopy = keepDeletedAsCopy
    }

    /// `copyName`: what a kept copy is called, translated by the app.
    public static func live(_ store: LocalStore,
                            copyName: @escaping @Sendable (String) -> String = LocalStore.defaultCopyName) -> StoreClient {
        StoreClient(
            storedOpCount: { try store.opCount($0) },
            isSketchIDTaken: { try store.hasSketch($0) },
            createSketch: { try store.createSketch($0, origin: $1, members: $2) },
            addMembers: { try store.addMembers($0, to: $1) },
            append: { try store.append(contentsOf: $0, to: $1) },
            saveSketch: { try store.saveSketch($0) },
            setThumbnail: { try store.setThumbnail($0, for: $1) },
            recordRound: { try store.recordRound($0, gameID: $1, names: $2, accounts: $3).count },
            keepDeletedAsCopy: { try store.keepDeletedAsCopy($0, copyName: copyName) })
    }

    /// Every call throws `StoreUnavailable`.
    public static let failing = StoreClient(
        storedOpCount: { _ in throw StoreUnavailable() },
        isSketchIDTaken: { _ in throw StoreUnavailable() },
        createSketch: { _, _, _ in throw StoreUnavailable() },
        addMembers: { _, _ in throw StoreUnavailable() },
        append: { _, _ in throw StoreUnavailable() },
        saveSketch: { _ in throw StoreUnavailable() },
        setThumbnail: { _, _ in throw StoreUnavailable() },
        recordRound: { _, _, _, _ in throw StoreUnavailable() },
        keepDeletedAsCopy: { _ in throw StoreUnavailable() })
}

/// What `StoreClient.failing` throws.
public struct StoreUnavailable: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "the store is not available" }
}
