/// The two date formats S3 answers with, as seconds since 1970 (UTC). Pure and total: malformed
/// text gives nil.
enum S3Date {
  /// `Sun, 29 Nov 2026 13:04:17 GMT` (the IMF-fixdate of `Last-Modified`).
  static func parseHTTPDate(_ text: String) -> Int64? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]),
      let monthIndex = months.firstIndex(of: String(parts[2])), let year = Int64(parts[3])
    else { return nil }
    let time = parts[4].split(separator: ":")
    guard time.count == 3, let h = Int64(time[0]), let m = Int64(time[1]), let s = Int64(time[2])
    else { return nil }
    return epochSeconds(year: year, month: Int64(monthIndex + 1), day: day, h: h, m: m, s: s)
  }

  /// `2026-11-29T13:04:17Z` or with fractional seconds `2026-11-29T13:04:17.780Z` (ListObjectsV2).
  static func parseISO8601(_ text: String) -> Int64? {
    guard text.hasSuffix("Z") else { return nil }
    let halves = text.dropLast().split(separator: "T")
    guard halves.count == 2 else { return nil }
    let date = halves[0].split(separator: "-")
    let time = halves[1].split(separator: ".")[0].split(separator: ":")
    guard date.count == 3, time.count == 3, let year = Int64(date[0]), let month = Int64(date[1]),
      let day = Int64(date[2]), let h = Int64(time[0]), let m = Int64(time[1]),
      let s = Int64(time[2])
    else { return nil }
    return epochSeconds(year: year, month: month, day: day, h: h, m: m, s: s)
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Days from the civil date (proleptic Gregorian), valid for any year in range.
  private static func epochSeconds(
    year: Int64, month: Int64, day: Int64, h: Int64, m: Int64, s: Int64
  ) -> Int64? {
    guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(h),
      (0...59).contains(m), (0...60).contains(s), (1970...9999).contains(year)
    else { return nil }
    let y = month <= 2 ? year - 1 : year
    let era = y / 400
    let yearOfEra = y - era * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + h * 3_600 + m * 60 + s
  }
}
