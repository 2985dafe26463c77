import GRDB
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Search: Korean text rules")
struct SearchKoreanTextTests {
    typealias K = KoreanText

    // MARK: Hangul arithmetic

    /// Each initial's block of 588 syllables, first and last: `가`…`깋` start with ㄱ, and so on.
    static let initialBlocks: [(first: Character, last: Character, jamo: Character)] = [
        ("가", "깋", "ㄱ"), ("까", "낗", "ㄲ"), ("나", "닣", "ㄴ"), ("다", "딯", "ㄷ"), ("따", "띻", "ㄸ"),
        ("라", "맇", "ㄹ"), ("마", "밓", "ㅁ"), ("바", "빟", "ㅂ"), ("빠", "삫", "ㅃ"), ("사", "싷", "ㅅ"),
        ("싸", "앃", "ㅆ"), ("아", "잏", "ㅇ"), ("자", "짛", "ㅈ"), ("짜", "찧", "ㅉ"), ("차", "칳", "ㅊ"),
        ("카", "킿", "ㅋ"), ("타", "팋", "ㅌ"), ("파", "핗", "ㅍ"), ("하", "힣", "ㅎ"),
    ]

    @Test("initial of a syllable = (scalar − 0xAC00) / 588, as compatibility jamo", arguments: initialBlocks)
    func initialOfSyllable(block: (first: Character, last: Character, jamo: Character)) {
        let first = block.first.unicodeScalars.first!
        let last = block.last.unicodeScalars.first!
        let jamo = block.jamo.unicodeScalars.first!
        #expect(last.value - first.value == 587)
        #expect(K.initial(of: first) == jamo)
        #expect(K.initial(of: last) == jamo)
        #expect(K.isInitialConsonant(jamo))
        let index = K.initialIndex(ofConsonant: jamo)!
        #expect(K.syllableRange(initialIndex: index) == first.value...last.value)
        // One past the block belongs to the next initial (or is not a syllable after 힣).
        if let next = Unicode.Scalar(last.value + 1), K.isSyllable(next) {
            #expect(K.initial(of: next) != jamo)
        }
    }

    @Test("examples: 한→ㅎ 강→ㄱ 잠→ㅈ 올→ㅇ 픽→ㅍ; other scalars unchanged")
    func initialExamples() {
        #expect(K.initials(of: "한강") == "ㅎㄱ")
        #expect(K.initials(of: "잠실 한강공원 10k") == "ㅈㅅ ㅎㄱㄱㅇ 10k")
        #expect(K.initials(of: "올림픽공원") == "ㅇㄹㅍㄱㅇ")
        #expect(K.initials(of: "ㅋㅋ run!") == "ㅋㅋ run!")
    }

    @Test("only the 19 initials count as initial consonants: not clusters (ㄳ ㄺ), vowels or Latin")
    func initialConsonants() {
        let all = (0x3131...0x314E).compactMap(Unicode.Scalar.init).filter(K.isInitialConsonant)
        #expect(all.map(Character.init) == Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"))
        for scalar in ["ㄳ", "ㄵ", "ㄺ", "ㅄ", "ㅏ", "ㅣ", "a", "한"] as [Unicode.Scalar] {
            #expect(!K.isInitialConsonant(scalar), "\(scalar)")
        }
    }

    // MARK: Normal form

    @Test("lowercase (full Unicode) and NFC")
    func normalize() {
        #expect(K.normalize("Hangang NIGHT Run") == "hangang night run")
        #expect(K.normalize("ÀÉÎ ΣΑΣ ДЕНЬ") == "àéî σασ день")
        // Decomposed 한 (U+1112 U+1161 U+11AB) becomes the precomposed syllable U+D55C.
        let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1161}\u{11BC}"
        #expect(K.normalize(decomposed) == "한강")
        #expect(K.normalize(decomposed).unicodeScalars.map(\.value) == [0xD55C, 0xAC15])
        // e + combining acute composes to é (U+00E9).
        #expect(K.normalize("Cafe\u{301}").unicodeScalars.map(\.value).last == 0xE9)
        // A lone conjoining initial (no vowel after it) is the compatibility consonant.
        #expect(K.normalize("\u{1112}\u{1100}") == "ㅎㄱ")
        #expect(K.normalize("잠실 10K") == "잠실 10k")
    }

    @Test("keywords: split on any white space, duplicates dropped, blank is none")
    func words() {
        #expect(K.words(in: "  Han\tRiver\n한강\u{3000}한강 HAN ").map(\.text) == ["han", "river", "한강"])
        #expect(K.words(in: "").isEmpty)
        #expect(K.words(in: " \t\n\u{3000}\u{A0}").isEmpty)
    }

    @Test("keyword kinds: plain, initials, mixed")
    func kinds() {
        func kind(_ text: String) -> K.Word.Kind { K.Word(normalized: text).kind }
        #expect(kind("한강") == .plain)
        #expect(kind("han") == .plain)
        #expect(kind("ㄳ") == .plain)  // a cluster is never an initial: literal
        #expect(kind("ㅎㄱ") == .initials)
        #expect(kind("ㅋ10") == .initials)
        #expect(kind("한ㄱ") == .mixed)
        #expect(K.Word(normalized: "한ㄱ").indexText == "ㅎㄱ")
        #expect(K.Word(normalized: "han").indexText == "han")
    }

    // MARK: Matching

    @Test("jamo-aware contains")
    func contains() {
        #expect(K.contains("한강", word: "ㅎㄱ"))
        #expect(K.contains("한강", word: "한ㄱ"))
        #expect(K.contains("한강", word: "ㅎ강"))
        #expect(K.contains("올림픽공원", word: "ㅇㄹㅍ"))
        #expect(K.contains("잠실 한강공원", word: "ㄱㄱㅇ"))
        #expect(!K.contains("한강", word: "ㄱㅎ"))
        #expect(!K.contains("한강", word: "한ㄴ"))
        #expect(!K.contains("까치", word: "ㄱ"))  // ㄲ is its own initial
        #expect(!K.contains("잠실 한강", word: "ㅅㅎ"))  // not across a space
        #expect(K.contains("ㅋㅋ", word: "ㅋ"))  // a typed jamo in the text
        #expect(K.contains("100%", word: "0%"))
        #expect(!K.contains("han", word: "ㅎ"))
    }

    @Test("GLOB pattern: initials become syllable classes, metacharacters are bracketed")
    func globPattern() {
        #expect(K.globPattern(for: "한ㄱ") == "*한[가-깋ㄱ]*")
        #expect(K.globPattern(for: "ㅎ") == "*[하-힣ㅎ]*")
        #expect(K.globPattern(for: "a*b?c[d]") == "*a[*]b[?]c[[]d]*")
    }

    /// SQLite's GLOB with our pattern must accept exactly what ``KoreanText/contains`` accepts.
    @Test("SQLite GLOB agrees with contains() on 4,000 seeded cases")
    func globAgreesWithContains() throws {
        let alphabet: [Character] = Array("한강가깋까하힣ㄱㄲㅎㅋㄳㅏ ab*?[]%_\\'\"-")
        var random = SearchTestRandom(seed: 7)
        let queue = try DatabaseQueue()
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ? GLOB ?")
            for _ in 0..<4_000 {
                let text = String((0..<random.int(0...8)).map { _ in random.pick(alphabet) })
                var word = String((0..<random.int(1...3)).map { _ in random.pick(alphabet) })
                if random.int(0...1) == 0, !text.isEmpty {  // often, a real piece of the text, jamo-fied
                    let scalars = Array(text.unicodeScalars)
                    let start = random.int(0...(scalars.count - 1))
                    let piece = scalars[start..<min(scalars.count, start + random.int(1...3))]
                    let jamofied = piece.map { random.int(0...1) == 0 ? K.initial(of: $0) : $0 }
                    word = String(String.UnicodeScalarView(jamofied))
                }
                let glob = try Bool.fetchOne(statement, arguments: [text, K.globPattern(for: word)]) ?? false
                #expect(glob == K.contains(text, word: word), "text \(text) word \(word)")
            }
        }
    }

    // MARK: Grams

    @Test("grams of a text: 1–3 scalars, never across white space, text and initials projection")
    func grams() {
        let grams = Set(K.indexGrams(of: "한강 a"))
        func g(_ text: String) -> K.Gram { K.gram(Array(text.unicodeScalars)[...]) }
        for expected in ["한", "강", "한강", "a", "ㅎ", "ㄱ", "ㅎㄱ"] {
            #expect(grams.contains(g(expected)), "\(expected)")
        }
        #expect(!grams.contains(g("강 ")))
        #expect(!grams.contains(g(" ")))
        #expect(!grams.contains(g("한ㄱ")))  // mixed words are looked up by their projection
        #expect(grams.count == 7)
        #expect(K.indexGrams(of: "").isEmpty)
        #expect(K.indexGrams(of: "ab") == K.indexGrams(of: "ab").sorted())
    }

    @Test("grams of different lengths never collide")
    func gramPacking() {
        func g(_ scalars: [UInt32]) -> K.Gram { K.gram(scalars.map { Unicode.Scalar($0)! }[...]) }
        #expect(g([0]) != g([0, 0]))
        #expect(g([0x41]) != g([0x41, 0]))
        #expect(g([0x10FFFF, 0x10FFFF, 0x10FFFF]) > 0)
    }

    /// No false negatives: every gram a keyword is looked up by is among the grams of any text
    /// the keyword matches.
    @Test("lookup grams of a matching keyword are always indexed (6,000 seeded cases)")
    func lookupIsComplete() {
        let alphabet: [Character] = Array("잠실한강공원올림픽로송파구ㄱㅋㅎabc10 %*-")
        var random = SearchTestRandom(seed: 11)
        for _ in 0..<6_000 {
            let text = K.normalize(String((0..<random.int(1...14)).map { _ in random.pick(alphabet) }))
            let scalars = Array(text.unicodeScalars)
            let start = random.int(0...(scalars.count - 1))
            var piece = Array(scalars[start..<min(scalars.count, start + random.int(1...7))])
            if piece.contains(where: K.isSpace) { continue }
            for i in piece.indices where random.int(0...2) == 0 { piece[i] = K.initial(of: piece[i]) }
            let word = K.Word(normalized: String(String.UnicodeScalarView(piece)))
            #expect(K.contains(text, word: word.text))
            let indexed = Set(K.indexGrams(of: text))
            for gram in K.lookupGrams(for: word) {
                #expect(indexed.contains(gram), "text \(text) word \(word.text)")
            }
        }
    }

    @Test("long keywords are looked up by grams covering them end to end")
    func lookupCover() {
        func lookups(_ text: String) -> Int { K.lookupGrams(for: K.Word(normalized: text)).count }
        #expect(lookups("강") == 1)
        #expect(lookups("한강") == 1)
        #expect(lookups("올림픽") == 1)
        #expect(lookups("올림픽공원") == 2)
        #expect(lookups("hangang") == 3)
    }

    @Test("tokens are FTS5 barewords: a field letter and base-36 digits")
    func tokens() throws {
        var random = SearchTestRandom(seed: 3)
        var seen: [String: K.Gram] = [:]
        for _ in 0..<2_000 {
            let scalars = (0..<random.int(1...3)).map { _ in
                Unicode.Scalar(UInt32(random.int(0...0xD7FF)))!
            }
            let gram = K.gram(scalars[...])
            let token = K.token(prefix: UInt8(ascii: "t"), gram: gram)
            #expect(token.utf8.count == 1 + 4 * scalars.count)
            #expect(token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
            if let other = seen[token] { #expect(other == gram) }
            seen[token] = gram
        }
        // GRDB's own pattern helper finds nothing to change in them.
        let token = K.token(prefix: UInt8(ascii: "p"), gram: K.gram(Array("ㅎ%'".unicodeScalars)[...]))
        #expect(FTS5Pattern(matchingAllTokensIn: token)?.rawPattern == token)
    }
}

/// Seeded cases that are the same on every run and platform (``SplitMix64``).
struct SearchTestRandom {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
