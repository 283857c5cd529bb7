extension String {
  /// Percent-encodes everything but unreserved characters, for a query value.
  public var percentEncodedForQuery: String {
    var out = ""
    for byte in utf8 {
      if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
        || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte)
      {
        out.append(Character(Unicode.Scalar(byte)))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }

  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
