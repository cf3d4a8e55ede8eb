// SyncLab: the one module an app team imports (SPEC §9). Its public surface is its own types
// (Scenario, ScenarioBuilder, RunResult, World, AppRegistry…) and the public app API of
// SyncLabApps, re-exported (DocumentsApp, KeyValueStoreApp, RecordsApp, SyncEngine, SyncRecord, ScenarioValue…: the module the
// built-in apps are written in, below the simulation). The other modules below it are imported
// internally, so nothing of theirs leaks into a team's code.
@_exported public import SyncLabApps
