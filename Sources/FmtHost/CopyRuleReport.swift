import CopyRules
import FmtCore
import FmtDispatch

/// The copy rules' findings of a generation, for the log, `stats` and `fmtd --check`: warnings about the loaded
/// catalogues, never a reason to refuse them.
public enum CopyRuleReport {
    /// The most findings logged one by one per load; the rest are counted in one line (`fmtd --check` lists all).
    public static let maximumLogged = 50

    /// The findings of `set`'s catalogues: every plugin that checks its data with the copy rules (`CopyRuleChecked`,
    /// today the names plugin), in the set's order; none when no such plugin is enabled.
    public static func findings(in set: PluginSet) -> [CopyFinding] {
        set.plugins.flatMap { ($0 as? any CopyRuleChecked)?.copyFindings ?? [] }
    }

    /// `stats.copyRules`: how many findings the serving catalogues have, in all and per rule.
    static func stats(_ findings: [CopyFinding]) -> JSONValue {
        var byRule = JSONObject()
        for rule in CopyRule.allCases {
            byRule.append(rule.rawValue, JSONValue(findings.count { $0.rule == rule }))
        }
        return ["findings": JSONValue(findings.count), "byRule": .object(byRule)]
    }

    /// The log lines for one load: each finding up to `maximumLogged`, then how many more.
    public static func logLines(_ findings: [CopyFinding]) -> [String] {
        var lines = findings.prefix(maximumLogged).map { "copy rule: \($0)" }
        if findings.count > maximumLogged {
            lines.append("copy rule: \(findings.count - maximumLogged) more findings; fmtd --check lists them all")
        }
        return lines
    }
}
