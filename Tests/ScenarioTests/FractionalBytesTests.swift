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

    @Test func decimalsOfLargerUnitsAndWholeBytesStillRead() throws {
        let file = try #require(Load.file(Load.scenario(#""limits": {"storage": "1.5KB", "records": {"assetBytes": "2.0B"}}"#)))
        #expect(file.runs[0].limits.storageBytes == 1536)
        #expect(file.runs[0].limits.records.assetBytes == 2)
    }
}
