import Foundation
import LearnModel

/// Where the transport says what it did and why (a connection closed for bad
/// frames, a slow member dropped, a rejoin). A closure rather than swift-log,
/// which the project does not depend on.
public struct SessionLog: Sendable {
    public var write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    public static let stderr = SessionLog { line in
        FileHandle.standardError.write(Data(("session: " + line + "\n").utf8))
    }
    public static let silent = SessionLog { _ in }
}
