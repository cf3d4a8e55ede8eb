import Foundation
import SyncLabCLI

// The `synclab` executable: everything lives in SyncLabCLI, so a team's own executable can call
// the same entry point with its own registry of apps.
exit(SyncLabCommandLine.main(Array(CommandLine.arguments.dropFirst())))
