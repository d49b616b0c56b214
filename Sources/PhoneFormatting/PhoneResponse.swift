import FmtCore
import PhoneNumbers

/// The members of a `phone` answer written in one pass into one buffer and appended to the response at once:
/// twelve members through `ResponseWriter` cost twelve escape checks and stagings. Every text of a description is
/// made of digits and the metadata's separators, so it needs no escape; one that does (metadata can hold anything)
/// goes through the writer's members instead, which escape. `spoken` is made of words checked at load and of the
/// display's digits and letters, so it never needs one.
enum PhoneResponse {
    /// The members of a description, in their wire order, with `spoken` and `spokenLang` in `speech`'s language.
    static func write(
        _ description: borrowing PhoneDescriptionBytes, speech: PhoneSpeech.Language, to response: inout ResponseWriter
    ) {
        guard isPlain(description) else {
            writeMembers(description, speech: speech, to: &response)
            return
        }
        // The member names, quotes and commas with the longest type and reason names are under 250 bytes.
        let capacity =
            250 + speech.langTail.count
            + PhoneSpeech.capacity(
                speech, display: description.displayBytes, phoneExtension: description.phoneExtensionBytes)
            + description.e164Bytes.count + description.nationalBytes.count + description.internationalBytes.count
            + description.rfc3966Bytes.count + description.displayBytes.count + description.dialFromBytes.count
            + (description.phoneExtension?.count ?? 0)
        response.writeMembers(reserving: capacity) { out, afterMembers in
            if afterMembers { out.write(",") }
            out.write(description.valid ? #""valid":true,"e164":""# : #""valid":false,"e164":""#)
            out.write(description.e164Bytes)
            if let region = description.regionBytes {
                out.write(#"","region":""#)
                out.write(region)
                out.write(#"","type":""#)
            } else {
                out.write(#"","region":null,"type":""#)
            }
            out.write(description.typeName)
            out.write(#"","national":""#)
            out.write(description.nationalBytes)
            out.write(#"","international":""#)
            out.write(description.internationalBytes)
            out.write(#"","rfc3966":""#)
            out.write(description.rfc3966Bytes)
            out.write(#"","display":""#)
            out.write(description.displayBytes)
            if let phoneExtension = description.phoneExtensionBytes {
                out.write(#"","extension":""#)
                out.write(phoneExtension)
                out.write(description.possible ? #"","possible":true"# : #"","possible":false"#)
            } else {
                out.write(
                    description.possible
                        ? #"","extension":null,"possible":true"# : #"","extension":null,"possible":false"#)
            }
            out.write(#","possibleReason":""#)
            out.write(description.possibleReasonName)
            out.write(#"","dialFrom":""#)
            out.write(description.dialFromBytes)
            out.write(#"","spoken":""#)
            out.skip(
                PhoneSpeech.spell(
                    speech, display: description.displayBytes, phoneExtension: description.phoneExtensionBytes,
                    into: out.remaining))
            speech.langTail.withUnsafeBufferPointer { out.write($0) }
        }
    }

    /// Whether every text of the description that does not come from a fixed list goes into a JSON string as it
    /// is: known to when the engine says so, else checked. `e164` is `+` and digits by construction and `display`
    /// a copy of `national` or `international`, so neither is read again.
    static func isPlain(_ description: borrowing PhoneDescriptionBytes) -> Bool {
        if description.isKnownPlain { return true }
        var flags =
            ByteScan.escapeFlags(of: description.nationalBytes)
            | ByteScan.escapeFlags(of: description.internationalBytes)
        flags |=
            ByteScan.escapeFlags(of: description.rfc3966Bytes) | ByteScan.escapeFlags(of: description.dialFromBytes)
        if let region = description.regionBytes { flags |= ByteScan.escapeFlags(of: region) }
        if let phoneExtension = description.phoneExtensionBytes { flags |= ByteScan.escapeFlags(of: phoneExtension) }
        return flags == 0
    }

    /// The members through the writer, each escaped as any string.
    static func writeMembers(
        _ description: borrowing PhoneDescriptionBytes, speech: PhoneSpeech.Language, to response: inout ResponseWriter
    ) {
        response.member("valid", description.valid)
        response.member("e164", utf8: description.e164Bytes)
        if let region = description.regionBytes {
            response.member("region", utf8: region)
        } else {
            response.null("region")
        }
        response.member("type", utf8: description.typeName)
        response.member("national", utf8: description.nationalBytes)
        response.member("international", utf8: description.internationalBytes)
        response.member("rfc3966", utf8: description.rfc3966Bytes)
        response.member("display", utf8: description.displayBytes)
        if let phoneExtension = description.phoneExtensionBytes {
            response.member("extension", utf8: phoneExtension)
        } else {
            response.null("extension")
        }
        response.member("possible", description.possible)
        response.member("possibleReason", utf8: description.possibleReasonName)
        response.member("dialFrom", utf8: description.dialFromBytes)
        let capacity = PhoneSpeech.capacity(
            speech, display: description.displayBytes, phoneExtension: description.phoneExtensionBytes)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = PhoneSpeech.spell(
                speech, display: description.displayBytes, phoneExtension: description.phoneExtensionBytes, into: buffer
            )
            response.member("spoken", utf8: UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
        response.member("spokenLang", speech.lang)
    }
}
