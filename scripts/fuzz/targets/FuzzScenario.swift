// libFuzzer target: the JSON5 reader and the scenario loader on arbitrary bytes (issue 14).
// Built and run by scripts/fuzz/fuzz.sh; a crash, a trap or an ASan report is a finding.
import SyncLabJSON
import SyncLabScenario

/// `precondition` prints no message in an optimized build; a finding should say what broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The reader alone, with and without duplicate collection (both entry points users reach).
    _ = try? JSON5Reader.parse(bytes: bytes)
    var duplicates: [JSONParseError] = []
    _ = try? JSON5Reader.parse(bytes: bytes, duplicates: &duplicates)
    // The loader: validation, variants, step expansion. Every error is a value, never a trap.
    switch ScenarioLoader.parse(bytes: bytes, path: "fuzz.json") {
    case .success(let file):
        for run in file.runs { check(!run.variant.isEmpty, "a run without a variant name") }
    case .failure(let errors):
        check(!errors.errors.isEmpty, "a failed load with no error")
        for error in errors.errors { _ = error.description }
    }
    return 0
}
