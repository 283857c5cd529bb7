import Synchronization

/// The memory all request bodies held at once may use, shared out by share (whose work a
/// request is: a token's name, or the client's network; `HTTPRequestHead.share`): bytes are
/// reserved when a body is about to be read (its declared length, or piece by piece for a
/// chunked body) and given back when its exchange ends, so memory stays bounded however many
/// bodies arrive, and a share's slow bodies cost that share alone.
///
/// - A share has at most `maxArrivingPerShare` bodies arriving at once (from their head to
///   their last byte): bodies that trickle in hold that share's places, not the others'.
/// - One share alone may hold the whole `limit` but its last `reserve` (a quarter): those bytes
///   are for shares holding less than an equal share of the limit (rounded up), so another
///   caller's body is admitted however much one share holds.
/// - A share that holds nothing comes first: one that holds some may take the reserve only
///   while half of it stays free.
final class BodyBudget: Sendable {
  /// The most bytes reserved at once.
  let limit: Int
  /// Bytes that only shares below an equal share of the limit may take.
  let reserve: Int
  /// The most bodies one share may have arriving at once.
  let maxArrivingPerShare: Int

  private struct State {
    var used = 0
    /// Bytes held by share (only shares holding some).
    var held: [String: Int] = [:]
    /// Bodies arriving by share (only shares with some).
    var arriving: [String: Int] = [:]
  }

  private let state = Mutex(State())

  init(limit: Int, maxArrivingPerShare: Int = .max) {
    self.limit = limit
    reserve = limit / 4
    self.maxArrivingPerShare = max(1, maxArrivingPerShare)
  }

  /// Why a body was not admitted.
  enum Refusal: Equatable {
    /// Its share has `maxArrivingPerShare` bodies arriving already.
    case arriving
    /// The memory is spoken for (or this share holds its part of it).
    case memory
  }

  /// Admits a body of `share` that is about to arrive, holding `bytes` for it (its declared
  /// length; 0 for a chunked body, which grows with `grow`): nil when admitted, else why not
  /// (and nothing is held).
  func admit(_ bytes: Int, share: String) -> Refusal? {
    state.withLock { state in
      guard state.arriving[share, default: 0] < maxArrivingPerShare else { return .arriving }
      guard Self.fits(bytes, share: share, in: &state, limit: limit, reserve: reserve) else {
        return .memory
      }
      state.arriving[share, default: 0] += 1
      return nil
    }
  }

  /// Holds `bytes` more for a chunked body of `share` that grew; false (nothing held) when
  /// they do not fit.
  func grow(_ bytes: Int, share: String) -> Bool {
    state.withLock { state in
      Self.fits(bytes, share: share, in: &state, limit: limit, reserve: reserve)
    }
  }

  /// A body of `share` arrived whole (or stopped arriving): its place among the share's
  /// arriving bodies is free; its bytes stay held until `release`.
  func arrived(share: String) {
    state.withLock { state in
      let left = state.arriving[share, default: 1] - 1
      state.arriving[share] = left > 0 ? left : nil
    }
  }

  /// Gives back `bytes` held for `share`.
  func release(_ bytes: Int, share: String) {
    guard bytes > 0 else { return }
    state.withLock { state in
      state.used -= bytes
      let left = state.held[share, default: bytes] - bytes
      state.held[share] = left > 0 ? left : nil
    }
  }

  /// Holds `bytes` for `share` when the rules allow it.
  private static func fits(
    _ bytes: Int, share: String, in state: inout State, limit: Int, reserve: Int
  ) -> Bool {
    guard bytes > 0 else { return true }
    let mine = state.held[share, default: 0]
    let (after, overflow) = state.used.addingReportingOverflow(bytes)
    guard !overflow, after <= limit else { return false }
    if after > limit - reserve {
      // Into the reserve: a share that holds nothing, or one below an equal share of the
      // limit that leaves half the reserve for those that hold nothing.
      if mine > 0 {
        let sharing = state.held.count
        let equal = (limit + sharing - 1) / sharing
        guard mine + bytes <= equal, after <= limit - reserve / 2 else { return false }
      }
    }
    state.used = after
    state.held[share] = mine + bytes
    return true
  }

  /// Bytes reserved now.
  var reserved: Int { state.withLock { $0.used } }

  /// Bodies arriving now, in all.
  var arriving: Int { state.withLock { $0.arriving.values.reduce(0, +) } }
}
