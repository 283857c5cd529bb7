import Glibc

/// The `Date` header line for the current second, rebuilt once a second (RFC 9110 IMF-fixdate).
/// One per loop, shared by its connections; confined to the loop's thread.
final class HTTPDate {
  private var second = -1
  private var line: [UInt8] = []

  /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n` for now.
  func current() -> [UInt8] {
    let now = Int(time(nil))
    if now != second {
      second = now
      line = Array("Date: \(Self.format(now))\r\n".utf8)
    }
    return line
  }

  /// IMF-fixdate of a Unix time, in English whatever the locale.
  static func format(_ seconds: Int) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
