import FmtCore
import FmtTesting
import Foundation
import Testing

/// The bash completion `fmtq --generate-completion bash` writes, loaded into a real bash and driven as readline
/// drives it: `COMP_WORDS`, `COMP_CWORD`, `COMP_LINE` and `COMP_POINT` set, the registered function called.
@Suite struct FmtqCompletionTests {
    /// What the completion offers for `line` (the cursor at its end).
    static func complete(_ line: String) throws -> [String] {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/fmtq"
        let generated = try run(Paths.fmtq, ["--generate-completion", "bash", "--completion-languages", "en,nl,de"])
        #expect(generated.status == 0)
        try generated.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // Bash splits the line into words itself, at its COMP_WORDBREAKS, as readline would.
        let driver = """
            source "$1" || exit 9
            function=$(complete -p fmtq | sed -n 's/.*-F \\([^ ]*\\) fmtq$/\\1/p')
            [ -n "$function" ] || exit 8
            COMP_LINE=$2
            COMP_POINT=${#COMP_LINE}
            read -r -a COMP_WORDS <<< "$COMP_LINE"
            # Split at the word breaks bash uses for completion (: and = among them).
            words=()
            for word in "${COMP_WORDS[@]}"; do
                while [[ $word == *[:=]* ]]; do
                    head=${word%%[:=]*}
                    [ -n "$head" ] && words+=("$head")
                    words+=("${word:${#head}:1}")
                    word=${word:${#head}+1}
                done
                [ -n "$word" ] && words+=("$word")
            done
            COMP_WORDS=("${words[@]}")
            if [[ $COMP_LINE == *" " ]]; then COMP_WORDS+=(""); fi
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            "$function" fmtq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try run("/bin/bash", ["--norc", "--noprofile", "-c", driver, "bash", script, line])
        #expect(result.status == 0, "bash: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theFirstWordCompletesToEveryCommandAndTheGlobalOptions() throws {
        let words = try Self.complete("fmtq ")
        for command in [
            "ping", "info", "stats", "address", "date", "phone", "sort", "sortkey", "search", "search-form",
            "language", "plural",
            "message", "raw", "reload", "--socket", "--json", "--help",
        ] {
            #expect(words.contains(command), "fmtq <TAB> lacks \(command): \(words)")
        }
        #expect(!words.contains("--generate-completion"))
        #expect(try Self.complete("fmtq re") == ["reload"])
        #expect(try Self.complete("fmtq --socket /tmp/x.sock da") == ["date"])
    }

    @Test func aCommandsOptionsComeFromItsTable() throws {
        #expect(
            Set(try Self.complete("fmtq date --")) == [
                "--locale", "--year-shared", "--style", "--socket", "--json", "--help",
            ])
        #expect(try Self.complete("fmtq stats --o") == ["--openmetrics"])
        #expect(try Self.complete("fmtq date 1990-11-29 --style ").sorted() == ["long", "medium", "short"])
    }

    @Test func countryAndRegionOptionsCompleteCountryCodesAndLocaleTheSupportedLocales() throws {
        let countries = try Self.complete("fmtq address --country B")
        #expect(countries.contains("BE") && countries.contains("BR") && countries.allSatisfy { $0.hasPrefix("B") })
        #expect(try Self.complete("fmtq phone 0612345678 --viewer-region N").contains("NL"))
        let locales = try Self.complete("fmtq date 1990-11-29 --locale nl")
        #expect(locales.contains("nl") && locales.contains("nl-BE") && locales.contains("nl-NL"), "\(locales)")
        #expect(!(try Self.complete("fmtq date x --locale ")).contains { $0.hasPrefix("fr") })
    }

    @Test func rawCompletesARequestLineForEveryOp() throws {
        let lines = try Self.complete("fmtq raw ")
        for op in ["ping", "info", "stats", "address", "addressFormat", "date", "phone", "sort", "message"] {
            #expect(lines.contains(#"\{\"op\":\"\#(op)\"\}"#), "raw lacks \(op): \(lines)")
        }
        // Typed as far as a colon, which bash breaks words at: the rest of the word is offered.
        let rest = try Self.complete(#"fmtq raw \{\"op\":\"da"#)
        #expect(rest == [#"\"date\"\}"#], "\(rest)")
    }
}

/// Every value completion offers for an option with a fixed set is one the daemon takes, and every territory the
/// daemon takes is offered.
@Suite struct FmtqCompletionValueTests {
    @Test func everyOfferedTypeAndCountryIsOneTheDaemonTakes() throws {
        let types = try FmtqCompletionTests.complete("fmtq phone-example NL --type ")
        #expect(types.contains("voicemail") && types.contains("fixedLine"), "\(types)")
        let styles = try FmtqCompletionTests.complete("fmtq date 1990-11-29 --style ")
        #expect(styles == ["long", "medium", "short"], "\(styles)")
        let countries = try FmtqCompletionTests.complete("fmtq address --country ")
        #expect(countries == Region.territories, "\(Set(Region.territories).symmetricDifference(countries))")
        let daemon = try Daemon.start()
        for type in types {
            let answer = try daemon.requestObject(#"{"op":"phoneExample","region":"GB","type":"\#(type)"}"#)
            #expect(answer["error"]?.objectValue?["code"] != "invalid_field", "\(type): \(answer)")
        }
        for code in countries {
            let answer = try daemon.requestObject(#"{"op":"addressFormat","country":"\#(code)"}"#)
            #expect(answer["ok"] == true, "\(code): \(answer)")
        }
    }
}
