import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
import SyncLabResult

/// Finds items of a sorted view by key: for the simulator's asserts and the runner's `final` expectations.
public struct ItemLookup {
    var byItem: [ItemKey: ItemValue] = [:]
    /// The view as given, for listing a record's fields.
    let view: [ViewEntry]
    public init(_ view: [ViewEntry]) {
        self.view = view
        for entry in view { byItem[entry.item] = entry.value }
    }

    public func value(_ item: ItemKey) -> ItemValue { byItem[item] ?? .absent }

    /// The first of `accounts` (databases) whose view has record `name`, else the first.
    public func recordHolder(name: String, accounts: [AccountID]) -> AccountID {
        accounts.first { byItem[ItemKey(account: $0, store: .records, name: name, field: "")] != nil } ?? accounts[0]
    }

    /// Every field record `name` has in `account`'s view, in UTF-8 order of the field names: what
    /// an expectation that wanted the record absent shows it holds.
    public func recordFields(name: String, account: AccountID) -> [(name: String, value: ItemValue)] {
        view.filter { $0.item.account == account && $0.item.store == .records && $0.item.name == name && !$0.item.field.isEmpty && $0.value != .absent }
            .sorted { $0.item < $1.item }
            .map { (name: $0.item.field, value: $0.value) }
    }

    /// Compares the listed fields of record `name` (`ZONE/NAME`); nil fields means "absent".
    public func recordMismatches(name: String, fields: [FieldAssignment]?, accounts: [AccountID]) -> [String] {
        let account = recordHolder(name: name, accounts: accounts)
        let exists = byItem[ItemKey(account: account, store: .records, name: name, field: "")].map { $0 != .absent } ?? false
        guard let fields else {
            return exists ? ["record \"\(name)\" exists, expected it absent"] : []
        }
        guard exists else {
            // `{}` lists no field: it asks only that the record exist ("expected fields " said nothing).
            // Listed fields say what each should hold: "expected fields f, g" read as if a field
            // wanted absent (`"g": null`) had been wanted present.
            let listed = fields.map { field in "\(field.name) \(field.value.map { "= " + ValueText.describe(.field($0)) } ?? "absent")" }
            let wanted = fields.isEmpty ? "expected it to exist" : "expected it to exist with \(listed.joined(separator: ", "))"
            return ["record \"\(name)\" is absent, \(wanted)"]
        }
        var failures: [String] = []
        for field in fields {
            let actual = value(ItemKey(account: account, store: .records, name: name, field: field.name))
            let wanted: ItemValue = field.value.map { .field($0) } ?? .absent
            if actual != wanted { failures.append("record \"\(name)\" field \(field.name) is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        return failures
    }
}
