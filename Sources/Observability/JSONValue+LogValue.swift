import JSON

extension JSONValue {
  /// A log field as JSON: numbers as numbers (non-finite doubles as null), booleans bare.
  public init(_ value: LogValue) {
    switch value {
    case .string(let text): self = .string(text)
    case .int(let number): self = .int(number)
    case .double(let number): self = .double(number)
    case .bool(let flag): self = .bool(flag)
    }
  }
}
