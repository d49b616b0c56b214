/// A catalogue pattern as its reader sees it: the literal text of ICU MessageFormat, with arguments, `#` and the
/// selectors and keywords of `plural`, `select` and `selectordinal` taken out. Quoting follows ICU's default
/// apostrophe mode: `''` is an apostrophe, and `'` before `{`, `}` (or `#` in a plural) starts quoted text.
public indirect enum MessagePiece: Sendable, Equatable {
    /// Text a reader sees.
    case text(String)
    /// Something the caller's values fill in: `{name}`, `{n, number}`, `#`, or an argument fmtd does not read into.
    case placeholder
    /// The branches of a `plural`, `select` or `selectordinal`: one of them is shown.
    case branches([[MessagePiece]])

    /// The pieces of `pattern`. Patterns reach the checker after ICU compiled them, so this parser is lenient: an
    /// unbalanced or unknown construct ends as a placeholder rather than failing.
    public static func parse(_ pattern: String) -> [MessagePiece] {
        var parser = Parser(Array(pattern.unicodeScalars))
        return parser.message(inPlural: false, depth: 0)
    }
}

/// A word a reader sees, and whether it opens a sentence.
public struct MessageWord: Sendable, Equatable {
    public let text: String
    public let opensSentence: Bool
}

extension [MessagePiece] {
    /// The words of the text, in runs that no placeholder or branch interrupts (a term of several words matches
    /// within one run). A sentence opens at the start of the message and after `.`, `?`, `!`, `:`, `…` or a line
    /// break; a placeholder takes the place of a word. A branch starts in the state before the argument; after
    /// it, a sentence opens if it does after any branch.
    public var wordRuns: [[MessageWord]] {
        var runs: [[MessageWord]] = []
        _ = Self.walk(self, opensSentence: true, into: &runs)
        return runs
    }

    /// Every text piece, branches included.
    public var texts: [String] {
        flatMap { piece -> [String] in
            switch piece {
            case .text(let text): [text]
            case .placeholder: []
            case .branches(let branches): branches.flatMap(\.texts)
            }
        }
    }

    private static func walk(_ pieces: [MessagePiece], opensSentence: Bool, into runs: inout [[MessageWord]]) -> Bool {
        var state = opensSentence
        for piece in pieces {
            switch piece {
            case .text(let text):
                let run = words(text, opensSentence: &state)
                if !run.isEmpty { runs.append(run) }
            case .placeholder:
                state = false
            case .branches(let branches):
                var after = branches.isEmpty && state
                for branch in branches where walk(branch, opensSentence: state, into: &runs) { after = true }
                state = after
            }
        }
        return state
    }

    private static func words(_ text: String, opensSentence state: inout Bool) -> [MessageWord] {
        var words: [MessageWord] = []
        var current = String.UnicodeScalarView()
        var pendingJoiner: Unicode.Scalar?
        func finish() {
            if !current.isEmpty {
                words.append(MessageWord(text: String(current), opensSentence: state))
                state = false
            }
            current = String.UnicodeScalarView()
            pendingJoiner = nil
        }
        for scalar in text.unicodeScalars {
            switch WordScalar(scalar) {
            case .letter:
                if let joiner = pendingJoiner {
                    current.append(joiner)
                    pendingJoiner = nil
                }
                current.append(scalar)
            case .mark where !current.isEmpty && pendingJoiner == nil:
                current.append(scalar)
            case .joiner where !current.isEmpty && pendingJoiner == nil:
                // Inside a word (`don't`, `e-mail`) only when a letter follows.
                pendingJoiner = scalar
            case .stop:
                finish()
                state = true
            default:
                finish()
            }
        }
        finish()
        return words
    }
}

/// What a scalar is to the word splitter; ASCII without a property lookup.
enum WordScalar {
    /// A letter or digit: part of a word.
    case letter
    /// A combining mark: part of the word it follows (a decomposed `é`).
    case mark
    /// `'`, `’` or `-`: inside a word when a letter follows.
    case joiner
    /// Ends a sentence: `.`, `?`, `!`, `:`, `…`, a line break, full-width `！` and `？`.
    case stop
    /// Anything else: ends a word.
    case other

    init(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: self = .letter
        case 0x27, 0x2D, 0x2019: self = .joiner
        case 0x2E, 0x3F, 0x21, 0x3A, 0x0A, 0x2026, 0xFF01, 0xFF1F: self = .stop
        case 0..<0x80: self = .other
        default:
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                .letterNumber, .otherNumber:
                self = .letter
            case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
            default: self = .other
            }
        }
    }
}

extension Unicode.Scalar {
    /// ICU's Pattern_White_Space, which separates MessageFormat syntax: a fixed set, so no property lookup.
    var isPatternSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0x200E, 0x200F, 0x2028, 0x2029: true
        default: false
        }
    }
}

private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0
    /// Deeper nesting than this is read as one placeholder; ICU refuses more than 16 levels at load anyway.
    static let maximumDepth = 32

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var atEnd: Bool { index >= scalars.count }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// Text and arguments up to the `}` that closes a branch (left for the caller; at depth 0 it is text) or the end.
    mutating func message(inPlural: Bool, depth: Int) -> [MessagePiece] {
        var pieces: [MessagePiece] = []
        var text = String.UnicodeScalarView()
        func flush() {
            if !text.isEmpty { pieces.append(.text(String(text))) }
            text = String.UnicodeScalarView()
        }
        while let scalar = peek() {
            switch scalar {
            case "'":
                if peek(1) == "'" {
                    text.append("'")
                    index += 2
                } else if let next = peek(1), next == "{" || next == "}" || (inPlural && next == "#") {
                    index += 1
                    while let quoted = peek() {
                        if quoted == "'" {
                            if peek(1) == "'" {
                                text.append("'")
                                index += 2
                                continue
                            }
                            index += 1
                            break
                        }
                        text.append(quoted)
                        index += 1
                    }
                } else {
                    text.append(scalar)
                    index += 1
                }
            // Outside every argument ICU reads an unmatched `}` as text.
            case "}" where depth > 0:
                flush()
                return pieces
            case "{":
                flush()
                pieces.append(argument(depth: depth))
            case "#" where inPlural:
                flush()
                pieces.append(.placeholder)
                index += 1
            default:
                text.append(scalar)
                index += 1
            }
        }
        flush()
        return pieces
    }

    /// One argument, from its `{` to past its `}`.
    mutating func argument(depth: Int) -> MessagePiece {
        index += 1
        _ = token(stoppingAt: [",", "}"])
        skipSpace()
        guard peek() == "," else {
            if peek() == "}" { index += 1 }
            return .placeholder
        }
        index += 1
        // ICU reads the type's letters in either case (`SELECT`).
        let type = token(stoppingAt: [",", "}"]).lowercased()
        skipSpace()
        let isChoice = type == "plural" || type == "selectordinal" || type == "select"
        guard isChoice, peek() == ",", depth < Self.maximumDepth else {
            skipToClosingBrace()
            return .placeholder
        }
        index += 1
        var branches: [[MessagePiece]] = []
        while true {
            skipSpace()
            guard let next = peek() else { break }
            if next == "}" {
                index += 1
                break
            }
            let selector = token(stoppingAt: ["{", "}"])
            if selector.hasPrefix("offset:") {
                if selector == "offset:" {
                    skipSpace()
                    _ = token(stoppingAt: ["{", "}"])
                }
                continue
            }
            skipSpace()
            guard peek() == "{" else {
                skipToClosingBrace()
                break
            }
            index += 1
            branches.append(message(inPlural: type != "select", depth: depth + 1))
            if peek() == "}" { index += 1 }
        }
        return .branches(branches)
    }

    /// Characters up to white space or one of `stops`, without leading white space.
    mutating func token(stoppingAt stops: [Unicode.Scalar]) -> String {
        skipSpace()
        var text = String.UnicodeScalarView()
        while let scalar = peek(), !stops.contains(scalar), !scalar.isPatternSpace {
            text.append(scalar)
            index += 1
        }
        return String(text)
    }

    mutating func skipSpace() {
        while let scalar = peek(), scalar.isPatternSpace { index += 1 }
    }

    /// Past the `}` that closes the argument being read, counting nested braces and skipping quoted text.
    mutating func skipToClosingBrace() {
        var depth = 0
        while let scalar = peek() {
            index += 1
            switch scalar {
            case "'":
                if peek() == "'" {
                    index += 1
                } else {
                    while let quoted = peek() {
                        index += 1
                        if quoted == "'" { break }
                    }
                }
            case "{": depth += 1
            case "}":
                if depth == 0 { return }
                depth -= 1
            default: break
            }
        }
    }
}
