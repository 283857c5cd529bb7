/// Byte counts as the docs write them: `2,000,000 bytes`.
public enum ByteCount {
  /// `count` with thousands separated by commas, and the word bytes.
  public static func text(_ count: Int) -> String {
    grouped(count) + (count == 1 ? " byte" : " bytes")
  }

  /// `count` with thousands separated by commas (`40,000,000`).
  public static func grouped(_ count: Int) -> String {
    let digits = String(count.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return (count < 0 ? "-" : "") + grouped
  }
}
