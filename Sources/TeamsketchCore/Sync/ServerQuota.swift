/// A quota of the school server that this device's account has reached:
/// the server stores nothing more from it until the limit frees, and the
/// device keeps every change meanwhile. The names are the API's.
public enum ServerQuota: String, Sendable, Equatable, CaseIterable {
    case bytesToday, changesToday, bytesInAll, changesInAll, sketches

    /// Frees the next day by itself; the others need a teacher.
    public var isDaily: Bool { self == .bytesToday || self == .changesToday }
}
