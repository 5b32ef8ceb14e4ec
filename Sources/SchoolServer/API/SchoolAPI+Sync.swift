import Foundation
import TeamsketchAPI

// Work in progress: replaced by the sync handlers in this change.
extension SchoolAPI {
    func pushChanges(_ input: Operations.PushChanges.Input) async throws -> Operations.PushChanges.Output {
        throw Problem(.unavailable, "not yet")
    }
    func pullChanges(_ input: Operations.PullChanges.Input) async throws -> Operations.PullChanges.Output {
        throw Problem(.unavailable, "not yet")
    }
    func listSketches(_ input: Operations.ListSketches.Input) async throws -> Operations.ListSketches.Output {
        throw Problem(.unavailable, "not yet")
    }
    func getSketchThumbnail(_ input: Operations.GetSketchThumbnail.Input) async throws -> Operations.GetSketchThumbnail.Output {
        throw Problem(.unavailable, "not yet")
    }
    func getSketchImage(_ input: Operations.GetSketchImage.Input) async throws -> Operations.GetSketchImage.Output {
        throw Problem(.unavailable, "not yet")
    }
}
