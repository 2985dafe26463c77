import PostgresNIO

/// An `INSERT INTO table (…) SELECT … FROM unnest($1, $2, …)` of many rows, each column bound
/// as one array (``PostgresArrayParameter``): a batch is one short statement of a few
/// parameters however many rows it holds, where a `VALUES` list took a parameter per value and
/// at most 65,535 of them.
struct UnnestInsert {
    let table: String
    private var names: [String] = []
    private var arguments: [String] = []
    private var expressions: [String] = []
    private var bindings = PostgresBindings()

    init(into table: String) {
        self.table = table
    }

    /// Adds column `name` of type `type` (SQL, the element's), one value a row;
    /// `expression` makes the column's value from the array's element `r.<name>`.
    mutating func column<T: PostgresArrayEncodable>(
        _ name: String, _ type: String, _ values: [T?], expression: ((String) -> String)? = nil
    ) throws {
        try bindings.append(PostgresArrayParameter(values))
        names.append(name)
        arguments.append("$\(bindings.count)::\(type)[]")
        expressions.append(expression?("r.\(name)") ?? "r.\(name)")
    }

    /// The statement, `suffix` (`ON CONFLICT …`, `RETURNING …`) at its end.
    func query(_ suffix: String = "") -> PostgresQuery {
        let columns = names.joined(separator: ", ")
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(table) (\(columns)) SELECT \(expressions.joined(separator: ", "))
                FROM unnest(\(arguments.joined(separator: ", "))) AS r(\(columns)) \(suffix)
                """, binds: bindings)
    }
}
