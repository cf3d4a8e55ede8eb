import Foundation

/// A file error in plain words, shared by the library's and the command line's messages.
public enum FileErrorReason {
    /// The POSIX reason when there is one ("Permission denied", "Not a directory"), never a raw
    /// `NSError` dump; otherwise Foundation's localized description.
    public static func text(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let text = strerror(Int32(underlying.code)) {
            return String(cString: text)
        }
        if nsError.domain == NSPOSIXErrorDomain, let text = strerror(Int32(nsError.code)) { return String(cString: text) }
        return nsError.localizedDescription
    }

    /// Why `folder` could not be made or written into: `text(_:)` when the error carries a
    /// POSIX reason; otherwise (Foundation on Linux reports a folder under a file as a bare
    /// "error 512") what the path shows: the nearest existing part that is a file, not a folder.
    public static func text(_ error: any Error, folder: String) -> String {
        let nsError = error as NSError
        let hasPOSIXReason = nsError.domain == NSPOSIXErrorDomain
            || (nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSPOSIXErrorDomain
        if !hasPOSIXReason {
            // A folder where a file is written (`OUT/timeline.html/`): Foundation on Linux says
            // "error 512" and names the file.
            if let file = nsError.userInfo[NSFilePathErrorKey] as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                    // Named as the folder was given, not by its absolute path.
                    let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
                    let shown = file.hasPrefix(absolute + "/") ? folder + file.dropFirst(absolute.count) : file
                    return "\(shown) is a folder, not a file"
                }
            }
            var path = URL(fileURLWithPath: folder).standardizedFileURL
            while path.path != "/" {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) {
                    if !isDirectory.boolValue { return "\(path.path) is a file, not a folder" }
                    break
                }
                path.deleteLastPathComponent()
            }
        }
        return text(error)
    }
}
