/// The structural check a postal-code pattern passes at load, before it may match anything: a backtracking
/// engine such as ICU's takes time exponential in the input on a repeated group whose body can match one
/// stretch of text in more than one way, so such a group is refused.
///
/// Refused, with the offset of the group: a group repeated more than once (`*`, `+`, `{n,}`, `{n,m}` with
/// m > 1) whose body holds a quantifier of variable count (`?`, `*`, `+`, `{n,}`, `{n,m}` with n < m) or an
/// alternation, at any depth: `([A-Z]+)+`, `(a{1,3})+`, `(a|ab)*`, `((a?)b){2,5}`. Also refused: a repeat count
/// above `PostalCodeRule.maximumLength` (no code that long is matched), groups nested deeper than
/// `maximumNesting`, and free-spacing mode `(?x)`, whose comments this scanner does not read. What passes still
/// matches under ICU's step limit (`FMT_ADDRESS_MATCH_STEPS`), which ends any other costly shape cleanly.
enum PatternShape {
    static let maximumNesting = 16

    /// The reason `pattern` is refused, or nil when it passes.
    static func problem(in pattern: String) -> String? {
        var scanner = Scanner(Array(pattern.unicodeScalars))
        do {
            _ = try scanner.sequence(depth: 0)
            return nil
        } catch {
            return error.description
        }
    }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// What a stretch of pattern can do, as far as repeating it is concerned.
    private struct Summary {
        var variable = false
        var alternation = false

        var isAmbiguousWhenRepeated: Bool { variable || alternation }

        mutating func absorb(_ inner: Summary) {
            variable = variable || inner.variable
            alternation = alternation || inner.alternation
        }
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        /// A sequence of alternatives up to the closing `)` of the group it is in (or the end).
        mutating func sequence(depth: Int) throws(Refusal) -> Summary {
            var summary = Summary()
            while let scalar = current, scalar != ")" {
                let start = index
                var atom = Summary()
                var isGroup = false
                switch scalar {
                case "|":
                    summary.alternation = true
                    index += 1
                    continue
                case "\\":
                    skipEscape()
                case "[":
                    skipClass()
                case "(":
                    guard depth < PatternShape.maximumNesting else {
                        throw Refusal(description: "groups nest deeper than \(PatternShape.maximumNesting)")
                    }
                    guard let inner = try group(depth: depth) else { continue }
                    atom = inner
                    isGroup = true
                default:
                    index += 1
                }
                guard let repetition = try quantifier() else {
                    summary.absorb(atom)
                    continue
                }
                if isGroup, repetition.maximum > 1, atom.isAmbiguousWhenRepeated {
                    throw Refusal(
                        description:
                            "the group at offset \(start) is repeated and holds a quantifier or an alternation, "
                            + "which backtracks exponentially (write it without nesting, e.g. [A-Z]+ for ([A-Z]+)+)")
                }
                summary.absorb(atom)
                if repetition.minimum != repetition.maximum { summary.variable = true }
            }
            return summary
        }

        /// After `(`: the group's body summary, or nil for a body-less construct (`(?i)`, `(?#…)`).
        mutating func group(depth: Int) throws(Refusal) -> Summary? {
            index += 1
            if current == "?" {
                index += 1
                switch current {
                case "#":
                    while let scalar = current, scalar != ")" { index += 1 }
                    index += 1
                    return nil
                case ":", "=", "!", ">":
                    index += 1
                case "<":
                    index += 1
                    if current == "=" || current == "!" {
                        index += 1
                    } else {
                        while let scalar = current, scalar != ">" { index += 1 }
                        index += 1
                    }
                default:
                    // Flags: (?i) sets them for the rest, (?i-s:…) opens a group.
                    while let scalar = current, scalar != ")", scalar != ":" {
                        if scalar == "x" { throw Refusal(description: "free-spacing mode (?x) is not supported") }
                        index += 1
                    }
                    if current == ")" {
                        index += 1
                        return nil
                    }
                    index += 1
                }
            }
            let body = try sequence(depth: depth + 1)
            index += 1
            return body
        }

        /// A quantifier at the cursor, with its lazy or possessive suffix; nil when there is none.
        mutating func quantifier() throws(Refusal) -> (minimum: Int, maximum: Int)? {
            let bounds: (minimum: Int, maximum: Int)
            switch current {
            case "*": bounds = (0, Int.max)
            case "+": bounds = (1, Int.max)
            case "?": bounds = (0, 1)
            case "{":
                let start = index
                index += 1
                let minimum = try count()
                var maximum: Int? = minimum
                if current == "," {
                    index += 1
                    maximum = current == "}" ? Int.max : try count()
                }
                guard current == "}", let minimum, let maximum else {
                    index = start
                    return nil
                }
                bounds = (minimum, maximum)
            default:
                return nil
            }
            index += 1
            if current == "?" || current == "+" { index += 1 }
            return bounds
        }

        /// Decimal digits at the cursor; nil when there are none.
        mutating func count() throws(Refusal) -> Int? {
            var value: Int?
            while let scalar = current, ("0"..."9").contains(scalar) {
                value = (value ?? 0) * 10 + Int(scalar.value - 48)
                guard value! <= PostalCodeRule.maximumLength else {
                    throw Refusal(
                        description: "a repeat count above \(PostalCodeRule.maximumLength), the longest postal code "
                            + "that is matched")
                }
                index += 1
            }
            return value
        }

        /// `\x`, `\Q…\E`, and the braced forms `\p{…}`, `\P{…}`, `\N{…}`, `\x{…}`.
        mutating func skipEscape() {
            index += 1
            guard let letter = current else { return }
            index += 1
            if letter == "Q" {
                while index < scalars.count, !(current == "\\" && peek(1) == "E") { index += 1 }
                index += 2
            } else if "pPNx".unicodeScalars.contains(letter), current == "{" {
                while let scalar = current, scalar != "}" { index += 1 }
                index += 1
            }
        }

        /// A character class, which may nest (`[a-z&&[^q]]`) and hold escapes.
        mutating func skipClass() {
            var depth = 0
            while let scalar = current {
                switch scalar {
                case "\\":
                    skipEscape()
                    continue
                case "[": depth += 1
                case "]": depth -= 1
                default: break
                }
                index += 1
                if depth == 0 { return }
            }
        }
    }
}
