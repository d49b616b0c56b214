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
        _ description: PhoneDescriptionBytes, speech: PhoneSpeech.Language, to response: inout ResponseWriter
    ) {
        guard isPlain(description) else {
            writeMembers(description, speech: speech, to: &response)
            return
        }
        // The member names, quotes and commas with the longest type and reason names are under 250 bytes.
        let capacity =
            250 + speech.langTail.count
            + PhoneSpeech.capacity(speech, display: description.display, phoneExtension: description.phoneExtension)
            + description.e164.count + description.national.count + description.international.count
            + description.rfc3966.count + description.display.count + description.dialFrom.count
            + (description.phoneExtension?.count ?? 0)
        response.appendEncodedMembers { bytes, afterMembers in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var out = ByteCursor(buffer.baseAddress!)
                if afterMembers { out.write(",") }
                out.write(description.valid ? #""valid":true,"e164":""# : #""valid":false,"e164":""#)
                out.write(description.e164)
                if let region = description.region {
                    out.write(#"","region":""#)
                    out.write(region)
                    out.write(#"","type":""#)
                } else {
                    out.write(#"","region":null,"type":""#)
                }
                out.write(description.typeName)
                out.write(#"","national":""#)
                out.write(description.national)
                out.write(#"","international":""#)
                out.write(description.international)
                out.write(#"","rfc3966":""#)
                out.write(description.rfc3966)
                out.write(#"","display":""#)
                out.write(description.display)
                if let phoneExtension = description.phoneExtension {
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
                out.write(description.dialFrom)
                out.write(#"","spoken":""#)
                out.skip(
                    PhoneSpeech.spell(
                        speech, display: description.display, phoneExtension: description.phoneExtension,
                        into: out.pointer))
                speech.langTail.withUnsafeBufferPointer { out.write($0) }
                bytes.append(
                    contentsOf: UnsafeBufferPointer(
                        start: buffer.baseAddress, count: out.written(since: buffer.baseAddress!)))
            }
        }
    }

    /// Whether every text of the description that does not come from a fixed list goes into a JSON string as it
    /// is: known to when the engine says so, else checked. `e164` is `+` and digits by construction and `display`
    /// a copy of `national` or `international`, so neither is read again.
    static func isPlain(_ description: PhoneDescriptionBytes) -> Bool {
        if description.isKnownPlain { return true }
        var flags =
            JSONWriter.escapeFlags(of: description.national) | JSONWriter.escapeFlags(of: description.international)
        flags |= JSONWriter.escapeFlags(of: description.rfc3966) | JSONWriter.escapeFlags(of: description.dialFrom)
        if let region = description.region { flags |= JSONWriter.escapeFlags(of: region) }
        if let phoneExtension = description.phoneExtension { flags |= JSONWriter.escapeFlags(of: phoneExtension) }
        return flags == 0
    }

    /// The members through the writer, each escaped as any string.
    static func writeMembers(
        _ description: PhoneDescriptionBytes, speech: PhoneSpeech.Language, to response: inout ResponseWriter
    ) {
        response.member("valid", description.valid)
        response.member("e164", utf8: description.e164)
        if let region = description.region {
            response.member("region", utf8: region)
        } else {
            response.null("region")
        }
        response.member("type", utf8: description.typeName)
        response.member("national", utf8: description.national)
        response.member("international", utf8: description.international)
        response.member("rfc3966", utf8: description.rfc3966)
        response.member("display", utf8: description.display)
        if let phoneExtension = description.phoneExtension {
            response.member("extension", utf8: phoneExtension)
        } else {
            response.null("extension")
        }
        response.member("possible", description.possible)
        response.member("possibleReason", utf8: description.possibleReasonName)
        response.member("dialFrom", utf8: description.dialFrom)
        let capacity = PhoneSpeech.capacity(
            speech, display: description.display, phoneExtension: description.phoneExtension)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = PhoneSpeech.spell(
                speech, display: description.display, phoneExtension: description.phoneExtension,
                into: buffer.baseAddress!)
            response.member("spoken", utf8: UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
        response.member("spokenLang", speech.lang)
    }
}

/// A write position in a buffer its owner sized for everything written.
struct ByteCursor {
    private var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        position = start
    }

    /// How many bytes were written from `start` on.
    func written(since start: UnsafeMutablePointer<UInt8>) -> Int {
        start.distance(to: position)
    }

    @inline(__always)
    mutating func write(_ literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The write position, for a writer that fills the buffer itself and then `skip`s what it wrote.
    var pointer: UnsafeMutablePointer<UInt8> { position }

    /// Moves past `count` bytes written at `pointer`.
    @inline(__always)
    mutating func skip(_ count: Int) {
        position += count
    }

    /// Copies `bytes` (`copyShort`: the usual short text without a call).
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        position.copyShort(from: bytes)
        position += bytes.count
    }
}
