/// An optional that a synthesized `Encodable` writes as `null` when it is absent, where it would
/// leave the key out: the app's server writes every key (Jackson's default), and the OpenAPI
/// document requires them.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    /// The wrapper's own `init(wrappedValue:)`: the compiler does not take the synthesized one
    /// for it.
    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
