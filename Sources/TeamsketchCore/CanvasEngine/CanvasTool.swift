/// What the pointer does on the canvas.
public enum CanvasTool: Hashable, Sendable {
    case pen, eraser
}
