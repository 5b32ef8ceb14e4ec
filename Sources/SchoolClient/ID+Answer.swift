import LearnModel
import TeamsketchCore

extension ID {
    /// An id in the server's answer. One no server makes (empty, or longer
    /// than `maxLength`) makes the whole answer unreadable: kept, it would
    /// be refused when the file holding it is next read (a sign-in lost).
    static func answered(_ text: String) throws(SchoolConnectionError) -> Self {
        guard let id = Self(wire: text) else {
            throw .refused(status: 200, message: "unreadable answer: an id of \(text.utf8.count) bytes")
        }
        return id
    }
}
