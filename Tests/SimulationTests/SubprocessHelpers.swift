import Foundation

/// Runs the `synclab` executable built beside the test bundle, in its own process.
enum Synclab {
    /// The built `synclab` binary (test targets depend on it, so it is built with them).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("synclab")
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Output {
        var status: Int32; var stdout: String; var stderr: String
        /// The process died of a signal (`status` is then the signal's number, not an exit status).
        var signaled = false
        /// `timeLimit` passed and the process was killed.
        var timedOut = false
    }

    /// - Parameters:
    ///   - environment: variables to set on top of this process's environment.
    ///   - timeLimit: seconds after which the process is killed (a hang guard, not a speed check).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], timeLimit: Double? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.currentDirectoryURL = directory ?? packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = timeLimit.map { limit in
            let item = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: item)
            return item
        }
        // Both pipes are drained at once: a process that fills stderr while we wait on stdout
        // would otherwise block forever.
        let errData = ErrorData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        watchdog?.cancel()
        let signaled = process.terminationReason == .uncaughtSignal
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: errData.get(), as: UTF8.self),
                      signaled: signaled, timedOut: signaled && process.terminationStatus == SIGTERM && timeLimit != nil)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The stderr bytes read on another queue (a lock, because the reader is another thread).
private final class ErrorData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
