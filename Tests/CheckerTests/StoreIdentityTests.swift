import Testing
import SyncLabProtocol

/// `Store` compares and hashes by case (not by its raw-value name); it must still behave as a
/// value: equal exactly when the case is, usable as a set and dictionary key.
@Suite("Store identity")
struct StoreIdentityTests {
    @Test func storesAreEqualExactlyWhenTheirCasesAre() {
        for lhs in Store.allCases {
            for rhs in Store.allCases {
                #expect((lhs == rhs) == (lhs.rawValue == rhs.rawValue))
            }
        }
        #expect(Store(rawValue: "kvs") == .kvs)
    }

    @Test func equalStoresHashAlikeAndDistinctStoresStayDistinctKeys() {
        #expect(Set(Store.allCases + Store.allCases).count == 3)
        let keys = [ItemKey(account: AccountID(0), store: .kvs, name: "a"), ItemKey(account: AccountID(0), store: .documents, name: "a")]
        #expect(Set(keys + keys).count == 2)
        var hasher = Hasher(), again = Hasher()
        hasher.combine(Store.records); again.combine(Store(rawValue: "records")!)
        #expect(hasher.finalize() == again.finalize())
    }
}
