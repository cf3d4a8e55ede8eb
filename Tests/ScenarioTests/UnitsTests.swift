import SyncLabKernel
import Testing
@testable import SyncLabScenario

@Suite("Units")
struct UnitsTests {
    @Test(arguments: [
        ("1.5s", 1_500_000), ("250ms", 250_000), ("2m", 120_000_000), ("1h", 3_600_000_000), ("1d", 86_400_000_000),
        ("10us", 10), ("+5m", 300_000_000), ("-30s", -30_000_000), ("250", 250_000), ("0.0005ms", 1), ("0.0004ms", 0),
        ("1.0000005s", 1_000_001), ("-1.0000005s", -1_000_001), ("0s", 0), ("1.25 s", 1_250_000),
    ] as [(String, Int64)])
    func durationsParseToMicroseconds(text: String, micros: Int64) {
        #expect(Units.duration(text) == SimDuration(microseconds: micros))
    }

    @Test(arguments: ["", "fast", "5", "s", "1.2.3s", "5 sec", "1e3s", "--5s", "99999999999999999999d", "1.5x"])
    func invalidDurationsAreNil(text: String) {
        if text == "5" { #expect(Units.duration(text) == .milliseconds(5)); return }
        #expect(Units.duration(text) == nil)
    }

    /// Bad input never crashes: 19 or more zeros after the point used to overflow the decimal
    /// scale (a trap) in every duration and size.
    @Test func longFractionsDoNotOverflow() {
        let zeros = String(repeating: "0", count: 30)
        #expect(Units.duration("0.\(zeros)1s") == .zero)
        #expect(Units.duration("1.\(zeros)s") == .seconds(1))
        #expect(Units.size("0.\(zeros)1KB") == 0)
        #expect(Units.size("0.\(zeros)1") == nil)
        #expect(Units.isFractionalBytes("0.\(zeros)1B"))
        #expect(Units.size("2.\(zeros)") == 2)
        #expect(Units.bandwidth("1.\(zeros)1Mbps") == 1_000_000)
    }

    @Test(arguments: [
        ("3MB", 3 * 1_048_576), ("512KB", 524_288), ("1GB", 1_073_741_824), ("10B", 10), ("2KiB", 2048),
        ("1.5MB", 1_572_864), ("100", 100), ("1TB", 1_099_511_627_776), ("2.0B", 2), ("0.0001KB", 0),
    ] as [(String, Int64)])
    func sizesUseBinaryUnits(text: String, bytes: Int64) {
        #expect(Units.size(text) == bytes)
    }

    /// Sizes up to 2^63 - 1 bytes are sizes, whichever way they are written (session 15, spec32):
    /// a 19-digit number of bytes was refused as too large, with a message naming 2^63 - 1 as
    /// the limit, when it was 2^63 - 1 itself.
    @Test func nineteenDigitSizesUpToTheLimitParse() {
        #expect(Units.size("9223372036854775807") == Int64.max)
        #expect(Units.size("9223372036854775807B") == Int64.max)
        #expect(Units.size("1000000000000000000") == 1_000_000_000_000_000_000)
        #expect(Units.size("9223372036854775808") == nil)
        #expect(Units.size("8589934592GB") == nil)
        #expect(Units.duration("1000000000000000000us") == SimDuration(microseconds: 1_000_000_000_000_000_000))
    }

    @Test(arguments: ["-1MB", "3 megabytes", "MB", "+3MB", "1.5XB", "1.5", "0.5B", "2.25 B"])
    func invalidSizesAreNil(text: String) {
        #expect(Units.size(text) == nil)
    }

    @Test(arguments: [("10Mbps", 10_000_000), ("256kbps", 256_000), ("1Gbps", 1_000_000_000), ("800bps", 800), ("1.5Mbps", 1_500_000)] as [(String, Int64)])
    func bandwidthsUseDecimalBitsPerSecond(text: String, bits: Int64) {
        #expect(Units.bandwidth(text) == bits)
    }

    @Test func invalidBandwidthsAreNil() {
        #expect(Units.bandwidth("10MB/s") == nil)
        #expect(Units.bandwidth("-1Mbps") == nil)
    }
}
