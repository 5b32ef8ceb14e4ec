import TeamsketchCore

/// What reads a pupil screen's words aloud: the reader as the class's
/// sounds are when asked for (silent when they are off), and the language
/// the app speaks.
@MainActor
struct Voice {
    let speech: SpeechClient
    let language: String
}
