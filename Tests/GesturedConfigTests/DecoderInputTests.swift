import FoundationEssentials
import Testing
@testable import GesturedConfig

/// Found by the strokes fuzz target: a template file holding only a long number,
/// ` 5555…9857 16725` without the space (68 digits), stopped the process inside JSONDecoder
/// (`JSON5Scanner.validateNumber`: a trap). Reproduced outside gestured: JSONDecoder reads a
/// number that ends its input on past the end of the buffer, and traps when the bytes there are
/// digits (a Data over 68 digits followed by "999" in memory traps; followed by "x" it decodes;
/// a line break at the end of the input decodes either way). What follows a buffer on the heap is
/// chance, so the loader now gives the decoder the text and a line break.
struct DecoderInputTests {
    @Test func theDecoderIsGivenTheTextAndALineBreak() throws {
        let text = Array(" 55555555555555555555555555555555555550000000000008915000000985716725".utf8)
        #expect(JSONValue.decoderInput(text) == text + [0x0A])
        #expect(try JSONValue.decode(text) == .number(Double("55555555555555555555555555555555555550000000000008915000000985716725")!))
    }

    /// The same input through the loader is an ordinary located error.
    @Test func aFileHoldingALongNumberIsAnObjectMissing() {
        #expect(diagnostics("55555555555555555555555555555555555550000000000008915000000985716725") == [
            "test.json5:1:1: expected an object, found a number"
        ])
    }
}
