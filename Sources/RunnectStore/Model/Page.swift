/// One page of a list: `limit` courses, pages numbered from 1 (the service pages by 10).
public struct Page: Equatable, Sendable {
    /// Courses per page, at least 1.
    public var limit: Int
    /// Page number, from 1.
    public var number: Int

    /// Page `number` (from 1) of `limit` courses per page; the first 10 by default.
    public init(limit: Int = 10, number: Int = 1) {
        self.limit = limit
        self.number = number
    }

    /// Rows to skip before this page.
    /// - Throws: ``StoreError/invalidPage(limit:number:)`` for a limit or number below 1, or an
    ///   offset that does not fit in 64 bits.
    func offset() throws -> Int {
        guard limit >= 1, number >= 1 else { throw StoreError.invalidPage(limit: limit, number: number) }
        let (offset, overflow) = (number - 1).multipliedReportingOverflow(by: limit)
        guard !overflow else { throw StoreError.invalidPage(limit: limit, number: number) }
        return offset
    }
}
