import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// Who resolved a conflict reaches the checker as a typed field, never parsed from `detail`.
@Suite("Checker: who resolved a conflict")
struct ConflictResolverTests {
    /// A:1 and B:1 set the same field; B is shown the conflict and its policy keeps A:1.
    private func history(resolvedBy resolver: ConflictResolver?, detail: String) -> HistoryBuilder {
        var builder = HistoryBuilder()
        let title = builder.key("Z/r", store: .records, field: "title")
        let a = builder.write(0, at: 10, [(title, .field(.string("a")))], op: "record.save")   // t=10s
        let b = builder.write(1, at: 11, [(title, .field(.string("b")))], op: "record.save")   // t=11s
        builder.device(1, at: 20, .conflictShown(item: title, writes: [a, b], detail: detail, resolvedBy: resolver))
        builder.fetch(1, at: 20, [(title, .field(.string("a")), a)])
        builder.final([ViewEntry(item: title, value: .field(.string("a")), write: a)])
        return builder
    }

    @Test("the explanation names the policy from the typed field, whatever the detail says")
    func policyComesFromTheTypedField() {
        let report = history(resolvedBy: ConflictResolver("serverWins"), detail: "shown to the app").check()
        let lost = report.anomalies.first { $0.kind == .lostUpdate }
        #expect(lost?.write == "B:1")
        #expect(lost?.explanation.contains("B resolved a conflict over it with policy serverWins") == true)
    }

    @Test("a detail that mentions a policy names nobody when no resolver is given")
    func detailIsNeverParsed() {
        let report = history(resolvedBy: nil, detail: "policy clientWins").check()
        let lost = report.anomalies.first { $0.kind == .lostUpdate }
        #expect(lost?.write == "B:1")
        #expect(lost?.explanation.contains("resolved a conflict") == false)
        #expect(lost?.explanation.contains("clientWins") == false)
    }
}
