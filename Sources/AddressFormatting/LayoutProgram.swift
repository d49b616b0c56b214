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

        let kind: Kind
        /// The field's ordinal for `field`.
        var field: UInt8 = 0
        /// For `separator`: whether it carries more than spaces (`LineTemplate.Part.separator`).
        var punctuated = false
        /// For `separator`: whether it holds a line break, which only the careful path splits.
        var lineBreak = false
        /// For `separator`: whether JSON escapes one of its bytes.
        var needsEscape = false
        /// For `separator`: its bytes in `literals`.
        var start: UInt32 = 0
        var count: UInt32 = 0

        /// A separator's bytes.
        func text(in literals: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: literals[Int(start)..<Int(start + count)])
        }
    }

    /// Each line's steps, each line ended by an `end` step; then the one-line form's, ended the same way.
    let steps: [Step]
    /// Where the one-line form's steps start.
    let oneLineStart: Int
    /// The separators' UTF-8 bytes.
    let literals: [UInt8]
    /// The templates, for the careful path (`LineTemplate.render`).
    let lines: [LineTemplate]
    let oneLine: LineTemplate
    /// `,"layout":[…],"oneLine":"…"`: the templates as written, as `addressFormat` describes them.
    let description: [UInt8]

    init(lines: [LineTemplate], oneLine: LineTemplate) {
        var steps: [Step] = []
        var literals: [UInt8] = []
        var oneLineStart = 0
        for template in lines + [oneLine] {
            oneLineStart = steps.count
            for part in template.parts {
                switch part {
                case .field(let field):
                    steps.append(Step(kind: .field, field: UInt8(field.ordinal)))
                case .separator(let text, let punctuated):
                    let start = UInt32(literals.count)
                    literals.append(contentsOf: text.utf8)
                    steps.append(
                        Step(
                            kind: .separator, punctuated: punctuated, lineBreak: PlainText.hasLineBreak(text),
                            needsEscape: text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }, start: start,
                            count: UInt32(text.utf8.count)))
                }
            }
            steps.append(Step(kind: .end))
        }
        self.steps = steps
        self.oneLineStart = oneLineStart
        self.literals = literals
        self.lines = lines
        self.oneLine = oneLine
        var description = Array(#","layout":["#.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { description.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(line.source, to: &description)
        }
        description.append(contentsOf: #"],"oneLine":"#.utf8)
        JSONWriter.appendString(oneLine.source, to: &description)
        self.description = description
    }
}
