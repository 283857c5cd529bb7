import ArtworkCore

/// The name a result is known by outside (the `Location` of a `POST /v1/artwork` that did not
/// finish within its wait), bound to the caller that asked: the name of the result's record
/// (64 hex digits: the keyed hash of its URL and options that storage knows it by), then a tag
/// (32 hex digits: the first 128 bits of a keyed hash, under the service's id key, of the
/// caller's name and the record's name). Only the service can make a tag, so an id cannot be
/// worked out from a URL, and an id made for one caller is not one for another: asked by
/// anyone else, it is as unknown as an id never given. Without tokens, every caller is
/// `anonymous`, and any caller may read any result.
struct ResultID: Sendable {
  /// The key of the tags: derived from `ARTWORK_CACHE_KEY` when it is set (replicas that share
  /// it answer each other's ids), else made at random at start-up (an id is answered by the
  /// process that gave it).
  let key: [UInt8]

  /// A key derived from `secret` (`ARTWORK_CACHE_KEY`), never the same as the one that names
  /// records.
  static func derived(from secret: [UInt8]) -> ResultID {
    ResultID(key: Array(SHA256.hmacHex(key: secret, Array("artwork result ids v1".utf8)).utf8))
  }

  /// A key of 32 random bytes, for a process of its own.
  static func random() -> ResultID {
    var generator = SystemRandomNumberGenerator()
    return ResultID(key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// The id of the record named `record` (64 hex digits) for `caller`.
  func make(record: String, caller: String) -> String {
    record + tag(record: record, caller: caller)
  }

  /// The record an `id` names when it was made for `caller`, else nil (malformed, or made for
  /// another caller, or under another key).
  func record(of id: String, caller: String) -> String? {
    let bytes = Array(id.utf8)
    guard bytes.count == 96,
      bytes.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else { return nil }
    let record = String(decoding: bytes[..<64], as: UTF8.self)
    let expected = Array(tag(record: record, caller: caller).utf8)
    guard Authenticator.constantTimeEquals(Array(bytes[64...]), expected) else { return nil }
    return record
  }

  private func tag(record: String, caller: String) -> String {
    String(SHA256.hmacHex(key: key, Array("\(caller)\n\(record)".utf8)).prefix(32))
  }
}
