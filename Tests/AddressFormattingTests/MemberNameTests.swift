import Testing

@testable import AddressFormatting

/// Names compared as words must give exactly what a byte-by-byte comparison gives, at every length around the
/// word size.
@Suite struct MemberNameTests {
    /// Every member name `read` looks for, against itself, every other name and each one byte changed in turn.
    @Test func namesCompareAsTheirBytes() {
        let names: [StaticString] = [
            "name", "organization", "street", "houseNumber", "extra", "postalCode", "city", "region", "district",
            "sortingCode", "country", "language",
        ]
        for name in names {
            let bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            for other in names {
                let otherBytes = UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount)
                let same = bytes.withUnsafeBufferPointer { $0.hasSameBytes(as: other) }
                #expect(same == bytes.elementsEqual(otherBytes), "\(name) \(other)")
            }
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                #expect(!changed.withUnsafeBufferPointer { $0.hasSameBytes(as: name) }, "\(name) \(index)")
            }
            let shorter = Array(bytes.dropLast())
            #expect(!shorter.withUnsafeBufferPointer { $0.hasSameBytes(as: name) }, "\(name)")
        }
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { $0.hasSameBytes(as: "") })
        #expect(!empty.withUnsafeBufferPointer { $0.hasSameBytes(as: "a") })
        #expect(Array("abc".utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "abc") })
        #expect(!Array("abd".utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "abc") })
        let long = "a member name longer than sixteen bytes"
        #expect(
            Array(long.utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "a member name longer than sixteen bytes") })
        #expect(
            !Array(long.utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "a member name longer than sixteen byteS") }
        )
    }
}
