/// Which keywords of a query can make up a relevance tier: the subsets of `0..<n` with `size`
/// elements, each ascending. Both backends' relevance tiers ("exactly `size` of the keywords in
/// the title") are built from them.
package enum KeywordSubsets {
    package static func of(_ n: Int, size: Int) -> [[Int]] {
        guard size > 0 else { return [[]] }
        guard size <= n else { return [] }
        var result: [[Int]] = []
        func extend(_ prefix: [Int], from start: Int) {
            if prefix.count == size {
                result.append(prefix)
                return
            }
            for i in start..<n { extend(prefix + [i], from: i + 1) }
        }
        extend([], from: 0)
        return result
    }
}
