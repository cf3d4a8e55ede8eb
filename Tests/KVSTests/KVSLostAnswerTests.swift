import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// What the public `World` cannot express, on the sans-IO `KVSMiniWorld`: exactly one answer
/// lost after the cloud applied the request (World's `loss` drops messages at random).
@Suite struct KVSLostAnswerTests {
    typealias T = KVSTest

    @Test func aLostAnswerIsRetriedWithoutApplyingTheCallTwice() {
        var world = KVSMiniWorld(devices: 2)
        world.now = 1
        world.set(0, 1, [(key: "n", value: .integer(1))])
        world.loseNextResponse[0] = true
        world.now = 10
        world.fireTimers()
        #expect(world.engines[0].pendingWrites().isEmpty, "the retry was acknowledged")
        #expect(T.lastWriterWins(world.cloudActions).isEmpty)
        #expect(world.cloud.finalView(account: T.main).first?.write == T.write(0, 1))
        #expect(world.notifications(1).count == 1, "one change, one notification on the other device")
    }
}
