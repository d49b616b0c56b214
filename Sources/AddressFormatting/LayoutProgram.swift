/// A layout's line templates and one-line form compiled at load into plain steps over field ordinals and literal
/// bytes, so rendering an address copies bytes instead of walking `LineTemplate.Part`s and building Strings.
struct LayoutProgram: Sendable {
    /// One step: a field (by `AddressField.ordinal`) or a literal separator, or the end of a template.
    struct Step: Sendable {
        enum Kind: UInt8, Sendable {
            case field, separator, end
        }

        let kind: Kind
        /// The field's ordinal for `field`.
        let field: UInt8
        /// For `separator`: whether it carries more than spaces (`LineTemplate.Part.separator`).
        let punctuated: Bool
        /// For `separator`: whether it holds a line break, which only the careful path splits.
        let lineBreak: Bool
        /// For `separator`: its bytes in `literals`.
        let start: UInt32
        let count: UInt32
    }

    /// Each line's steps, each line ended by an `end` step; then the one-line form's, ended the same way.
    let steps: [Step]
    /// The separators' UTF-8 bytes.
    let literals: [UInt8]
    /// The templates, for the careful path (`LineTemplate.render`).
    let lines: [LineTemplate]
    let oneLine: LineTemplate
    /// The most literal bytes one rendering of every template can write (all separators once).
    let literalBytes: Int

    init(lines: [LineTemplate], oneLine: LineTemplate) {
        var steps: [Step] = []
        var literals: [UInt8] = []
        for template in lines + [oneLine] {
            for part in template.parts {
                switch part {
                case .field(let field):
                    steps.append(
                        Step(
                            kind: .field, field: UInt8(field.ordinal), punctuated: false, lineBreak: false, start: 0,
                            count: 0))
                case .separator(let text, let punctuated):
                    let start = UInt32(literals.count)
                    literals.append(contentsOf: text.utf8)
                    steps.append(
                        Step(
                            kind: .separator, field: 0, punctuated: punctuated, lineBreak: PlainText.hasLineBreak(text),
                            start: start, count: UInt32(text.utf8.count)))
                }
            }
            steps.append(Step(kind: .end, field: 0, punctuated: false, lineBreak: false, start: 0, count: 0))
        }
        self.steps = steps
        self.literals = literals
        self.lines = lines
        self.oneLine = oneLine
        literalBytes = literals.count
    }
}
