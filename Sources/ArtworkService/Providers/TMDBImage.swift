/// TMDB's image URLs (`https://image.tmdb.org/t/p/{size}/{file}`), recognised by their path
/// so that a stand-in with the same layout is treated the same: the sizes worth fetching, and
/// the URLs that name no image.
enum TMDBImage {
  /// The size asked for instead of `original` (no size cap: often over 2 MB) and tried when
  /// the unlisted `w600_and_h900_bestv2` is refused.
  static let fetchedSize = "w780"

  /// `url` with an `original` size replaced by `w780`; any other URL as it is.
  static func sized(_ url: String) -> String {
    replacingSize(in: url, from: "original") ?? url
  }

  /// The URL to try when `url`'s origin refuses it with a 4xx: the `w780` of a
  /// `w600_and_h900_bestv2` URL (the size Overseerr asks for, which TMDB does not list).
  static func fallback(for url: String) -> String? {
    replacingSize(in: url, from: "w600_and_h900_bestv2")
  }

  /// Whether `url` names no image: Overseerr's `.../w600_and_h900_bestv2null` (TMDB had no
  /// poster path), a `/t/p/{size}/null`, or a `/t/p/{size}/` with nothing after it.
  static func isMissing(_ url: String) -> Bool {
    let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
    guard let range = path.range(of: "/t/p/") else { return false }
    let rest = path[range.upperBound...]
    if rest.hasSuffix("null") && !rest.contains(".") { return true }
    guard let slash = rest.firstIndex(of: "/") else { return rest.isEmpty }
    let file = rest[rest.index(after: slash)...]
    return file.isEmpty || file == "null" || file == "undefined"
  }

  /// `url` with its `/t/p/{size}/` segment's size replaced by `w780` when it is `size`; nil
  /// when it is not.
  private static func replacingSize(in url: String, from size: String) -> String? {
    guard let range = url.range(of: "/t/p/\(size)/") else { return nil }
    return url.replacingCharacters(in: range, with: "/t/p/\(fetchedSize)/")
  }
}
