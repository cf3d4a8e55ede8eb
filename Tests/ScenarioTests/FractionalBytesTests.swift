import Testing
@testable import SyncLabScenario

/// SPEC §3.1: "a bare integer means bytes". A size in bytes with a fraction (`"1.5"`, `"0.5B"`)
/// is refused at validation, naming its path, instead of being rounded to a whole byte.
@Suite("Fractional bytes")
struct FractionalBytesTests {
    @Test func aUnitlessDecimalSizeIsAnErrorNamingItsPath() {
        let errors = Load.errors(Load.scenario(#"""
        "limits": {"storage": "1.5", "records": {"assetBytes": "0.5B"}},
        "steps": [{"at": "0s", "device": "A", "op": "doc.save", "path": "a.bin", "content": {"$size": "2.5"}}]
        """#))
        #expect(errors.map(\.path) == ["limits.storage", "limits.records.assetBytes", "steps[0].content.$size"], "\(Load.describe(errors))")
        #expect(errors.first?.message == #"expected a storage quota in whole bytes, got "1.5": a number of bytes has no fraction (write a whole number, or a larger unit such as "1.5KB")"#)
    }

    /// A size or bandwidth past 64 bits is "too large", not "expected a size like …" (which
    /// it is).
    @Test func aSizeOrBandwidthPast64BitsIsTooLarge() {
        let errors = Load.errors(Load.scenario(#""limits": {"storage": "99999999999TB"}, "network": {"bandwidth": "99999999999999999999Gbps"}"#))
        #expect(errors.map(\.path) == ["limits.storage", "network.bandwidth"], "\(Load.describe(errors))")
        #expect(errors.first?.message == #"a storage quota is too large, got "99999999999TB": at most 2^63 - 1 bytes (8 EB)"#)
        #expect(errors.last?.message.hasPrefix("a bandwidth is too large") == true)
        #expect(Load.errors(Load.scenario(#""limits": {"storage": "3 megabytes"}"#)).first?.message.hasPrefix("expected a storage quota like") == true)
    }

    @Test func decimalsOfLargerUnitsAndWholeBytesStillRead() throws {
        let file = try #require(Load.file(Load.scenario(#""limits": {"storage": "1.5KB", "records": {"assetBytes": "2.0B"}}"#)))
        #expect(file.runs[0].limits.storageBytes == 1536)
        #expect(file.runs[0].limits.records.assetBytes == 2)
    }
}
