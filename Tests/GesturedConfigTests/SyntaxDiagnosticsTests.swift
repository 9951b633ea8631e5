import Testing
import GesturedConfig

/// Syntax errors: the first one, at its exact line:column, inside the value being read.
@Suite struct SyntaxDiagnosticsTests {
    @Test func missingCommaBetweenMembers() {
        #expect(diagnostics("""
            {
              views: [
                { id: "a"
                  frame: [0, 0, 10, 10] },
              ],
            }
            """) == ["test.json5:4:7: views[0]: expected ',' or '}' after object member"])
    }

    @Test func missingCommaBetweenElements() {
        #expect(diagnostics("{ views: [ { id: 'a' } { id: 'b' } ] }")
                == ["test.json5:1:24: views: expected ',' or ']' after array element"])
    }

    @Test func unterminatedString() {
        #expect(diagnostics("""
            {
              views: [{ id: "root }],
            }
            """) == ["test.json5:2:17: views[0].id: unterminated string"])
    }

    @Test func unterminatedComment() {
        #expect(diagnostics("{\n  /* screen: { width: 1, height: 1 },\n  views: [],\n}\n")
                == ["test.json5:2:3: unterminated comment"])
    }

    @Test func unclosedObjectAtEndOfFile() {
        #expect(diagnostics("{\n  views: [\n    { id: 'a' },\n  ]\n")
                == ["test.json5:5:1: unexpected end of file: '{' at 1:1 is not closed"])
    }

    @Test func unquotedStringValue() {
        #expect(diagnostics("{ views: [{ id: root }] }")
                == ["test.json5:1:17: views[0].id: expected a value, found 'root' (strings need quotes)"])
    }

    @Test func unquotedWordThatStartsLikeANumber() {
        #expect(diagnostics("{ views: [{ id: Nope }] }")
                == ["test.json5:1:17: views[0].id: expected a value, found 'Nope' (strings need quotes)"])
        #expect(diagnostics("{ screen: { width: Infinityx, height: 1 } }")
                == ["test.json5:1:20: screen.width: invalid number"])
    }

    @Test func missingColon() {
        #expect(diagnostics("{ screen { width: 1 } }")
                == ["test.json5:1:10: expected ':' after key \"screen\""])
    }

    @Test func doubleComma() {
        #expect(diagnostics("{ views: [],, }")
                == ["test.json5:1:13: expected a key (a string or an identifier), found ','"])
    }

    @Test func invalidNumbers() {
        #expect(diagnostics("{ screen: { width: 012, height: 1 } }")
                == ["test.json5:1:20: screen.width: invalid number: leading zeros are not allowed"])
        #expect(diagnostics("{ screen: { width: 12px, height: 1 } }")
                == ["test.json5:1:20: screen.width: invalid number"])
        #expect(diagnostics("{ screen: { width: 1e999, height: 1 } }")
                == ["test.json5:1:20: screen.width: number is out of range"])
        #expect(diagnostics("{ screen: { width: 0x20000000000001, height: 1 } }")
                == ["test.json5:1:20: screen.width: number is too large (hex numbers may be at most 0x20000000000000)"])
    }

    @Test func escapesTheDecoderRejects() {
        #expect(diagnostics(#"{ views: [{ id: "a\qb" }] }"#)
                == [#"test.json5:1:19: views[0].id: invalid escape sequence '\q'"#])
        #expect(diagnostics("{ views: [{ id: \"a\tb\" }] }")
                == [#"test.json5:1:19: views[0].id: control character U+0009 in string; write it as an escape such as \t"#])
    }

    @Test func textAfterTheDocument() {
        #expect(diagnostics("{ views: [] }\n}") == ["test.json5:2:1: unexpected '}' after the end of the document"])
    }

    @Test func emptyDocument() {
        #expect(diagnostics("  // nothing\n") == ["test.json5:2:1: expected a value, found end of file"])
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(diagnostics("{ views: [{ id: \"é\" x }] }")
                == ["test.json5:1:21: views[0]: expected ',' or '}' after object member"])
    }

    @Test func excessiveNestingIsRefused() {
        let text = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(diagnostics(text).first?.hasSuffix("nesting is deeper than 128 levels") == true)
    }
}
