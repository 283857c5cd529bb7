import ArtworkCore
import Foundation
import SafeFetch

/// What the service remembers about one source URL processed one way: the result (or a recent
/// failure) and the validators to revalidate it with. Persisted as JSON through the storage's
/// records, so it survives restarts and is shared by replicas.
struct ResultRecord<Payload: Codable & Sendable & Equatable>: StoredRecord, Sendable, Equatable {
  /// A recent failure, answered again until it expires.
  struct Failure: Codable, Sendable, Equatable {
    var kind: String
    var detail: String
    /// The problem's extension members (`reason`, `origin_status`), when it had any.
    var members: [ProblemMember]?
  }

  static var currentVersion: Int { 1 }

  var version: Int
  var url: String
  var payload: Payload?
  var failure: Failure?
  var etag: String?
  var lastModified: String?
  /// When the origin last confirmed (or produced) this result, in seconds since 1970.
  var checkedAt: Double
  /// The fingerprint of the settings the result was made under (limits, address policy,
  /// timeouts): a record made under other settings is not answered.
  var configuration: String?

  init(
    url: String, payload: Payload? = nil, failure: Failure? = nil,
    validators: Validators = Validators(), checkedAt: Double, configuration: String? = nil
  ) {
    self.version = Self.currentVersion
    self.url = url
    self.payload = payload
    self.failure = failure
    self.etag = validators.etag
    self.lastModified = validators.lastModified
    self.checkedAt = checkedAt
    self.configuration = configuration
  }

  /// The origin's validators for `payload`.
  var validators: Validators {
    get { Validators(etag: etag, lastModified: lastModified) }
    set {
      etag = newValue.etag
      lastModified = newValue.lastModified
    }
  }
}
