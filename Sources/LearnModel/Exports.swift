// The model is one module per domain, each Foundation only (see
// docs/ARCHITECTURE.md, "The layers"). A target that uses most of
// them imports LearnModel, which passes them all on; a new target imports
// the domains it needs.
@_exported import LearnAnalysis
@_exported import LearnBasics
@_exported import LearnDiscovery
@_exported import LearnMaths
@_exported import LearnRecords
@_exported import LearnSession
@_exported import LearnSketch
@_exported import LearnWordPost
