/// A value handed to a transaction's body that the compiler cannot prove `Sendable`: a caller's
/// callback, used only while the caller awaits the transaction, one step at a time.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
