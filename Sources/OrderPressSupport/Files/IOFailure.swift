import Foundation

/// Short, human reasons for file-system errors, without Foundation's long wrapping.
package enum IOFailure {
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return String(cString: strerror(ENOENT))
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return String(cString: strerror(EACCES))
        case NSFileWriteOutOfSpaceError: return String(cString: strerror(ENOSPC))
        default: return nsError.localizedDescription
        }
    }
}
