import Foundation
import SyncLabExplore
import SyncLabReports

/// `synclab fuzz merge DIR… --out DIR`: shards joined into the unsharded summary, byte for byte.
enum FuzzMergeCommand {
    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        do { parsed = try Arguments(arguments, valued: ["--out"], flags: ["--help"]) } catch {
            Console.error("synclab fuzz merge: \(error.message)\n\(FuzzCommand.usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(FuzzCommand.usage); return .success }
        guard let out = parsed.value("--out"), !parsed.positional.isEmpty else {
            Console.error("synclab fuzz merge: name the shards' output folders and --out DIR\n\(FuzzCommand.usage)"); return .badInput
        }
        // Merging into a shard's own folder would replace the findings folders it holds with
        // themselves (removed, then copied from where they no longer are): refused, not lost.
        let canonical = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        if let clash = parsed.positional.first(where: { canonical($0) == canonical(out) }) {
            Console.error("synclab fuzz merge: --out \(out) is one of the shard folders (\(clash)): name a new folder for the merged campaign"); return .badInput
        }
        do { try ScenarioFiles.checkOutputs(folders: [out], junit: nil) } catch {
            Console.error("synclab fuzz merge: \(error.message)"); return .badInput
        }
        var shards: [CampaignSummary] = []
        for folder in parsed.positional {
            guard let data = FileManager.default.contents(atPath: folder + "/campaign.json") else {
                Console.error("synclab fuzz merge: \(folder)/campaign.json: no such file"); return .badInput
            }
            switch CampaignSummary.parse(String(decoding: data, as: UTF8.self)) {
            case .success(let summary): shards.append(summary)
            case .failure(let error): Console.error("synclab fuzz merge: \(folder)/campaign.json: \(error.message)"); return .badInput
            }
        }
        let merged: CampaignSummary
        switch CampaignSummary.merge(shards) {
        case .success(let result): merged = result
        case .failure(let error): Console.error("synclab fuzz merge: \(error.message)"); return .badInput
        }
        do {
            try FileManager.default.createDirectory(atPath: out + "/findings", withIntermediateDirectories: true)
            for finding in merged.findings {
                // The folder of the shard whose first seed is the campaign's first seed for it.
                guard let index = shards.firstIndex(where: { $0.findings.contains { $0.fingerprint == finding.fingerprint && $0.firstSeed == finding.firstSeed } }) else { continue }
                let source = "\(parsed.positional[index])/findings/\(finding.fingerprint)"
                let destination = "\(out)/findings/\(finding.fingerprint)"
                if FileManager.default.fileExists(atPath: destination) { try FileManager.default.removeItem(atPath: destination) }
                if FileManager.default.fileExists(atPath: source) {
                    try FileManager.default.copyItem(atPath: source, toPath: destination)
                } else {
                    // Said, not skipped in silence: the summary lists the finding, its files are not there.
                    Console.error("synclab fuzz merge: \(source) is missing: \(finding.fingerprint) is in the merged summary without its folder")
                }
            }
            try ReportWriter.write(merged.json.renderedPretty(), to: out + "/campaign.json")
            try ReportWriter.write(merged.markdown, to: out + "/campaign.md")
        } catch {
            Console.error("synclab fuzz merge: cannot write \(out): \(ScenarioFiles.reason(error))"); return .badInput
        }
        Console.out("\(Counted.text(merged.seedsRun, "seed")) from \(shards.count) shard(s), \(merged.findings.count) fingerprint(s); summary: \(out)/campaign.md")
        return merged.findings.isEmpty ? .success : .failed
    }
}
