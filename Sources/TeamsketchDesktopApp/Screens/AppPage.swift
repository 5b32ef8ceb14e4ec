/// The pages of the window's stack; the raw value is the page's name in
/// the GtkStack.
enum AppPage: String, CaseIterable {
    case home
    case firstRun = "first-run"
    case newSketch = "new"
    case gallery
    case feedback
    case opening
    case lobby
    case join
    case canvas
    case wordPostStart = "wordpost-start"
    case wordPost = "wordpost"
    case school
    case teacherPIN = "teacher-pin"
    case teacher
    case review
    case profile
}
