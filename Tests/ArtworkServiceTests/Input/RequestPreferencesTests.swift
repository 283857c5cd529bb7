import HTTP
import Testing

@testable import ArtworkService

/// `Prefer: wait` and `Cache-Control: no-cache` as a relay's clients write them.
@Suite struct RequestPreferencesTests {
  @Test(arguments: [
    ("wait=5", 5), ("WAIT=5", 5), ("wait = 5", 5), ("respond-async, wait=10", 10),
    ("wait=\"3\"", 3), ("wait=0", 0), ("wait=100000", 120), ("handling=lenient; x, wait=2", 2),
  ])
  func aWaitIsRead(value: String, seconds: Int) {
    #expect(RequestPreferences(HTTPHeaders([("Prefer", value)])).wait == seconds)
  }

  /// Anything that is not a count of seconds is no wait at all (RFC 7240: a preference that is
  /// not understood is ignored), never a trap.
  @Test(arguments: [
    "", ",", " , ,", "wait", "wait=", "wait=-1", "wait=1.5", "wait=1e3", "wait=٣",
    "wait=99999999999999999999", ";", "=", "return=minimal",
  ])
  func anythingElseIsNoWait(value: String) {
    #expect(RequestPreferences(HTTPHeaders([("Prefer", value)])).wait == nil)
  }

  @Test func revalidationIsAskedByNoCacheOrMaxAgeZero() {
    for value in ["no-cache", "No-Cache", "max-age=0", "no-store, no-cache"] {
      #expect(RequestPreferences(HTTPHeaders([("Cache-Control", value)])).revalidate, "\(value)")
    }
    #expect(RequestPreferences(HTTPHeaders([("Pragma", "no-cache")])).revalidate)
    for value in ["max-age=60", "no-store", "private", ""] {
      #expect(!RequestPreferences(HTTPHeaders([("Cache-Control", value)])).revalidate, "\(value)")
    }
    #expect(RequestPreferences(HTTPHeaders()) == RequestPreferences())
  }
}
