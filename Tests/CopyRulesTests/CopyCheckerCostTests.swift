import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import CopyRules

/// What checking costs with the largest rules the limits allow (`WorstCopyRules` beside the shipped rules, as the
/// daemon reads them). Issue 31: with such rules and
/// 20 keys of 4,000-byte patterns, `fmtd --check` took 23.8 s (about 0.4 s of CPU per message), because every rule
/// was searched for at every word. Compiled, the rules cost a bounded number of steps per word of the catalogue
/// whatever they hold, counted by the checker's `work`.
@Suite struct CopyCheckerCostTests {
    static let worst = WorstCopyRules(beside: CopyCheckerTests.shipped)

    /// The worst files as the daemon reads them, after the shipped `copy-rules.json`.
    static let worstFiles = worst.ruleFiles.map { ("/etc/fmtd/" + $0.path, Array($0.text.utf8)) }

    static let worstRules: CopyRuleSet = {
        do {
            let path = CopyCheckerTests.dataDirectory + "/copy-rules.json"
            let shipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            return try CopyRuleSet(shipped: (path, shipped), local: worstFiles)
        } catch {
            fatalError("the worst rules do not load: \(error)")
        }
    }()

    static func catalogue(keys: Int = WorstCopyRules.keys) -> [CatalogueMessage] {
        worst.messages(keys: keys).map {
            CatalogueMessage(
                catalogue: "svc", file: "svc.\($0.language).json", language: $0.language, key: $0.key,
                pattern: $0.pattern)
        }
    }

    static func words(_ messages: [CatalogueMessage]) -> Int {
        messages.reduce(0) { $0 + MessagePiece.parse($1.pattern).wordRuns.joined().count }
    }

    static func work(_ messages: [CatalogueMessage], _ rules: CopyRuleSet) -> (steps: Int, findings: [CopyFinding]) {
        var steps = 0
        let findings = CopyChecker.check(messages, rules: rules, work: &steps)
        return (steps, findings)
    }

    @Test func theWorstRulesAreAtEveryLimit() {
        let limit = CopyRuleSet.Limits.maximumEntries
        for language in WorstCopyRules.languages {
            let rules = Self.worstRules.languages[language]
            #expect(rules?.properNouns.count == limit)
            #expect(rules?.forbidden.count == limit)
            #expect(rules?.glossary.count == (language == "en" ? 0 : limit))
            #expect(rules?.inflections.count == CopyRuleSet.Limits.maximumInflections)
        }
        for file in Self.worst.ruleFiles {
            #expect(file.text.utf8.count <= CopyRuleSet.Limits.maximumFileBytes, "\(file.path)")
        }
        let catalogue = Self.catalogue()
        #expect(catalogue.count == WorstCopyRules.keys * 3)
        #expect(catalogue.allSatisfy { (3_900...4_000).contains($0.pattern.utf8.count) })
    }

    /// The matchers' steps per word of the catalogue stay under a constant: at most six words down each of the three
    /// tries (allowed capitals, forbidden phrases as spelled and in any case), and for the glossary one step per
    /// machine word of the terms' bits (94 at the limits) that the word's forms or the previous word's matches touch,
    /// in the English text and in the translation. The plain search this replaced took about 0.4 s per message.
    @Test func theWorstRulesCostABoundedNumberOfStepsPerWordOfTheCatalogue() {
        let catalogue = Self.catalogue()
        let words = Self.words(catalogue)
        let worst = Self.work(catalogue, Self.worstRules)
        let shipped = Self.work(catalogue, CopyCheckerTests.shipped)
        print("worst rules: \(worst.steps) steps, shipped rules: \(shipped.steps) steps, for \(words) words")
        #expect(worst.findings.isEmpty, "\(worst.findings.prefix(3))")
        #expect(worst.steps <= 256 * words, "\(worst.steps) steps for \(words) words")
        #expect(shipped.steps <= 8 * words, "\(shipped.steps) steps for \(words) words")
    }

    /// Linear in the catalogue: four times the keys cost four times the steps, with the worst rules.
    @Test func theStepsGrowInProportionToTheCatalogue() {
        let small = Self.work(Self.catalogue(keys: 4), Self.worstRules).steps
        let large = Self.work(Self.catalogue(keys: 16), Self.worstRules).steps
        print("4 keys: \(small) steps, 16 keys: \(large) steps")
        #expect(large <= 4 * small, "4 keys: \(small) steps, 16 keys: \(large)")
    }

    /// Compiling the rules costs about what loading them does: both are linear in the rules.
    @Test func compilingTheWorstRulesCostsAboutWhatLoadingThemDoes() throws {
        func best(_ body: () throws -> Void) rethrows -> Duration {
            var best = Duration.seconds(3600)
            for _ in 0..<3 {
                let clock = ContinuousClock()
                let start = clock.now
                try body()
                best = min(best, clock.now - start)
            }
            return best
        }
        let loading = try best { _ = try CopyRuleSet(shipped: nil, local: Self.worstFiles) }
        let compiling = best { _ = CopyChecker.check([], rules: Self.worstRules) }
        print("the worst rules load in \(loading) and compile in \(compiling)")
        #expect(compiling <= loading * 4, "compiled in \(compiling), loaded in \(loading)")
    }
}
