import GRDB

extension SQLiteSearchQuery {
    // MARK: - Relevance, tier by tier

    /// Fills the page in relevance order: one title group after another (all keywords in the
    /// title first). A group with few candidates is sorted by departure score and date at once;
    /// a dense one is walked one departure score after the other, each newest first.
    ///
    /// Sorting the small groups is what keeps multi-word queries fast: walking all `(k + 1)²`
    /// tiers instead took `hangang night run` from p95 12 ms to 21 ms and `서울 강` from 7.6 to
    /// 30 ms on the benchmark store (2026-11-24, machine shared with builds).
    func fillByRelevance(_ page: inout Page, _ db: Database, denseCandidateCount dense: Int) throws {
        let k = terms.count
        for inTitle in stride(from: k, through: 0, by: -1) where !page.isFull {
            let group = titleGroup(inTitle)
            let candidates = try candidateCount(db, group.expression, upTo: dense)
            if candidates == 0 { continue }
            if candidates < dense {
                let order: SQL = "\(score(.departure)) DESC, s.created_ms DESC, s.course_id DESC"
                try fillSorted(&page, db, selection: group, by: order, isLast: inTitle == 0)
                continue
            }
            for tier in SearchTier.relevanceOrder(keywords: k) where tier.inTitle == inTitle {
                try fillNewestFirst(
                    &page, db, selection: selection(tier), isLast: inTitle == 0 && tier.inDeparture == 0)
            }
        }
    }

    /// The matches with exactly `inTitle` keywords in the title: a cheap expression on title
    /// tokens (which are few) that may propose more.
    func titleGroup(_ inTitle: Int) -> Selection {
        let part = exactly(inTitle, in: .title)
        var expression = part.positive ?? anyExpression
        if let no = part.negative { expression = "(\(expression)) NOT (\(no))" }
        return Selection(expression: expression, filter: "\(score(.title)) = \(inTitle)")
    }

    /// The matches of `tier`: an FTS5 expression that proposes them (a superset), and the exact
    /// SQL test.
    func selection(_ tier: SearchTier) -> Selection {
        let (inTitle, inDeparture) = (tier.inTitle, tier.inDeparture)
        // All keywords in one field already says that each is in some field.
        var positive = inTitle == terms.count || inDeparture == terms.count ? [] : [anyExpression]
        var negative: [String] = []
        for (count, field) in [(inTitle, SearchField.title), (inDeparture, .departure)] {
            let part = exactly(count, in: field)
            if let yes = part.positive { positive.append(yes) }
            if let no = part.negative { negative.append(no) }
        }
        let expression =
            "(" + positive.joined(separator: " AND ") + ")" + negative.map { " NOT (\($0))" }.joined()
        return Selection(
            expression: expression,
            filter: "\(score(.title)) = \(inTitle) AND \(score(.departure)) = \(inDeparture)")
    }

    /// FTS5 parts for "exactly `count` keywords in `field`": a positive expression to AND and a
    /// negative one to NOT. Only exact terms are negated, so both are supersets of the tier;
    /// the SQL filter makes it exact.
    func exactly(_ count: Int, in field: SearchField) -> (positive: String?, negative: String?) {
        let k = terms.count
        if count == k {
            return (terms.map { $0.expression(in: field) }.joined(separator: " AND "), nil)
        }
        if count == 0 {
            let exact = terms.filter(\.isExact).map { $0.expression(in: field) }
            return (nil, exact.isEmpty ? nil : exact.joined(separator: " OR "))
        }
        let alternatives = KeywordSubsets.of(k, size: count).map { subset in
            let present = subset.map { terms[$0].expression(in: field) }.joined(separator: " AND ")
            let absent = (0..<k).filter { !subset.contains($0) && terms[$0].isExact }
                .map { terms[$0].expression(in: field) }
            return absent.isEmpty ? "(\(present))" : "((\(present)) NOT (\(absent.joined(separator: " OR "))))"
        }
        return ("(" + alternatives.joined(separator: " OR ") + ")", nil)
    }
}
