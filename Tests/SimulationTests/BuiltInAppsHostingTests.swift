import Testing
import SyncLabApps
@testable import SyncLabSimulation

/// A device whose stores name no team app hosts the built-in apps (issue 11): the document
/// policy's app inside its engine, the KVS `reader` as any KVS app is hosted; both made again
/// at each launch.
@Suite("The simulator hosts the built-in apps")
struct BuiltInAppsHostingTests {
    @Test("each device gets the built-in app of its policy and the KVS reader, at install and at restart")
    func builtInsPerDevice() throws {
        var simulator = try RequestTimeoutQueueTests.simulator("""
        {"format": "synclab/1", "name": "built-ins", "engine": {"documents": {"conflict": "keepBoth"}},
         "devices": [{"id": "A"}, {"id": "B", "apps": {"documents": "merge"}}],
         "steps": [{"at": "1s", "device": "A", "op": "device.crash"}, {"at": "2s", "device": "A", "op": "device.restart"}]}
        """)
        #expect(simulator.devices[0].documents?.builtInApp is HostedDocumentsApp<KeepBothApp>)
        #expect(simulator.devices[1].documents?.builtInApp is HostedDocumentsApp<MergeApp>)
        #expect(simulator.devices.allSatisfy { $0.kvsApp is HostedKeyValueStoreApp })
        _ = simulator.execute(judge: false)
        #expect(simulator.devices[0].documents?.builtInApp is HostedDocumentsApp<KeepBothApp>)
        #expect(simulator.devices[0].kvsApp is HostedKeyValueStoreApp)
    }
}
