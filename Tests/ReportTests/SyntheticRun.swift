/// A synthetic saved run of many devices over a long time, shaped like a KVS run: every write is
/// uploaded (the cloud marks a last-writer-wins decision for it), pushed to `fanOut` other
/// devices, which fetch it; each device spends an hour offline; every other device's third write
/// is reported lost.
/// Used to check that big runs stay small on the page (folding, aggregation, caps).
enum SyntheticRun {
    static func make(devices: Int, duration: Int64, writeEvery: Int64, fanOut: Int) -> (trace: [UInt8], result: [UInt8]) {
        var lines: [(Int64, Int, String)] = []
        var sequence = 0
        func add(_ time: Int64, _ body: String) { lines.append((time, sequence, "{\"t_us\":\(time),\(body)}")); sequence += 1 }
        let names = (0..<devices).map { "D\($0)" }
        let deviceList = names.enumerated().map { "{\"id\":\"\($1)\",\"account\":\"main\",\"clockOffset_us\":\($0 * 1_000_000),\"driftPpm\":0.0,\"online\":true}" }.joined(separator: ",")
        add(0, "\"ev\":\"run\",\"scenario\":\"synthetic\",\"variant\":\"base\",\"seed\":1,\"accounts\":[\"main\"],\"devices\":[\(deviceList)],\"steps\":0")
        func roundTrip(_ device: Int, _ request: Int, _ kind: String, _ at: Int64, _ up: Int64, _ down: Int64) {
            let name = names[device]
            add(at, "\"ev\":\"send\",\"device\":\"\(name)\",\"store\":\"kvs\",\"req\":\(request),\"kind\":\"\(kind)\",\"bytes\":0,\"arrive_us\":\(at + up)")
            add(at + up, "\"ev\":\"cloudReceive\",\"device\":\"\(name)\",\"store\":\"kvs\",\"req\":\(request),\"kind\":\"\(kind)\"")
            add(at + up, "\"ev\":\"respond\",\"device\":\"\(name)\",\"store\":\"kvs\",\"req\":\(request),\"result\":\"ok\",\"bytes\":0,\"arrive_us\":\(at + up + down)")
            add(at + up + down, "\"ev\":\"receive\",\"device\":\"\(name)\",\"store\":\"kvs\",\"req\":\(request),\"result\":\"ok\"")
        }
        var requests = [Int](repeating: 0, count: devices)
        var writes = [Int](repeating: 0, count: devices)
        var anomalies: [String] = []
        for device in 0..<devices {
            let offlineStart = Int64(device % 20) * 3_600_000_000 + 600_000_000
            add(offlineStart, "\"ev\":\"offline\",\"device\":\"\(names[device])\"")
            add(offlineStart + 3_600_000_000, "\"ev\":\"online\",\"device\":\"\(names[device])\"")
            var time = Int64(device) * 7_000_000 + 1_000_000
            while time < duration {
                writes[device] += 1
                let write = "\(names[device]):\(writes[device])"
                let offline = time >= offlineStart && time < offlineStart + 3_600_000_000
                add(time, "\"ev\":\"op\",\"device\":\"\(names[device])\",\"op\":\"kvs.set\",\"write\":\"\(write)\",\"summary\":\"kvs.set k\(device % 7) = \(writes[device])\",\"outcome\":\"accepted\",\"local_us\":\(time),\"step\":\"steps[\(device)]\"")
                requests[device] += 1
                if offline {
                    add(time + 1_000, "\"ev\":\"send\",\"device\":\"\(names[device])\",\"store\":\"kvs\",\"req\":\(requests[device]),\"kind\":\"upload\",\"result\":\"networkUnavailable\"")
                } else {
                    let up = Int64(20_000 + (device * 7919 + writes[device] * 104_729) % 90_000)
                    roundTrip(device, requests[device], "upload", time + 1_000, up, 30_000)
                    add(time + 1_000 + up, "\"ev\":\"lastWriterWins\",\"item\":\"k\(device % 7)\",\"chosen\":\"\(write)\",\"over\":\"earlier\",\"rule\":\"arrival\"")
                    for step in 1...max(fanOut, 1) where fanOut > 0 {
                        let target = (device + step) % devices
                        let pushAt = time + 1_000 + up
                        add(pushAt, "\"ev\":\"push\",\"device\":\"\(names[target])\",\"store\":\"kvs\",\"arrive_us\":\(pushAt + 50_000)")
                        add(pushAt + 50_000, "\"ev\":\"pushReceive\",\"device\":\"\(names[target])\",\"store\":\"kvs\"")
                        requests[target] += 1
                        roundTrip(target, requests[target], "fetch", pushAt + 50_000, 40_000, 40_000)
                    }
                }
                if writes[device] == 3 && device % 2 == 0 {
                    anomalies.append("{\"kind\":\"lostUpdate\",\"store\":\"kvs\",\"account\":\"main\",\"item\":\"k\(device % 7)\",\"device\":\"\(names[device])\",\"at_us\":\(time + 500_000),\"explanation\":\"\(names[device])'s write \(write) was lost: last writer wins.\",\"write\":\"\(write)\",\"replacedBy\":\"\(names[(device + 1) % devices]):3\"}")
                }
                time += writeEvery
            }
        }
        add(duration, "\"ev\":\"end\",\"settled\":true,\"events\":\(lines.count)")
        lines.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var trace: [UInt8] = []
        for line in lines { trace.append(contentsOf: line.2.utf8); trace.append(10) }
        let total = writes.reduce(0, +)
        let result = """
        {"scenario":"synthetic","file":"synthetic.json","variant":"base","seed":1,"passed":true,"traceDigest":"fnv1a64:0","events":\(lines.count),"simulatedEnd_us":\(duration),"settled":true,"metrics":{"writes":\(total),"lostUpdates":\(anomalies.count),"conflicts":0,"unresolvedConflicts":0,"quotaViolations":0,"converged":true,"notifications":0,"messages":0,"retries":0},"anomalies":[\(anomalies.joined(separator: ","))],"expectations":[],"final":{}}
        """
        return (trace, Array(result.utf8))
    }
}
