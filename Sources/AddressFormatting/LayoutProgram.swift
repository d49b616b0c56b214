import FmtCore

/// A layout's line templates and one-line form compiled at load into plain steps over field ordinals and literal
/// bytes, so rendering an address copies bytes instead of walking `LineTemplate.Part`s and building Strings. A
/// class: a request takes its program with one retain.
final class LayoutProgram: Sendable {
    /// One step: a field (by `AddressField.ordinal`) or a literal separator, or the end of a template.
    struct Step: Sendable {
        enum Kind: UInt8, Sendable {
            case field, separator, end
        }

        /// For `separator`: its bytes in `literals`.
        private(set) var start: UInt32 = 0
        private(set) var count: UInt32 = 0
        let kind: Kind
        /// The field's ordinal for `field`.
        private(set) var field: UInt8 = 0
        private var flags: UInt8 = 0

        init(kind: Kind, field: UInt8 = 0) {
            self.kind = kind
            self.field = field
        }

        init(separator start: Int, count: Int, strong: Bool, lineBreak: Bool, needsEscape: Bool) {
            kind = .separator
            self.start = UInt32(start)
            self.count = UInt32(count)
            flags = (strong ? 1 : 0) | (lineBreak ? 2 : 0) | (needsEscape ? 4 : 0)
        }

        /// For `separator`: whether it is kept over a weak one after it (`LineTemplate.Part.separator`).
        var strong: Bool { flags & 1 != 0 }
        /// For `separator`: whether it holds a line break, which only the careful path splits.
        var lineBreak: Bool { flags & 2 != 0 }
        /// For `separator`: whether JSON escapes one of its bytes.
        var needsEscape: Bool { flags & 4 != 0 }

        /// A separator's bytes (made at load inside `literals`, so not checked again).
        @inline(__always)
        func text(in literals: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: literals.baseAddress.unsafelyUnwrapped + Int(start), count: Int(count))
        }
    }

    /// Each line's steps, each line ended by an `end` step; then the one-line form's, ended the same way.
    let steps: [Step]
    /// Where each line's steps start and the fields it shows, so a line of absent fields is passed over unread.
    let lineSteps: [Line]
    /// Where the one-line form's steps start.
    let oneLineStart: Int
    /// The separators' UTF-8 bytes.
    let literals: [UInt8]
    /// `,"layout":[…],"oneLine":"…"`, as `addressFormat` describes the templates.
    let encodedDescription: [UInt8]

    /// A line of the layout: the index of its first step, its fields as bits by `AddressField.ordinal`, and whether
    /// a separator of it holds a line break (which only the careful path splits).
    struct Line: Sendable {
        let start: UInt32
        let fields: UInt16
        let separatorBreaks: Bool
    }

    /// `steps`, `lineSteps` and `literals` as a request reads them, valid inside `withBuffers(_:)`.
    struct Buffers {
        let steps: UnsafeBufferPointer<Step>
        let lines: UnsafeBufferPointer<Line>
        let literals: UnsafeBufferPointer<UInt8>
    }

    /// Lends `body` the steps, lines and literals once for all the lines and the one-line form of an answer.
    @inline(__always)
    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
        steps.withUnsafeBufferPointer { steps in
            lineSteps.withUnsafeBufferPointer { lines in
                literals.withUnsafeBufferPointer { literals in
                    body(Buffers(steps: steps, lines: lines, literals: literals))
                }
            }
        }
    }

    init(lines: [LineTemplate], oneLine: LineTemplate) {
        var steps: [Step] = []
        var literals: [UInt8] = []
        var oneLineStart = 0
        var lineSteps: [Line] = []
        for template in lines + [oneLine] {
            oneLineStart = steps.count
            var fields: UInt16 = 0
            var separatorBreaks = false
            for part in template.parts {
                switch part {
                case .field(let field):
                    fields |= 1 << field.ordinal
                    steps.append(Step(kind: .field, field: UInt8(field.ordinal)))
                case .separator(let text, let strong):
                    steps.append(
                        Step(
                            separator: literals.count, count: text.utf8.count, strong: strong,
                            lineBreak: PlainText.hasLineBreak(text),
                            needsEscape: text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }))
                    separatorBreaks = separatorBreaks || PlainText.hasLineBreak(text)
                    literals.append(contentsOf: text.utf8)
                }
            }
            lineSteps.append(Line(start: UInt32(oneLineStart), fields: fields, separatorBreaks: separatorBreaks))
            steps.append(Step(kind: .end))
        }
        lineSteps.removeLast()
        self.steps = steps
        self.lineSteps = lineSteps
        self.oneLineStart = oneLineStart
        self.literals = literals
        var description = Array(#","layout":["#.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { description.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(line.source, to: &description)
        }
        description.append(contentsOf: #"],"oneLine":"#.utf8)
        JSONWriter.appendString(oneLine.source, to: &description)
        encodedDescription = description
    }
}

extension ByteWriter {
    /// A layout's separator, escaped when it needs to be.
    @inline(__always)
    mutating func appendLiteral(_ separator: LayoutProgram.Step, in literals: UnsafeBufferPointer<UInt8>) {
        appendEscaped(separator.text(in: literals), escape: separator.needsEscape)
    }
}
