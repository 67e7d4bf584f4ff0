import Testing
import ColorCubeStudio

@Suite struct StudioChainTests {
    @Test func shellWordsQuoteWhatTheShellWouldRead() {
        #expect(StudioChain.shellWord("a.cube@0.6+b.cube") == "a.cube@0.6+b.cube")
        #expect(StudioChain.shellWord("my photo's.jpg") == "'my photo'\\''s.jpg'")
    }
}

@Suite struct ShellWordsTests {
    @Test(arguments: ["plain.cube", "a b.jpg", "it's.png", "'", "x'y'z", "@+%"])
    func aQuotedWordReadsBackAsItself(word: String) {
        #expect(ColorcubeBinary.shellWords("colorcube " + StudioChain.shellWord(word)) == ["colorcube", word])
    }
}
