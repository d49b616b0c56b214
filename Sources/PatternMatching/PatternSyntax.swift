/// A pattern read into a tree: what the compiler lays out as a program.
package indirect enum PatternNode<Set: PatternSet> {
    case characters(Set)
    case sequence([PatternNode])
    case alternation([PatternNode])
    /// A group; `index` (from 0, in the order the groups open) nil for `(?:`.
    case group(index: Int?, PatternNode)
    case repeated(PatternNode, minimum: Int, maximum: Int?)
    /// `$`.
    case atEnd
}

/// The bounds a pattern from a data file must keep, each one the caller's: how long its source, how deep its
/// groups, how large a count, how many instructions its program (bounded repeats copy their body, so nesting
/// multiplies; a few bytes must not turn into gigabytes).
package struct PatternLimits: Sendable {
    package var maximumSourceLength: Int
    package var maximumNesting: Int
    package var maximumCount: Int
    package var maximumProgram: Int

    package init(maximumSourceLength: Int, maximumNesting: Int, maximumCount: Int, maximumProgram: Int) {
        self.maximumSourceLength = maximumSourceLength
        self.maximumNesting = maximumNesting
        self.maximumCount = maximumCount
        self.maximumProgram = maximumProgram
    }
}

/// Why a pattern was not taken: the byte offset in its source and what was found there.
package struct PatternParseError: Error, Sendable, Equatable {
    package let offset: Int
    package let detail: String
}

/// Reads the covered syntax into a tree: literals, `\d`, `\D`, escaped ASCII punctuation, classes with ranges and
/// `\d` (negated or not), groups (capturing or `(?:`), alternation, greedy `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`, and
/// `.` and `$` where the alphabet takes them. Anything else is an error: `^`, other escapes, lazy, possessive or
/// stacked quantifiers, other group kinds, nested classes and set operations.
package struct PatternParser<Set: PatternSet> {
    let source: [UInt8]
    let limits: PatternLimits
    package private(set) var index = 0
    /// The number of capturing groups read.
    package private(set) var groupCount = 0
    private var depth = 0

    /// Reads the whole of `source`, refusing one longer than the limits allow before reading any of it.
    package static func parse(
        _ source: String, limits: PatternLimits
    ) throws(PatternParseError) -> (node: PatternNode<Set>, groupCount: Int) {
        guard source.utf8.count <= limits.maximumSourceLength else {
            throw PatternParseError(
                offset: limits.maximumSourceLength,
                detail: "a pattern longer than \(limits.maximumSourceLength) bytes")
        }
        var parser = PatternParser(source: Array(source.utf8), limits: limits)
        let node = try parser.parseAlternation()
        guard parser.index == parser.source.count else { throw parser.error("unexpected character") }
        return (node, parser.groupCount)
    }

    private init(source: [UInt8], limits: PatternLimits) {
        self.source = source
        self.limits = limits
    }

    private func error(_ detail: String) -> PatternParseError {
        PatternParseError(offset: index, detail: detail)
    }

    private var next: UInt8? { index < source.count ? source[index] : nil }
    private var afterNext: UInt8? { index + 1 < source.count ? source[index + 1] : nil }

    private mutating func parseAlternation() throws(PatternParseError) -> PatternNode<Set> {
        var branches = [try parseSequence()]
        while next == UInt8(ascii: "|") {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private static var quantifierStarts: [UInt8] {
        [UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{")]
    }

    private mutating func parseSequence() throws(PatternParseError) -> PatternNode<Set> {
        var items: [PatternNode<Set>] = []
        while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            var item = try parseAtom()
            if let repeated = try parseQuantifier(on: item) {
                item = repeated
                // ICU and upstream's engines read `x*?` as lazy and `x*+` as possessive, and refuse `x**`; stacked
                // repeats would only multiply the ways to match.
                if let following = next, Self.quantifierStarts.contains(following) {
                    throw error("a quantifier after a quantifier")
                }
            }
            items.append(item)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// The repeat of `atom` that the quantifier at the cursor asks for, or nil when there is none.
    private mutating func parseQuantifier(on atom: PatternNode<Set>) throws(PatternParseError) -> PatternNode<Set>? {
        let minimum: Int
        var maximum: Int?
        switch next {
        case UInt8(ascii: "?"):
            index += 1
            (minimum, maximum) = (0, 1)
        case UInt8(ascii: "*"):
            index += 1
            minimum = 0
        case UInt8(ascii: "+"):
            index += 1
            minimum = 1
        case UInt8(ascii: "{"):
            index += 1
            minimum = try parseCount()
            maximum = minimum
            if next == UInt8(ascii: ",") {
                index += 1
                maximum = next == UInt8(ascii: "}") ? nil : try parseCount()
            }
            guard next == UInt8(ascii: "}") else { throw error("expected }") }
            index += 1
            if let maximum, maximum < minimum { throw error("bad repeat bounds") }
        default:
            return nil
        }
        return .repeated(atom, minimum: minimum, maximum: maximum)
    }

    private mutating func parseCount() throws(PatternParseError) -> Int {
        var value = 0
        var digits = 0
        while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
            // Checked per digit, so a long run of digits is refused instead of overflowing.
            guard value <= limits.maximumCount else { throw error("a repeat count above \(limits.maximumCount)") }
        }
        guard digits > 0 else { throw error("expected a repeat count") }
        return value
    }

    private mutating func parseAtom() throws(PatternParseError) -> PatternNode<Set> {
        guard let byte = next else { throw error("unexpected end") }
        index += 1
        switch byte {
        case UInt8(ascii: "("):
            guard depth < limits.maximumNesting else {
                index -= 1
                throw error("groups nested deeper than \(limits.maximumNesting)")
            }
            var group: Int?
            if next == UInt8(ascii: "?") {
                guard afterNext == UInt8(ascii: ":") else {
                    throw error("unsupported group")
                }
                index += 2
            } else {
                group = groupCount
                groupCount += 1
            }
            depth += 1
            let inner = try parseAlternation()
            depth -= 1
            guard next == UInt8(ascii: ")") else { throw error("expected )") }
            index += 1
            return .group(index: group, inner)
        case UInt8(ascii: "["):
            return .characters(try parseClass())
        case UInt8(ascii: "\\"):
            guard let escaped = next else { throw error("unsupported escape") }
            switch escaped {
            case UInt8(ascii: "d"):
                index += 1
                return .characters(.digits)
            case UInt8(ascii: "D"):
                index += 1
                return .characters(Set.digits.complement)
            case _ where Self.isASCIIPunctuation(escaped):
                index += 1
                return .characters(.range(escaped, escaped))
            default:
                throw error("unsupported escape")
            }
        case UInt8(ascii: "."):
            guard let any = Set.anyCharacter else { break }
            return .characters(any)
        case UInt8(ascii: "$"):
            guard Set.takesEndAnchor else { break }
            return .atEnd
        case UInt8(ascii: "^"), UInt8(ascii: ")"), UInt8(ascii: "|"), UInt8(ascii: "?"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: "{"):
            break
        default:
            if Set.takesPrintableLiteralsOnly {
                guard Self.isPrintable(byte), !Self.strictlyReserved.contains(byte) else { break }
                return .characters(.range(byte, byte))
            }
            // Any other character stands for itself, as in upstream's engines: one outside the alphabet (`~` in
            // AO's national prefix `0~0`, a letter, a non-ASCII character read whole) matches nothing.
            while let continuation = next, byte >= 0xC0, continuation & 0xC0 == 0x80 { index += 1 }
            return .characters(.range(byte, byte))
        }
        index -= 1
        throw error("unsupported character")
    }

    /// What ICU reads as something other than a literal, or may: a stray `]` or `}`, `#` (a comment in free-spacing
    /// mode), `&` in a class (`&&` intersects sets).
    private static var strictlyReserved: [UInt8] { [UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#")] }

    private static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// ASCII punctuation, which a backslash makes literal.
    private static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) && !(0x30...0x39).contains(byte) && !(0x41...0x5A).contains(byte & 0xDF)
    }

    /// Whether `byte` may stand for itself in a class (as a member or a range's end).
    private static func isClassLiteral(_ byte: UInt8) -> Bool {
        guard byte < 0x80, byte != UInt8(ascii: "["), byte != UInt8(ascii: "\\") else { return false }
        return !Set.takesPrintableLiteralsOnly || (isPrintable(byte) && byte != UInt8(ascii: "&"))
    }

    /// Whether `byte` and the one after it in a class are `--`, which ICU reads as set difference.
    private static func isSetOperation(_ byte: UInt8, _ following: UInt8?) -> Bool {
        Set.takesPrintableLiteralsOnly && byte == UInt8(ascii: "-") && following == UInt8(ascii: "-")
    }

    /// A class after its `[`: characters, ranges and `\d`, possibly negated (within the alphabet); an error for an
    /// empty class, nested classes and set operations.
    private mutating func parseClass() throws(PatternParseError) -> Set {
        var set = Set.empty
        var negated = false
        if next == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        guard next != UInt8(ascii: "]") else { throw error("an empty class") }
        while let byte = next, byte != UInt8(ascii: "]") {
            var lower = byte
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard let escaped = next else { throw error("unsupported escape in class") }
                if escaped == UInt8(ascii: "d") {
                    index += 1
                    set = set.union(.digits)
                    continue
                }
                guard Self.isASCIIPunctuation(escaped) else { throw error("unsupported escape in class") }
                lower = escaped
            } else if !Self.isClassLiteral(byte) || Self.isSetOperation(byte, afterNext) {
                throw error("unsupported character in class")
            }
            index += 1
            var upper = lower
            if next == UInt8(ascii: "-"), let end = afterNext, end != UInt8(ascii: "]") {
                index += 1
                guard Self.isClassLiteral(end), !Self.isSetOperation(UInt8(ascii: "-"), end),
                    end >= lower
                else { throw error("bad class range") }
                index += 1
                upper = end
            }
            set = set.union(.range(lower, upper))
        }
        guard next == UInt8(ascii: "]") else { throw error("expected ]") }
        index += 1
        return negated ? set.complement : set
    }
}
