import FmtTesting
import Foundation
import Testing

/// The three executables parse their command lines by one set of rules: `--x=v` and `--x v` alike, and an
/// unknown option or a missing value is a usage error (exit status 2) naming the option.
@Suite struct CommandLineTests {
    private static let executables = [Paths.fmtd, Paths.fmtq, Paths.fmtbench]

    @Test(arguments: executables) func anUnknownOptionIsAUsageErrorNamingIt(executable: String) throws {
        let arguments = executable == Paths.fmtq ? ["ping", "--bogus"] : ["--bogus"]
        let result = try run(executable, arguments)
        #expect(result.status == 2)
        // One line for the mistake and one saying where the help is, not the whole help after it.
        let command = executable == Paths.fmtq ? "fmtq ping" : (executable as NSString).lastPathComponent
        #expect(result.stderr == "\(command): unknown option --bogus\nsee '\(command) --help'\n", "\(result.stderr)")
    }

    @Test func fmtqHelpNamesACommandAsItsOwnHelpDoes() throws {
        for command in ["phone", "address", "raw", "reload"] {
            let help = try run(Paths.fmtq, ["help", command])
            let flag = try run(Paths.fmtq, [command, "--help"])
            #expect(help.status == 0 && help.stdout == flag.stdout && help.stdout.hasPrefix("Usage: fmtq \(command)"))
        }
        #expect(try run(Paths.fmtq, ["help"]).stdout == (try run(Paths.fmtq, ["--help"])).stdout)
        let unknown = try run(Paths.fmtq, ["help", "frob"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "fmtq: unknown command frob\nsee 'fmtq --help'\n")
    }

    @Test(arguments: executables) func aMissingValueIsAUsageErrorNamingTheOption(executable: String) throws {
        let arguments = executable == Paths.fmtq ? ["date", "2020-01-01", "--locale"] : ["--socket"]
        let result = try run(executable, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(executable == Paths.fmtq ? "--locale needs a value" : "--socket needs a value"))
    }

    @Test(arguments: executables) func helpGoesToStandardOutputAndExitsZero(executable: String) throws {
        let result = try run(executable, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: "))
        #expect(result.stderr.isEmpty)
    }

    @Test func fmtdTakesJoinedAndSeparateValuesAlike() throws {
        for spelling in [["--socket-mode=0600"], ["--socket-mode", "0600"]] {
            let daemon = try Daemon.start(arguments: spelling)
            var info = stat()
            #expect(lstat(daemon.socketPath, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(spelling)")
        }
    }

    @Test func fmtbenchTakesJoinedAndSeparateValuesAlike() throws {
        for spelling in [["--connections=0"], ["--connections", "0"]] {
            let result = try run(Paths.fmtbench, spelling + ["--echo"])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("fmtbench: --connections needs a whole number ≥ 1, got 0"), "\(spelling)")
        }
    }

    @Test func fmtqTakesGlobalOptionsAnywhereAndJoinedValues() throws {
        let daemon = try Daemon.start()
        let result = try run(
            Paths.fmtq, ["date", "--socket=\(daemon.socketPath)", "1990-11-29", "--locale=nl", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""text":"29 november""#))
    }
}
