import Foundation
import PhoneNumbers

/// The tests' way to load metadata from Foundation's `Data` and file URLs; the daemon reads bytes through its
/// own data store and never links Foundation for it.
extension PhoneMetadata {
    init(json: Data) throws(PhoneMetadataError) {
        try self.init(json: Array(json))
    }

    init(contentsOf url: URL) throws(PhoneMetadataError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, detail: "\(error)")
        }
        try self.init(json: Array(data))
    }
}
