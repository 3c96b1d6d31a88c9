#if canImport(CourierHTTPClientTransport)
@testable import CourierHTTPClientTransport
import NIOCore
import Testing

/// The marker that carries an unclean close's error through AsyncHTTPClient, after the parts
/// before it (`eventsBeforeUncleanClose` runs it against a server).
@Suite("The unclean-close marker")
struct UncleanCloseMarkerTests {
    struct Reset: Error, Equatable {}

    @Test("A marker gives its error once; an empty part that is not one, or one whose token differs, gives none")
    func marker() {
        let allocator = ByteBufferAllocator()
        let marker = UncleanClose.marker(for: Reset(), allocator: allocator)
        #expect(marker.readableBytes == 0)
        #expect(UncleanClose.failure(in: ByteBuffer()) == nil)
        #expect(UncleanClose.failure(in: allocator.buffer(capacity: 8)) == nil)
        // An empty part shaped like a marker, with another token: not the marker.
        var forged = allocator.buffer(capacity: 8)
        forged.writeInteger(UInt64(7))
        forged.moveReaderIndex(forwardBy: 8)
        #expect(UncleanClose.failure(in: forged) == nil)
        #expect(UncleanClose.failure(in: marker) as? Reset == Reset())
        #expect(UncleanClose.failure(in: marker) == nil, "read once")
    }

    @Test("Markers no reader took are forgotten oldest first, and a later one still works")
    func bounded() {
        let allocator = ByteBufferAllocator()
        let first = UncleanClose.marker(for: Reset(), allocator: allocator)
        let kept = (0..<1_100).map { _ in UncleanClose.marker(for: Reset(), allocator: allocator) }
        #expect(UncleanClose.failure(in: first) == nil)
        #expect(UncleanClose.failure(in: kept.last ?? first) as? Reset == Reset())
    }
}
#endif
