@testable import ColorCubeLooks
import ColorCubeCore

import ColorCubeTransform
import Foundation
import Testing

/// Look files made to crash, hang or exhaust a reader: XML shapes that broke the XML parser
/// colorcube used before its own, special files, and files past the size limit. Each must be
/// refused with one error naming the file (or read, where the file is valid).
@Suite struct HostileLookFileTests {
    static let matrixNode = "<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">2 0 0 0 1 0 0 0 1</Array></Matrix>"

    static func write(_ text: String, _ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads `text` as `name`; the error's text when it is refused, nil when it reads.
    static func refusal(_ text: String, _ name: String) throws -> (any Error)? {
        let folder = try TemporaryDirectory()
        let path = try write(text, name, in: folder)
        do {
            _ = try LUTReader.read(path: path, formats: LUTFormats.portable)
            return nil
        } catch {
            return error
        }
    }

    @Test func processingInstructionsWithoutDataAreSkipped() throws {
        let clf = "<?x?>\n<ProcessList id=\"a\" compCLFversion=\"3\"><?y?>\(Self.matrixNode)<?z ?></ProcessList>\n<?w?>\n"
        let folder = try TemporaryDirectory()
        let look = try LUTReader.read(path: try Self.write(clf, "pi.clf", in: folder), formats: LUTFormats.portable)
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.75))
        let cc = "<?x?><ColorCorrection id=\"a\"><?q?><SOPNode><Slope>2 1 1</Slope><Offset>0 0 0</Offset><Power>1 1 1</Power></SOPNode></ColorCorrection>"
        let cdl = try LUTReader.read(path: try Self.write(cc, "pi.cc", in: folder), formats: LUTFormats.portable)
        #expect(cdl.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.75))
    }

    @Test func referencesCDATAAndCommentsAreRead() throws {
        let clf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <ProcessList id='a&amp;b' compCLFversion="3"><Description>x &lt; y &#x41;&#66;</Description>
            <Matrix inBitDepth="32f" outBitDepth="32f"><Array dim="3 3"><![CDATA[2 0 0]]> 0 1<!-- c --> 0 &#48; 0 1</Array></Matrix>
            </ProcessList>
            """
        let folder = try TemporaryDirectory()
        let look = try LUTReader.read(path: try Self.write(clf, "refs.clf", in: folder), formats: LUTFormats.portable)
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.75))
        #expect(look.title == "x < y AB")
    }

    /// Shapes that are not well formed, each with the line and words of its refusal.
    static let brokenXML: [(text: String, line: Int, mentions: String)] = [
        ("<ProcessList id=\"a\">\n<LUT1D>\n</ProcessList>", 3, "does not match <LUT1D>, opened on line 2"),
        ("<ProcessList id=\"a\">\n<Array>1 & 2</Array></ProcessList>", 2, "'&' that starts no reference"),
        ("<ProcessList id=\"a\">&bogus;</ProcessList>", 1, "&bogus; is not defined"),
        ("<ProcessList id=\"a\">&#0;</ProcessList>", 1, "not a character XML allows"),
        ("<ProcessList id=a></ProcessList>", 1, "not in quotes"),
        ("<ProcessList id=\"a\" id=\"b\"></ProcessList>", 1, "given twice"),
        ("<ProcessList id=\"a\"></ProcessList>\n<ProcessList id=\"b\"/>", 2, "a second root element"),
        ("<ProcessList id=\"a\"></ProcessList>\ntrailing", 2, "text after the root"),
        ("<ProcessList id=\"a\"><!-- a -- b --></ProcessList>", 1, "'--' inside a comment"),
        ("<ProcessList id=\"a\"><?x never closed", 1, "not closed with '?>'"),
        ("\n<?xml version=\"1.0\"?><ProcessList id=\"a\"/>", 2, "only at the very start"),
        ("<ProcessList id=\"a\">\u{1}</ProcessList>", 1, "control character"),
        ("", 1, "no root element"),
        ("<ProcessList id=\"a\"><![CDATA[ x </ProcessList>", 1, "CDATA section"),
        ("<1a/>", 1, "cannot start with '1'"),
    ]

    @Test(arguments: brokenXML.indices)
    func brokenXMLIsRefusedWithItsLine(index: Int) throws {
        let (text, line, mentions) = Self.brokenXML[index]
        let error = try Self.refusal(text, "broken.clf")
        guard case .malformed(_, let errorLine, let reason)? = error as? LUTFileError else {
            Issue.record("expected a malformed-file error, got \(String(describing: error))")
            return
        }
        #expect(errorLine == line, "\(reason)")
        #expect(reason.description.contains(mentions), "\(reason)")
    }

    /// Deep nesting used to overflow the stack when the tree was freed; now the depth is limited
    /// and stated, and the table is flat whatever the depth.
    @Test func deepNestingIsRefusedWithTheLimit() throws {
        for depth in [300, 60_000] {
            let text = "<ProcessList id=\"a\">" + String(repeating: "<a>", count: depth)
                + String(repeating: "</a>", count: depth) + "</ProcessList>"
            for name in ["deep.clf", "deep.ccc"] {
                let error = try Self.refusal(text, name)
                #expect("\(String(describing: error))".contains("nest more than \(XMLScanner.maxDepth) deep"))
            }
        }
    }

    @Test func manyCorrectionsAreRead() throws {
        var text = "<ColorCorrectionCollection>\n"
        for index in 0..<20_000 {
            text += "<ColorCorrection id=\"c\(index)\"><SOPNode><Slope>1 1 1</Slope><Offset>0 0 0</Offset>"
                + "<Power>1 1 1</Power></SOPNode><SatNode><Saturation>1</Saturation></SatNode></ColorCorrection>\n"
        }
        text += "</ColorCorrectionCollection>\n"
        #expect(try Self.refusal(text, "many.ccc") == nil)
    }

    @Test func specialFilesAreRefusedWithoutReading() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.file("look.cube")
        #expect(mkfifo(fifo, 0o600) == 0)
        let zero = folder.file("zero.clf")
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        for (path, kind) in [(fifo, "a FIFO"), (zero, "a character device"), (folder.path, "a folder")] {
            let error = #expect(throws: FileError.self) { try LUTReader.read(path: path, formats: LUTFormats.portable) }
            #expect(error == .notAFile(path: path, kind: BinaryFile.specialKind(path: path) ?? ""))
            #expect("\(String(describing: error))".contains(kind))
        }
        // The lower-level reads refuse them too, without blocking.
        #expect(throws: FileError.self) { try BinaryFile.readAll(path: fifo) }
        #expect(BinaryFile.readPrefix(path: fifo, count: 16) == nil)
    }

    @Test func filesPastTheLimitAreRefusedBeforeReading() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.write(String(repeating: " ", count: 5000) + "LUT_3D_SIZE 2\n", "big.cube", in: folder)
        let error = #expect(throws: FileError.self) { try BinaryFile.readAll(path: path, limit: 4096) }
        #expect(error == .tooLarge(path: path, bytes: 5014, limit: 4096))
        #expect("\(String(describing: error))".contains("it is 5014 bytes, and colorcube reads look files of up to 4096 bytes"))
        #expect("\(String(describing: error))".contains(BinaryFile.environmentVariable))
        #expect(try BinaryFile.readAll(path: path, limit: 5014).count == 5014)
    }
}
