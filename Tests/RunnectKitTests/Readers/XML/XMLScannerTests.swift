import Foundation
import Testing

@testable import RunnectKit

@Suite("XML scanner")
struct XMLScannerTests {
    /// Scans `xml` into a flat transcript, with a given chunk size so that tokens straddle chunks.
    static func transcript(_ xml: String, chunkSize: Int = 1 << 20) throws -> [String] {
        let scanner = XMLScanner(stream: MemoryByteStream(xml), chunkSize: chunkSize)
        var out: [String] = []
        while true {
            switch try scanner.next() {
            case .start(let name):
                var line = "<" + name.string
                if let lat = scanner.attribute("lat") { line += " lat=" + lat.value.string }
                out.append(line)
            case .end(let name): out.append("/" + name.string)
            case .text(let span, let hasReferences):
                let text = hasReferences ? XMLScanner.decodeText(span) : span.string
                if !text.allSatisfy(\.isWhitespace) { out.append("'" + text + "'") }
            case .endOfDocument: return out
            }
        }
    }

    static func error(_ xml: String, chunkSize: Int = 1 << 20) -> ReadError? {
        do {
            _ = try transcript(xml, chunkSize: chunkSize)
            return nil
        } catch let error as ReadError {
            return error
        } catch {
            return nil
        }
    }

    @Test func elementsAttributesTextAndSelfClosingTags() throws {
        let xml = """
            <?xml version="1.0"?>
            <!-- a comment -->
            <gpx version="1.1"><wpt lat="37.5" lon='127'/><name>A &amp; B &#xD55C;&#44053;</name>\
            <desc><![CDATA[<b>raw</b>]]></desc></gpx>
            """
        #expect(
            try Self.transcript(xml) == [
                "<gpx", "<wpt lat=37.5", "/wpt", "<name", "'A & B 한강'", "/name", "<desc", "'<b>raw</b>'", "/desc",
                "/gpx",
            ])
    }

    @Test("tokens split across chunk boundaries give the same transcript", arguments: [1, 2, 3, 7, 16, 64])
    func chunkBoundaries(_ chunkSize: Int) throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE gpx [ <!ENTITY x "y"> ]>
            <gpx xmlns:gpxtpx="urn:x"><trk><name>반포 &lt;10K&gt;</name><trkseg>
              <trkpt lat="37.51326489262282848358154296875" lon="127.0"><ele>73.4</ele>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>97</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>
              </trkpt><!-- comment --><trkpt lat="1" lon="2"/>
            </trkseg></trk></gpx>
            """
        #expect(try Self.transcript(xml, chunkSize: chunkSize) == Self.transcript(xml))
    }

    @Test("line and column of a truncated document name where it ended", arguments: [4, 1 << 20])
    func truncatedDocument(_ chunkSize: Int) throws {
        let error = try #require(Self.error("<gpx>\n  <trk>\n    <name>x</name>\n", chunkSize: chunkSize))
        guard case .malformedXML(let message, let line, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(message.contains("<trk> is not closed"))
        #expect(line == 4)
    }

    @Test(
        "a document ending inside a tag, a value or a comment names where it starts, whatever the chunking",
        arguments: [4, 1 << 20])
    func endInsideConstruct(_ chunkSize: Int) throws {
        // Found by the XML fuzz target: read in one piece, the error named the end of the file.
        for xml in ["<gpx>\n  <trkpt lat", "<gpx>\n  <trkpt lat=\"37.5", "<gpx>\n  <!-- a comment", "<gpx>\n  </trk"] {
            let error = try #require(Self.error(xml, chunkSize: chunkSize), "\(xml)")
            guard case .malformedXML(let message, let line, let column) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(message.hasPrefix("unexpected end of file inside"), "\(xml): \(message)")
            #expect(line == 2 && column == 3, "\(xml): line \(line), column \(column)")
        }
    }

    @Test func mismatchedEndTag() throws {
        let error = try #require(Self.error("<gpx>\n<trk></trkseg></gpx>"))
        guard case .malformedXML(let message, let line, let column) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(message == "</trkseg> does not close <trk>")
        #expect(line == 2 && column == 6)
    }

    @Test("an end tag whose name is no name is one line naming the place, not its bytes")
    func endTagWithoutName() throws {
        // Found by the XML fuzz target: the bytes, line break included, went into the message.
        let error = try #require(Self.error("<gpx><time>\n  </t\u{1}\0\n <course></gpx>"))
        guard case .malformedXML(let message, let line, let column) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(message == "invalid element name in an end tag")
        #expect(line == 2 && column == 3)
        #expect(!error.description.contains("\n"))
    }

    @Test(
        "malformed documents are rejected with a message",
        arguments: [
            ("", "no root element"),
            ("<gpx><a b=c/></gpx>", "quoted"),
            ("<gpx><a b=\"1\"c=\"2\"/></gpx>", "whitespace"),
            ("<gpx></gpx><gpx/>", "after the root"),
            ("junk<gpx/>", "outside the root"),
            ("<gpx><a b=\"<\"/></gpx>", "'<' in an attribute"),
            ("<gpx><1/></gpx>", "invalid element name"),
            ("<gpx><!-- never closed", "comment"),
            ("<gpx><a>text", "not closed"),
        ])
    func malformed(_ xml: String, _ fragment: String) {
        let error = Self.error(xml)
        #expect(error?.description.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("a DTD is skipped: entities are never defined, expanded or fetched")
    func noEntityExpansion() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
              <!ENTITY xxe SYSTEM "file:///etc/passwd">
              <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <gpx><name>&xxe;&lol2;</name></gpx>
            """
        #expect(try Self.transcript(xml) == ["<gpx", "<name", "'&xxe;&lol2;'", "/name", "/gpx"])
    }

    @Test("leading whitespace before the XML declaration is tolerated")
    func leadingWhitespace() throws {
        #expect(try Self.transcript("  \n<?xml version=\"1.0\"?><gpx/>") == ["<gpx", "/gpx"])
    }

    @Test("a token larger than the limit is refused, not buffered without bound")
    func boundedMemory() {
        let huge = "<gpx><name>" + String(repeating: "x", count: 1 << 16) + "</name></gpx>"
        let scanner = XMLScanner(stream: MemoryByteStream(huge), chunkSize: 1024, maxTokenBytes: 4096)
        #expect(throws: ReadError.tooLarge(limitBytes: 4096)) {
            while true {
                if case .endOfDocument = try scanner.next() { break }
            }
        }
    }
}
