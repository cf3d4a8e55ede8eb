/// One device of a `World`: act on it as a user or as the world would (airplane mode, crash),
/// and read what its app shows. Each act runs now and is validated as a file's step would be.
public struct WorldDevice {
    let world: World
    /// The device's id.
    public let id: String

    /// Runs op `op` on this device with its `arguments` as a file writes them.
    public func perform(_ op: String, _ arguments: ScenarioObject = [:]) throws(ScenarioLoadError) {
        var step: ScenarioObject = ["device": .string(id), "op": .string(op)]
        step.members += arguments.members
        try world.perform(step)
    }

    /// What the device's app shows now (empty while crashed or uninstalled).
    public var view: DeviceView { world.view(of: id) }

    // MARK: - The device and the network

    /// Airplane mode on (`true`) or off.
    public func airplane(_ on: Bool) throws(ScenarioLoadError) { try perform(on ? "airplane.on" : "airplane.off") }
    /// `device.crash`: volatile memory is lost; what was persisted survives.
    public func crash() throws(ScenarioLoadError) { try perform("device.crash") }
    /// `device.restart` after a crash.
    public func restart() throws(ScenarioLoadError) { try perform("device.restart") }
    /// `app.foreground`: the app launches or returns to the foreground.
    public func foreground() throws(ScenarioLoadError) { try perform("app.foreground") }
    /// `app.delete`: the app and its local data are gone.
    public func deleteApp() throws(ScenarioLoadError) { try perform("app.delete") }
    /// `app.install`.
    public func installApp() throws(ScenarioLoadError) { try perform("app.install") }
    /// `account.signOut`.
    public func signOut() throws(ScenarioLoadError) { try perform("account.signOut") }
    /// `account.signIn` to `account` (one of the scenario's accounts).
    public func signIn(_ account: String) throws(ScenarioLoadError) { try perform("account.signIn", ["account": .string(account)]) }

    // MARK: - Key-value store

    /// `kvs.set`.
    public func kvsSet(_ key: String, _ value: ScenarioValue) throws(ScenarioLoadError) { try perform("kvs.set", ["key": .string(key), "value": value]) }
    /// `kvs.remove`.
    public func kvsRemove(_ key: String) throws(ScenarioLoadError) { try perform("kvs.remove", ["key": .string(key)]) }
    /// `kvs.increment`: read the local integer, write it plus `by`.
    public func kvsIncrement(_ key: String, by: Int64 = 1) throws(ScenarioLoadError) { try perform("kvs.increment", ["key": .string(key), "by": .integer(by)]) }
    /// `kvs.synchronize`.
    public func kvsSynchronize() throws(ScenarioLoadError) { try perform("kvs.synchronize") }

    // MARK: - Documents

    /// `doc.save`: the whole content.
    public func docSave(_ path: String, _ content: String) throws(ScenarioLoadError) { try perform("doc.save", ["path": .string(path), "content": .string(content)]) }
    /// `doc.append`: text added to the device's current content.
    public func docAppend(_ path: String, _ text: String) throws(ScenarioLoadError) { try perform("doc.append", ["path": .string(path), "text": .string(text)]) }
    /// `doc.delete`.
    public func docDelete(_ path: String) throws(ScenarioLoadError) { try perform("doc.delete", ["path": .string(path)]) }

    // MARK: - Records

    /// `zone.create` in the private database.
    public func zoneCreate(_ zone: String) throws(ScenarioLoadError) { try perform("zone.create", ["zone": .string(zone)]) }
    /// `record.save`: creates the record or sets the listed fields (`nil` removes one).
    public func recordSave(zone: String, type: String, name: String, fields: ScenarioObject) throws(ScenarioLoadError) {
        try perform("record.save", ["zone": .string(zone), "type": .string(type), "name": .string(name), "fields": .object(fields)])
    }
    /// `record.delete`.
    public func recordDelete(zone: String, name: String) throws(ScenarioLoadError) { try perform("record.delete", ["zone": .string(zone), "name": .string(name)]) }
}
