import SyncLabKernel
import SyncLabProtocol

/// The cloud: the front door (faults, device registry for pushes) and the three services behind it.
///
/// Sans-IO like the engines: the host hands in a request with the cloud's clock reading and
/// carries out the `CloudAction`s that come back.
public struct Cloud: Sendable {
    public var kvs: KVSService
    public var documents: DocumentService
    public var records: RecordService
    public var faults = CloudFaults()
    public var storage: StorageLedger
    /// The account each device last spoke for, by device index: who gets an account's pushes.
    /// An array, not a dictionary, so push order is device order in every process.
    public private(set) var deviceAccounts: [AccountID?]
    /// Requests handled so far: the arrival order.
    public private(set) var arrivals: UInt64 = 0

    public init(configuration: CloudConfiguration, deviceCount: Int) {
        kvs = KVSService(configuration: configuration)
        documents = DocumentService(configuration: configuration)
        records = RecordService(configuration: configuration)
        storage = StorageLedger(accountCount: configuration.accountCount, quotaBytes: configuration.limits.storageBytes)
        deviceAccounts = Array(repeating: nil, count: deviceCount)
    }

    /// Handles one request that arrived at true time `trueNow` with the cloud's clock at `clock`:
    /// appends its actions to `actions` and the details of its typed trace lines to `logs` (a
    /// `.logFields(i)` action is `logs[i]`; both are the host's reused buffers, empty on entry).
    public mutating func handle(_ request: consuming RequestEnvelope, trueNow: SimInstant, clock: LocalInstant, tracing: Bool = true,
                                actions: inout [CloudAction], logs: inout [LogFields]) {
        arrivals &+= 1
        deviceAccounts[Int(request.device.index)] = request.account
        if let failure = faults.failure(at: trueNow) {
            let error: TransportError = failure.name == "serviceUnavailable"
                ? .serviceUnavailable(retryAfter: failure.retryAfter) : .requestRateLimited(retryAfter: failure.retryAfter)
            actions.append(.respond(ResponseEnvelope(requestID: request.requestID, device: request.device, store: request.body.store, result: .failed(error))))
            return
        }
        // The empty check first: binding the body copied the whole envelope for every request.
        if !faults.busyZones.isEmpty, case .records(let body) = request.body,
           let retryAfter = faults.busy(body.zones, at: trueNow) {
            actions.append(.respond(ResponseEnvelope(requestID: request.requestID, device: request.device, store: .records,
                                                     result: .ok(.records(.failed(.zoneBusy(retryAfter: retryAfter)))))))
            return
        }
        var context = CloudContext(now: clock, arrival: arrivals)
        context.tracing = tracing
        swap(&context.actions, &actions)
        swap(&context.logs, &logs)
        // The body is moved out, a trivial one left in its place (the services read the envelope's
        // header only; `respond` takes the store from the answer): `switch request.body` copied
        // the whole envelope, every payload retained, and destroyed the copy after.
        var body = ServiceRequest.kvs(.fetch(since: nil))
        swap(&body, &request.body)
        switch consume body {
        case .kvs(let body): kvs.handle(request, body, &context)
        case .documents(let body): documents.handle(request, body, &context, storage: &storage)
        case .records(let body): records.handle(request, body, &context, storage: &storage)
        }
        swap(&context.actions, &actions)
        swap(&context.logs, &logs)
        // Space freed in an account that had a write refused for lack of it: tell its devices, in
        // both services that share the quota, so changes blocked on it retry now rather than at
        // their next periodic check (as the device's iCloud daemon would learn of it).
        if !storage.freedAfterRefusal.isEmpty {
            for account in storage.takeFreedAfterRefusal() {
                actions.append(.pushAccount(PushNotification(store: .documents, account: account), except: nil))
                actions.append(.pushAccount(PushNotification(store: .records, account: account), except: nil))
            }
        }
    }

    /// Devices that should get a push for `account`, in device order, skipping `except`.
    public func devices(signedInto account: AccountID, except: DeviceID?) -> [DeviceID] {
        var result: [DeviceID] = []
        for (index, known) in deviceAccounts.enumerated() where known == account && DeviceID(index: index) != except {
            result.append(DeviceID(index: index))
        }
        return result
    }

    /// `cloud.expireTokens`: every change token issued so far becomes invalid.
    public mutating func expireTokens() { records.expireTokens() }

    /// The cloud's view of one account (or `.publicDatabase`), sorted by item.
    public func finalView(account: AccountID) -> [ViewEntry] {
        if account == .publicDatabase { return records.finalView(account: account) }
        return kvs.finalView(account: account) + documents.finalView(account: account) + records.finalView(account: account)
    }

    /// Writes that survive outside the final values: unresolved document conflict versions,
    /// and KVS removals whose tombstone is the key's final state.
    public func survivingWrites(account: AccountID) -> [WriteID] {
        documents.survivingWrites(account: account) + kvs.survivingRemovals(account: account)
    }
}
