// SyncLab: the one module an app team imports (SPEC §9). Its public surface is its own types
// (Scenario, ScenarioBuilder, RunResult, World, AppRegistry…); the modules below it are
// imported internally, so nothing of theirs leaks into a team's code.
