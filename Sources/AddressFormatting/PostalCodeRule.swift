import FmtCore

/// A country's postal-code rule: what a code looks like and how to write it. The entered value is trimmed,
/// runs of spaces are collapsed to one and, when `uppercase` is set, letters are upper-cased; if `pattern`
/// then matches the whole value, `format` rebuilds it from the groups (`$1 $2`; `{-$2}` only when group 2
/// took part), else the value is shown as entered and flagged. A cleaned value longer than `maximumLength`,
/// or one whose match ICU stops at its step limit, is flagged the same way: it was not confirmed. A class: a
/// request takes its country's rule with one retain.
final class PostalCodeRule: Sendable {
    static let maximumLength = AddressPlugin.maximumPostalCodeLength

    /// An ICU regular expression that must match the whole cleaned value.
    let pattern: String
    /// The rebuild template; nil keeps the cleaned value.
    let format: String?
    let uppercase: Bool
    private let compiled: CompiledPattern
    /// `compiled`'s byte matcher, held here so a request reaches it without going through `compiled`.
    private let bytePattern: BytePattern?
    /// `2 * (groupCount + 1)`: the capture slots one match fills.
    private let slotCount: Int
    private let formatParts: [FormatPart]
    /// `formatParts` laid out flat for the byte path, with its texts' bytes in `formatBytes`.
    private let formatSteps: [FormatStep]
    private let formatBytes: [UInt8]
    /// The bytes of the format's text parts, and how many group references it has: with the cleaned value's
    /// length, the most bytes the format can write.
    private let formatTextBytes: Int
    private let formatGroupReferences: Int

    private enum FormatPart: Sendable {
        case text(String)
        case group(Int)
        case optional([FormatPart])
    }

    private enum FormatStep: Sendable {
        /// The bytes `start..<end` of `formatBytes`.
        case text(Int32, Int32)
        case group(Int32)
        /// An optional part begins: what it writes is taken back if one of its groups took no part.
        case openOptional
        case closeOptional
    }

    /// Compiles the pattern and parses the format; the error says which of the two is at fault.
    init(pattern: String, format: String?, uppercase: Bool) throws(RuleError) {
        let compiled: CompiledPattern
        switch CompiledPattern.compile(pattern) {
        case .success(let pattern): compiled = pattern
        case .failure(let error):
            throw RuleError(member: "pattern", problem: "ICU rejects the pattern at offset \(error.offset)")
        }
        if let problem = PatternShape.problem(in: pattern) {
            throw RuleError(member: "pattern", problem: "is refused: \(problem)")
        }
        self.compiled = compiled
        self.pattern = pattern
        self.format = format
        self.uppercase = uppercase
        if let format {
            do {
                formatParts = try Self.parseFormat(Array(format), groupCount: compiled.groupCount)
            } catch {
                throw RuleError(member: "format", problem: error.description)
            }
        } else {
            formatParts = []
        }
        func measure(_ parts: [FormatPart]) -> (text: Int, groups: Int) {
            parts.reduce(into: (0, 0)) { total, part in
                switch part {
                case .text(let text): total.text += text.utf8.count
                case .group: total.groups += 1
                case .optional(let inner):
                    let (text, groups) = measure(inner)
                    total.text += text
                    total.groups += groups
                }
            }
        }
        (formatTextBytes, formatGroupReferences) = measure(formatParts)
        bytePattern = compiled.bytePattern
        slotCount = 2 * (compiled.groupCount + 1)
        var steps: [FormatStep] = []
        var bytes: [UInt8] = []
        func layOut(_ parts: [FormatPart]) {
            for part in parts {
                switch part {
                case .text(let text):
                    let start = Int32(bytes.count)
                    bytes.append(contentsOf: text.utf8)
                    steps.append(.text(start, Int32(bytes.count)))
                case .group(let index):
                    steps.append(.group(Int32(index)))
                case .optional(let inner):
                    steps.append(.openOptional)
                    layOut(inner)
                    steps.append(.closeOptional)
                }
            }
        }
        layOut(formatParts)
        formatSteps = steps
        formatBytes = bytes
    }

    /// The normalised code, or nil when the value is not confirmed by the pattern.
    func normalize(_ value: String) -> String? {
        switch byteAnswer(value) {
        case .input: return value
        case .made(let code): return code
        case .noMatch, .tooLong: return nil
        case .undecided:
            guard case .normalized(let code) = generalCheck(value) else { return nil }
            return code
        }
    }

    /// `normalize(_:)` of `String(decoding: utf8, as: UTF8.self)`, for a caller holding the entered value's bytes.
    func normalize(utf8: UnsafeBufferPointer<UInt8>) -> String? {
        withNormalized(utf8: utf8) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the bytes of `normalize(utf8:)`'s answer (nil where it is nil), made on the stack for an
    /// ASCII value: a caller writing the code straight into a response makes no `String` for it.
    func withNormalized<Result>(
        utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result {
        let decided = withByteOutcome(utf8) { outcome -> Result? in
            switch outcome {
            case .normalized(let code): return body(code)
            case .noMatch, .tooLong: return body(nil)
            case .undecided: return nil
            }
        }
        if let decided { return decided }
        guard case .normalized(var code) = generalCheck(String(decoding: utf8, as: UTF8.self)) else { return body(nil) }
        return code.withUTF8 { body($0) }
    }

    /// What the rule makes of a value.
    enum Outcome: Equatable {
        case normalized(String)
        case noMatch
        /// Longer than `maximumLength`.
        case tooLong
        /// ICU stopped the match at its step or backtrack-stack limit.
        case overLimit
    }

    func check(_ value: String) -> Outcome {
        switch byteAnswer(value) {
        case .input: return .normalized(value)
        case .made(let code): return .normalized(code)
        case .noMatch: return .noMatch
        case .tooLong: return .tooLong
        case .undecided: return generalCheck(value)
        }
    }

    /// `check` by its definition: the value cleaned as a `String`, matched by `compiled` (its byte matcher where
    /// that answers, else ICU; only ICU when `icuOnly`) and rebuilt from the groups' substrings.
    func generalCheck(_ value: String, icuOnly: Bool = false) -> Outcome {
        let cleaned = clean(value)
        guard cleaned.unicodeScalars.count <= Self.maximumLength else { return .tooLong }
        switch icuOnly ? compiled.icuWholeMatch(cleaned) : compiled.wholeMatch(cleaned) {
        case .noMatch: return .noMatch
        case .overLimit: return .overLimit
        case .matched(let groups):
            guard format != nil else { return .normalized(cleaned) }
            return .normalized(Self.render(formatParts, groups) ?? cleaned)
        }
    }

    /// What `withByteOutcome` decides: the shown code's bytes (valid only inside the call), or why there is none;
    /// `undecided` leaves the value to `generalCheck`.
    private enum ByteOutcome {
        case normalized(UnsafeBufferPointer<UInt8>)
        case noMatch
        case tooLong
        case undecided
    }

    /// A `ByteOutcome` as `check` and `normalize` answer it: the entered value itself where the code is its very
    /// bytes (no new `String`), else a code made from the bytes.
    private enum ByteAnswer {
        case input
        case made(String)
        case noMatch
        case tooLong
        case undecided
    }

    private func byteAnswer(_ value: String) -> ByteAnswer {
        let answer = value.utf8.withContiguousStorageIfAvailable { utf8 in
            withByteOutcome(utf8) { outcome -> ByteAnswer in
                switch outcome {
                case .normalized(let code):
                    code.hasSameBytes(as: utf8) ? .input : .made(String(decoding: code, as: UTF8.self))
                case .noMatch: .noMatch
                case .tooLong: .tooLong
                case .undecided: .undecided
                }
            }
        }
        return answer ?? .undecided
    }

    /// Stack space for the byte path: the cleaned value (`maximumLength` bytes and the two that show it is
    /// longer), then the rebuilt code.
    private static let scratchBytes = 256
    /// The most capture slots the byte path keeps on the stack (groups and the whole match, start and end each).
    private static let maximumSlots = 32

    /// The byte path of `check`, over the entered value's UTF-8 on the stack: an ASCII value is cleaned as
    /// `clean` cleans ASCII text (whitespace trimmed and runs collapsed to one space, letters upper-cased when the
    /// rule says so), matched by the byte matcher and rebuilt by `formatSteps`. Anything the bytes do not decide
    /// (a non-ASCII byte, a pattern without a byte matcher, the matcher's step limit, more groups or a longer
    /// rebuilt code than the stack space holds) is `undecided`; whatever the length of an ASCII value, one longer
    /// than `maximumLength` once cleaned is `tooLong` without being matched.
    @inline(__always)
    private func withByteOutcome<Result>(
        _ utf8: UnsafeBufferPointer<UInt8>, _ body: (ByteOutcome) -> Result
    ) -> Result {
        // Read in place below rather than bound to a copy here, which the closures would retain and release.
        guard bytePattern != nil, slotCount <= Self.maximumSlots else { return body(.undecided) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.scratchBytes) { scratch in
            let limit = Self.maximumLength
            let cleaned: UnsafeBufferPointer<UInt8>
            if utf8.count <= limit && Self.isClean(utf8, uppercase: uppercase) {
                cleaned = utf8
            } else {
                switch Self.clean(utf8, uppercase: uppercase, into: scratch) {
                case .some(let count) where count <= limit: cleaned = UnsafeBufferPointer(rebasing: scratch[0..<count])
                case .some: return body(.tooLong)
                case .none: return body(.undecided)
                }
            }
            let count = cleaned.count
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.maximumSlots) { slots in
                let slots = UnsafeMutableBufferPointer(rebasing: slots[0..<slotCount])
                guard let matched = self.bytePattern?.wholeMatch(ascii: cleaned, slots: slots) else {
                    return body(.undecided)
                }
                guard matched else { return body(.noMatch) }
                guard format != nil else { return body(.normalized(cleaned)) }
                let output = UnsafeMutableBufferPointer(rebasing: scratch[(limit + 2)...])
                guard formatTextBytes + formatGroupReferences * count <= output.count else { return body(.undecided) }
                guard let written = renderSteps(cleaned, UnsafeBufferPointer(slots), into: output) else {
                    return body(.normalized(cleaned))
                }
                return body(.normalized(UnsafeBufferPointer(rebasing: output[0..<written])))
            }
        }
    }

    /// Whether cleaning leaves ASCII text as it is: every byte printable and no space (nor, when upper-casing, a
    /// lower-case letter). Eight bytes at a time, as most entered codes are clean: a short value is read as two
    /// overlapping loads, padded with `A`, which is clean.
    @inline(__always)
    private static func isClean(_ utf8: UnsafeBufferPointer<UInt8>, uppercase: Bool) -> Bool {
        let count = utf8.count
        guard count > 0 else { return true }
        let start = UnsafeRawPointer(utf8.baseAddress!)
        let lowerCaseMatters: UInt64 = uppercase ? ~0 : 0
        /// The high bit of some byte set when a byte is below 0x21, at or above 0x80, or a lower-case letter that
        /// matters: exact for whether any byte is, which is all that is asked.
        func irregular(_ word: UInt64) -> UInt64 {
            let high: UInt64 = 0x8080_8080_8080_8080
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let below = (word &- 0x2121_2121_2121_2121) & ~word & high
            let lowerCase = ((low &+ 0x1F1F_1F1F_1F1F_1F1F) ^ (low &+ 0x0505_0505_0505_0505)) & ~word & high
            return below | word & high | lowerCase & lowerCaseMatters
        }
        func load(_ offset: Int) -> UInt64 { start.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var found: UInt64 = 0
        if count >= 8 {
            var offset = 0
            while offset &+ 8 <= count {
                found |= irregular(load(offset))
                offset &+= 8
            }
            if offset < count { found |= irregular(load(count &- 8)) }
        } else if count >= 4 {
            let padding: UInt64 = 0x4141_4141_0000_0000
            let first = UInt64(start.loadUnaligned(as: UInt32.self))
            let last = UInt64(start.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            found = irregular(first | padding) | irregular(last | padding)
        } else {
            let padding: UInt64 = 0x4141_4141_4141_0000
            let first =
                UInt64(start.load(as: UInt8.self)) | UInt64(start.load(fromByteOffset: count / 2, as: UInt8.self)) << 8
            let last = UInt64(start.load(fromByteOffset: count &- 1, as: UInt8.self))
            found = irregular(first | padding) | irregular(last | 0x4141_4141_4141_4100)
        }
        return found == 0
    }

    /// ASCII text cleaned into `scratch` (its first `maximumLength + 2` bytes at most): the count of the cleaned
    /// bytes, or `maximumLength + 1` once it is longer (if the rest is ASCII); nil for text that is not ASCII.
    private static func clean(
        _ utf8: UnsafeBufferPointer<UInt8>, uppercase: Bool, into scratch: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        let limit = maximumLength
        var count = 0
        var pendingSpace = false
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index &+= 1
            if byte == 0x20 || byte &- 0x09 < 5 {
                pendingSpace = count > 0
                continue
            }
            if byte >= 0x80 { return nil }
            if pendingSpace {
                scratch[count] = 0x20
                count &+= 1
                pendingSpace = false
            }
            scratch[count] = uppercase && byte &- 0x61 < 26 ? byte &- 0x20 : byte
            count &+= 1
            if count > limit {
                return UnsafeBufferPointer(rebasing: utf8[index...]).contains { $0 >= 0x80 } ? nil : limit + 1
            }
        }
        return count
    }

    /// `render(_:_:)` over bytes, by the flat `formatSteps`: the groups are the byte ranges in `slots`; nil where
    /// that gives nil (a group outside the optional part took no part or is empty).
    private func renderSteps(
        _ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeBufferPointer<Int32>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        formatSteps.withUnsafeBufferPointer { steps in
            formatBytes.withUnsafeBufferPointer { literals in
                var written = 0
                var optionalStart = -1
                var skipping = false
                for step in steps {
                    switch step {
                    case .openOptional:
                        optionalStart = written
                    case .closeOptional:
                        optionalStart = -1
                        skipping = false
                    case .text(let start, let end):
                        guard !skipping else { continue }
                        for offset in Int(start)..<Int(end) {
                            output[written] = literals[offset]
                            written &+= 1
                        }
                    case .group(let index):
                        guard !skipping else { continue }
                        let lower = Int(slots[2 * Int(index)])
                        let upper = Int(slots[2 * Int(index) + 1])
                        guard lower >= 0, upper > lower, upper <= text.count else {
                            guard optionalStart >= 0 else { return nil }
                            written = optionalStart
                            skipping = true
                            continue
                        }
                        for offset in lower..<upper {
                            output[written] = text[offset]
                            written &+= 1
                        }
                    }
                }
                return written
            }
        }
    }

    /// The value trimmed, with whitespace runs collapsed to one space, upper-cased when the rule says so.
    func clean(_ value: String) -> String {
        let collapsed = PlainText.collapsedWhitespace(value)
        return uppercase ? PlainText.uppercased(collapsed) : collapsed
    }

    private static func render(_ parts: [FormatPart], _ groups: [Substring?]) -> String? {
        var output = ""
        for part in parts {
            switch part {
            case .text(let text): output += text
            case .group(let index):
                guard index < groups.count, let group = groups[index], !group.isEmpty else { return nil }
                output += group
            case .optional(let inner):
                if let text = render(inner, groups) { output += text }
            }
        }
        return output
    }

    private static func parseFormat(_ characters: [Character], groupCount: Int) throws(TemplateError) -> [FormatPart] {
        var index = 0
        let parts = try parseParts(characters, &index, groupCount: groupCount, nested: false)
        guard index == characters.count else { throw TemplateError("a closing brace has no opening brace") }
        return parts
    }

    private static func parseParts(
        _ characters: [Character], _ index: inout Int, groupCount: Int, nested: Bool
    ) throws(TemplateError) -> [FormatPart] {
        var parts: [FormatPart] = []
        var text = ""
        func flush() {
            if !text.isEmpty {
                parts.append(.text(text))
                text = ""
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "$":
                guard index + 1 < characters.count, let digit = characters[index + 1].wholeNumberValue else {
                    throw TemplateError("\"$\" is not followed by a group number")
                }
                guard digit <= groupCount else {
                    throw TemplateError("the format uses group \(digit) but the pattern has \(groupCount)")
                }
                flush()
                parts.append(.group(digit))
                index += 2
            case "{":
                guard !nested else { throw TemplateError("optional parts do not nest") }
                flush()
                index += 1
                let inner = try parseParts(characters, &index, groupCount: groupCount, nested: true)
                guard index < characters.count, characters[index] == "}" else {
                    throw TemplateError("an opening brace has no closing brace")
                }
                parts.append(.optional(inner))
                index += 1
            case "}":
                flush()
                return parts
            default:
                text.append(character)
                index += 1
            }
        }
        flush()
        return parts
    }
}

/// Why a postal-code rule was refused: the member at fault (`pattern` or `format`) and the problem.
struct RuleError: Error {
    let member: String
    let problem: String
}
