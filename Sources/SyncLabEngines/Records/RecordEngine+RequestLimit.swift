import SyncLabProtocol

extension RecordEngine {
    /// The limit a modify request the cloud refused whole (`limitExceeded`) broke: the batch
    /// limit when it carried more items than `limits.records.batch`, otherwise its bytes
    /// (`limits.records.requestBytes`), the only other reason the cloud refuses a request whole.
    /// An atomic call cannot be split, so it is refused for either; it used to be reported as
    /// breaking `records.batch` even when it was within the batch limit and over the bytes.
    static func limitBroken(items: Int, _ limits: RecordLimits) -> String {
        items > limits.batch ? "records.batch" : "records.requestBytes"
    }
}
