/// Reasons the school server gives for refusing a change that a device acts
/// on, in the words both sides use.
public enum SyncRefusal {
    /// An op or rename of a sketch deleted on the server: the device keeps
    /// what it drew as a copy rather than losing it.
    public static let sketchDeleted = "the sketch was deleted"
}
