import TeamsketchCore

/// The shared canvas hands its session intents straight to the controller.
extension SessionController: CanvasSessionLink {}
