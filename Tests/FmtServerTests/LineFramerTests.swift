import FmtServer
import Testing

/// Line framing without a socket: every way bytes can arrive is fed to a `LineFramer` and what it delivers is
/// compared with the lines a client meant.
@Suite struct LineFramerTests {
    /// What the framer delivered: each line as text, a too-large report as `nil`.
    private struct Recorder {
        var framer: LineFramer
        var frames: [String?] = []

        init(maxLineBytes: Int = 16) {
            framer = LineFramer(maxLineBytes: maxLineBytes)
        }

        /// Feeds `text` as one read; returns how many bytes the framer took.
        @discardableResult
        mutating func feed(_ text: String, while canContinue: () -> Bool = { true }) -> Int {
            let bytes = Array(text.utf8)
            var frames: [String?] = []
            let taken = bytes.withUnsafeBufferPointer { buffer in
                framer.consume(buffer, while: canContinue) { frames.append(Self.text($0)) }
            }
            self.frames += frames
            return taken
        }

        mutating func finish() {
            var frames: [String?] = []
            framer.finish { frames.append(Self.text($0)) }
            self.frames += frames
        }

        private static func text(_ frame: LineFramer.Frame) -> String? {
            switch frame {
            case .line(let line): String(decoding: line, as: UTF8.self)
            case .tooLarge: nil
            }
        }
    }

    @Test func eachNewlineEndsALine() {
        var recorder = Recorder()
        #expect(recorder.feed("a\nbb\nccc\n") == 9)
        #expect(recorder.frames == ["a", "bb", "ccc"])
        #expect(!recorder.framer.hasUnfinishedLine)
    }

    @Test func aLineSplitAcrossReadsIsJoined() {
        var recorder = Recorder()
        recorder.feed("{\"op\"")
        #expect(recorder.frames.isEmpty)
        #expect(recorder.framer.bufferedCount == 5)
        recorder.feed(":1}\nnext")
        #expect(recorder.frames == ["{\"op\":1}"])
        #expect(recorder.framer.bufferedCount == 4)
    }

    @Test func aLineDeliveredOneByteAtATimeIsTheSameLine() {
        var recorder = Recorder()
        for byte in "ping\npong\n" { recorder.feed(String(byte)) }
        #expect(recorder.frames == ["ping", "pong"])
    }

    @Test func carriageReturnBeforeTheNewlineIsDropped() {
        var recorder = Recorder()
        recorder.feed("one\r\ntwo\r")
        recorder.feed("\n")
        #expect(recorder.frames == ["one", "two"])
    }

    @Test func surroundingSpacesAndTabsAreTrimmedButInnerOnesKept() {
        var recorder = Recorder()
        recorder.feed(" \ta b\t \r\n")
        #expect(recorder.frames == ["a b"])
    }

    @Test func blankLinesAndLoneCarriageReturnsAreSkipped() {
        var recorder = Recorder()
        recorder.feed("\n\r\n \t\nx\n\n")
        #expect(recorder.frames == ["x"])
        #expect(recorder.framer.newlines == 5)
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcd\n")
        recorder.feed("ab")
        recorder.feed("cd\n")
        #expect(recorder.frames == ["abcd", "abcd"])
    }

    @Test func aCompleteLineOverTheLimitIsReportedOnceAndTheNextLineServed() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcde\nok\n")
        #expect(recorder.frames == [nil, "ok"])
        #expect(!recorder.framer.isDiscarding)
    }

    @Test func theLimitCountsSpacesBeforeTrimming() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abc  \r\n")
        recorder.feed("abc \t\n")
        #expect(recorder.frames == [nil, nil])
    }

    /// A line ending is not the line: `\r\n` ends a line as `\n` does, so a line of exactly the limit is served
    /// whichever ending it has, in one read or with the CR and LF in different reads; one byte more is too large.
    @Test func aLineOfExactlyTheLimitEndingInCRLFIsAccepted() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcd\r\n")
        recorder.feed("ab")
        recorder.feed("cd\r\n")
        recorder.feed("abcd\r")
        recorder.feed("\n")
        recorder.feed("ab")
        recorder.feed("cd\r")
        recorder.feed("\nok\n")
        #expect(recorder.frames == ["abcd", "abcd", "abcd", "abcd", "ok"])
        recorder.frames = []
        recorder.feed("abcd \r\n")
        recorder.feed("abcde\r\n")
        recorder.feed("abcd\rx\n")
        recorder.feed("abcd\r")
        recorder.feed("x\n")
        recorder.feed("abcd\r\r\n")
        recorder.feed("ok\n")
        #expect(recorder.frames == [nil, nil, nil, nil, nil, "ok"])
        #expect(!recorder.framer.hasUnfinishedLine)
    }

    @Test func aFinalLineOfExactlyTheLimitEndingInCRCountsAtEndOfInput() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcd\r")
        recorder.finish()
        #expect(recorder.frames == ["abcd"])
    }

    @Test func anUnfinishedLineOverTheLimitIsReportedOnceAndDiscardedToItsNewline() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcdef")
        #expect(recorder.frames == [nil])
        #expect(recorder.framer.isDiscarding)
        #expect(recorder.framer.bufferedCount == 0)
        recorder.feed("more bytes of the same line")
        recorder.feed("still\nok\n")
        #expect(recorder.frames == [nil, "ok"])
        #expect(!recorder.framer.hasUnfinishedLine)
    }

    @Test func aJoinedLineOverTheLimitIsReportedOnce() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abc")
        recorder.feed("de\nok\n")
        #expect(recorder.frames == [nil, "ok"])
        #expect(recorder.framer.bufferedCapacity == 0)
    }

    @Test func aFinalLineWithoutNewlineCountsAtEndOfInput() {
        var recorder = Recorder()
        recorder.feed("a\nlast\r")
        recorder.finish()
        #expect(recorder.frames == ["a", "last"])
        #expect(recorder.framer.bufferedCount == 0)
    }

    @Test func aDiscardedLineIsNotDeliveredAtEndOfInput() {
        var recorder = Recorder(maxLineBytes: 4)
        recorder.feed("abcdefgh")
        recorder.finish()
        #expect(recorder.frames == [nil])
    }

    @Test func endOfInputAfterACompleteLineDeliversNothingMore() {
        var recorder = Recorder()
        recorder.feed("a\n")
        recorder.finish()
        #expect(recorder.frames == ["a"])
    }

    @Test func consumingStopsBeforeALineWhenTheCallerCannotTakeMore() {
        var recorder = Recorder()
        var room = 2
        let input = "a\nb\nc\nd"
        let taken = recorder.feed(input) {
            defer { room -= 1 }
            return room > 0
        }
        #expect(recorder.frames == ["a", "b"])
        #expect(taken == 4)
        #expect(recorder.feed(String(input.dropFirst(taken))) == 3)
        recorder.finish()
        #expect(recorder.frames == ["a", "b", "c", "d"])
    }

    @Test func newlinesAreCountedIncludingThoseOfDiscardedAndBlankLines() {
        var recorder = Recorder(maxLineBytes: 2)
        recorder.feed("abcdef")
        #expect(recorder.framer.newlines == 0)
        recorder.feed("\n\nok\n")
        #expect(recorder.framer.newlines == 3)
    }

    @Test func droppingThePartialLineKeepsLaterLinesIntact() {
        var recorder = Recorder()
        recorder.feed("half")
        recorder.framer.dropPartial()
        recorder.feed("\nwhole\n")
        #expect(recorder.frames == ["whole"])
    }

    @Test func bytesAfterTheLastNewlineAreHeldNotDelivered() {
        var recorder = Recorder()
        recorder.feed("{}\n{\"op\"")
        #expect(recorder.frames == ["{}"])
        #expect(recorder.framer.hasUnfinishedLine)
        #expect(recorder.framer.bufferedCount == 5)
    }
}
