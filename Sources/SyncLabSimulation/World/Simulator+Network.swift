import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabHistory

extension Simulator {
    /// A device sends a request (SPEC §3.3): offline ⇒ fails at once; lossy ⇒ may vanish; either
    /// way the engine hears exactly once, by a response or by its timeout.
    mutating func send(_ request: consuming RequestEnvelope, from index: Int) {
        let store = request.body.store
        let key = RequestKey(device: Int32(index), store: store, requestID: request.requestID)
        devices[index].lastRequestIDs[store] = max(devices[index].lastRequestIDs[store], request.requestID)
        statistics.messages += 1
        let bytes = request.body.transferBytes
        guard devices[index].online else {
            if trace.enabled {
                trace.begin(now, .send, device: index, store: store, request: request.requestID)
                trace.add("kind", identifier: TraceRecorder.caseLiteral(of: request.body)); trace.add("result", "networkUnavailable"); trace.end()
            }
            // Answered at once, never timed out.
            inFlight[key] = InFlightRequest(boot: devices[index].boot, deadline: now)
            let failure = ResponseEnvelope(requestID: request.requestID, device: request.device, store: store, result: .failed(.networkUnavailable))
            queue.push(.responseArrives(slot: parkedResponses.park(failure), epoch: nil, boot: devices[index].boot), at: now)
            return
        }
        let timeout = devices[index].link.settings.requestTimeout
        if devices[index].link.random.chance(devices[index].link.settings.loss) {
            inFlight[key] = InFlightRequest(boot: devices[index].boot, deadline: now + timeout)
            queue.push(.requestTimeout(device: index, store: store, requestID: request.requestID, boot: devices[index].boot), at: now + timeout)
            if trace.enabled {
                trace.begin(now, .send, device: index, store: store, request: request.requestID)
                trace.add("kind", identifier: TraceRecorder.caseLiteral(of: request.body)); trace.add("bytes", bytes); trace.add("result", "lost"); trace.end()
            }
            return
        }
        let arrival = devices[index].link.deliveryTime(now: now, bytes: bytes, uplink: true)
        let deadline = arrival + timeout
        // Traced first: the request is moved into its slot, not copied.
        if trace.enabled {
            trace.begin(now, .send, device: index, store: store, request: request.requestID)
            trace.add("kind", identifier: TraceRecorder.caseLiteral(of: request.body)); trace.add("bytes", bytes); trace.add("arrive_us", arrival.microseconds); trace.end()
        }
        queue.push(.requestArrives(slot: parkedRequests.park(request), epoch: devices[index].link.epoch), at: arrival)
        // The timeout takes its place in the queue now but is pushed only if it may be needed.
        inFlight[key] = InFlightRequest(boot: devices[index].boot, deadline: deadline,
                                        timeoutSequence: queue.reserveSequence(), timeoutQueued: false)
    }

    mutating func requestArrives(_ request: consuming RequestEnvelope, epoch: UInt32) {
        let index = Int(request.device.index)
        let key = RequestKey(device: request.device.index, store: request.body.store, requestID: request.requestID)
        guard devices[index].link.epoch == epoch else {
            // The name read here only: it lies on one of the device's colder lines.
            trace.record(now, .dropped, [("device", .string(devices[index].name)), ("store", .string(request.body.store.rawValue)), ("req", .int(Int64(request.requestID))), ("why", .string(devices[index].link.cause(ofCutAfter: epoch).why("request")))])
            queueTimeout(key)
            return
        }
        statistics.deliveries += 1
        if trace.enabled {
            trace.begin(now, .cloudReceive, device: index, store: request.body.store, request: request.requestID)
            trace.add("kind", identifier: TraceRecorder.caseLiteral(of: request.body)); trace.end()
        }
        batch += 1
        // The reused buffer is swapped out while we walk it, so clearing it never copies.
        var actions: [CloudAction] = [], logs: [LogFields] = []
        let tracing = options.recordTrace
        swap(&actions, &scratchCloudActions)
        if tracing { swap(&logs, &scratchLogs) }
        // Moved into the cloud, which moves its body out (the store for the trace lines below is
        // `key.store`).
        cloud.handle(request, trueNow: now, clock: cloudClock, tracing: tracing, actions: &actions, logs: &logs)
        defer {
            swap(&actions, &scratchCloudActions)
            if tracing {
                logs.removeAll(keepingCapacity: true)
                swap(&logs, &scratchLogs)
            }
        }
        // Each action moved out in turn, first to last (reversed, then popped), which leaves the
        // buffer empty with its capacity: iterating copied every action (a retain of its
        // message) and the clearing after released it again.
        actions.reverse()
        while let action = actions.popLast() {
            switch action {
            case .respond(let response): respond(response)
            case .push(let push, let target): pushTo(Int(target.index), push)
            case .pushAccount(let push, let except):
                // The account's devices walked in place, in device order (`Cloud.devices(signedInto:except:)`
                // without its list): at 1,000 devices the list grew by doubling at every upload,
                // a run of allocations of up to 4 KB whose large sizes made the allocator
                // consolidate its free chunks each time.
                let skipped = except.map { Int($0.index) } ?? -1
                for target in 0..<cloud.deviceAccounts.count where target != skipped && cloud.deviceAccounts[target] == push.account {
                    pushTo(target, push)
                }
            case .observe(let observation):
                recordFact(FactRecord(batch: batch, at: now, device: nil, kind: .observation(observation)))
                trace.observation(now, nil, observation)
            case .log(let event, let details):
                trace.log(now, nil, key.store, event, details)
            case .logFields(let line):
                trace.log(now, nil, key.store, logs[line])
            }
        }
        // The cloud holds it unanswered (or answered someone else): only the timeout can end it.
        if let pending = inFlight[key], !pending.answerOnItsWay { queueTimeout(key) }
    }

    /// Pushes a request's timeout at the place its send reserved, unless it is queued already.
    /// Called as soon as the request may go unanswered, always before the timeout is due, so the
    /// event pops exactly where one pushed at the send would have.
    mutating func queueTimeout(_ key: RequestKey) {
        guard var pending = inFlight[key], !pending.timeoutQueued else { return }
        assert(pending.timeoutAt >= now, "a timeout is queued before it is due")
        pending.timeoutQueued = true
        inFlight[key] = pending
        queue.push(.requestTimeout(device: Int(key.device), store: key.store, requestID: key.requestID, boot: pending.boot),
                   at: pending.timeoutAt, sequence: pending.timeoutSequence)
    }

    /// The cloud answers: the response travels back unless the device is gone or offline.
    mutating func respond(_ response: consuming ResponseEnvelope) {
        let index = Int(response.device.index)
        let key = RequestKey(device: response.device.index, store: response.store, requestID: response.requestID)
        statistics.messages += 1
        guard var pending = inFlight[key], pending.boot == devices[index].boot, !devices[index].crashed else {
            // The engine that sent it is gone (crash, app deletion): nothing is in flight any more.
            // Request ids never repeat on a device, so the key is this request's alone.
            inFlight[key] = nil
            if trace.enabled {
                trace.begin(now, .respond, device: index, store: response.store, request: response.requestID)
                trace.add(result: response.result); trace.add("delivery", "nobody waiting"); trace.end()
            }
            return
        }
        guard devices[index].online, !devices[index].link.random.chance(devices[index].link.settings.loss) else {
            queueTimeout(key)
            if trace.enabled {
                trace.begin(now, .respond, device: index, store: response.store, request: response.requestID)
                trace.add(result: response.result); trace.add("delivery", "lost"); trace.end()
            }
            return
        }
        let bytes: Int64
        switch response.result {
        case .ok(let body): bytes = body.transferBytes
        case .failed: bytes = 0
        }
        let arrival = devices[index].link.deliveryTime(now: now, bytes: bytes, uplink: false)
        // A large download must not time out while it is still arriving.
        let extended = arrival + devices[index].link.settings.requestTimeout
        if extended > pending.deadline { pending.deadline = extended }
        pending.answerOnItsWay = true
        inFlight[key] = pending
        // A response arriving no earlier than the timeout's place finds the timeout popped first
        // (and pushed again at the extended deadline, as before).
        if arrival >= pending.timeoutAt { queueTimeout(key) }
        if trace.enabled {
            trace.begin(now, .respond, device: index, store: response.store, request: response.requestID)
            trace.add(result: response.result); trace.add("bytes", bytes); trace.add("arrive_us", arrival.microseconds); trace.end()
        }
        // Traced first: the response is moved into its slot, not copied.
        let epoch = devices[index].link.epoch, boot = devices[index].boot
        queue.push(.responseArrives(slot: parkedResponses.park(response), epoch: epoch, boot: boot), at: arrival)
    }

    mutating func responseArrives(_ response: consuming ResponseEnvelope, epoch: UInt32?, boot: UInt32) {
        let index = Int(response.device.index)
        let key = RequestKey(device: response.device.index, store: response.store, requestID: response.requestID)
        guard devices[index].boot == boot, !devices[index].crashed else {
            inFlight[key] = nil // its engine is gone: nobody is waiting
            return
        }
        if let epoch, epoch != devices[index].link.epoch {
            trace.record(now, .dropped, [("device", .string(devices[index].name)), ("store", .string(response.store.rawValue)), ("req", .int(Int64(response.requestID))), ("why", .string(devices[index].link.cause(ofCutAfter: epoch).why("response")))])
            queueTimeout(key)
            return
        }
        guard inFlight.removeValue(forKey: key) != nil else { return }
        statistics.deliveries += 1
        if case .failed = response.result { statistics.retries += 1 }
        // A records request the service refused for now (`zoneBusy`) is retried after `retryAfter`.
        if case .ok(.records(.failed(let failure))) = response.result, failure.retryAfter != nil { statistics.retries += 1 }
        if case .ok(.records(.recordsModified(let results))) = response.result {
            for case .failed(_, .serverRecordChanged) in results { statistics.serverRecordChanged += 1 }
        }
        if trace.enabled {
            trace.begin(now, .receive, device: index, store: response.store, request: response.requestID)
            trace.add(result: response.result); trace.end()
        }
        deliver(.response(response), to: index, response.store)
    }

    mutating func requestTimedOut(_ index: Int, _ store: Store, _ requestID: UInt64, _ boot: UInt32) {
        let key = RequestKey(device: Int32(index), store: store, requestID: requestID)
        guard let pending = inFlight[key], pending.boot == boot else { return }
        guard devices[index].boot == boot else {
            inFlight[key] = nil // its engine is gone: nobody is waiting
            return
        }
        if pending.deadline > now {
            queue.push(.requestTimeout(device: index, store: store, requestID: requestID, boot: boot), at: pending.deadline)
            return
        }
        inFlight[key] = nil
        statistics.retries += 1
        trace.record(now, .timeout, [("device", .string(devices[index].name)), ("store", .string(store.rawValue)), ("req", .int(Int64(requestID)))])
        let failure = ResponseEnvelope(requestID: requestID, device: devices[index].id, store: store, result: .failed(.networkFailure))
        deliver(.response(failure), to: index, store)
    }

    /// Sends a push toward a device: dropped if lost or the app is gone; held if offline.
    mutating func pushTo(_ index: Int, _ push: PushNotification) {
        statistics.messages += 1
        // The name read only for the trace lines of a push that goes nowhere (see `requestArrives`).
        if devices[index].crashed || !devices[index].installed {
            trace.record(now, .push, [("device", .string(devices[index].name)), ("store", .string(push.store.rawValue)), ("delivery", .string("device down"))])
            return
        }
        if devices[index].link.pushRandom.chance(devices[index].link.settings.pushLoss) {
            trace.record(now, .push, [("device", .string(devices[index].name)), ("store", .string(push.store.rawValue)), ("delivery", .string("lost"))])
            return
        }
        if !devices[index].online {
            devices[index].heldPushes[push.store] = push
            trace.record(now, .push, [("device", .string(devices[index].name)), ("store", .string(push.store.rawValue)), ("delivery", .string("held while offline"))])
            return
        }
        schedulePush(push, to: index)
    }

    mutating func schedulePush(_ push: PushNotification, to index: Int) {
        let latency = devices[index].link.settings.pushLatency.sample(&devices[index].link.pushRandom)
        let arrival = now + latency
        pushesInFlight += 1
        queue.push(.pushArrives(device: index, push, epoch: devices[index].link.epoch, boot: devices[index].boot), at: arrival)
        if trace.enabled {
            trace.begin(now, .push, device: index, store: push.store)
            trace.add("arrive_us", arrival.microseconds); trace.end()
        }
    }

    mutating func pushArrives(_ index: Int, _ push: PushNotification, epoch: UInt32, boot: UInt32) {
        pushesInFlight -= 1
        guard devices[index].boot == boot, !devices[index].crashed, devices[index].installed else { return }
        if !devices[index].online || epoch != devices[index].link.epoch {
            devices[index].heldPushes[push.store] = push
            return
        }
        statistics.deliveries += 1
        if trace.enabled {
            trace.begin(now, .pushReceive, device: index, store: push.store); trace.end()
        }
        deliver(.push(push), to: index, push.store)
    }
}
