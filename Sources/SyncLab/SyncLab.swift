// SyncLab: the one module an app team imports (SPEC §9). It re-exports the public surface of the
// modules below it, so `import SyncLab` is all a test or a tool needs.
@_exported import SyncLabKernel
@_exported import SyncLabProtocol
@_exported import SyncLabScenario
@_exported import SyncLabHistory
@_exported import SyncLabChecker
@_exported import SyncLabResult
@_exported import SyncLabSimulation
@_exported import SyncLabReports
