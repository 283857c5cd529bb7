internal import CCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto (the one door to it).
public enum SHA256 {
  /// The 32-byte digest of `bytes`.
  static func digest(_ bytes: some ContiguousBytes) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { input in
      out.withUnsafeMutableBufferPointer { output in
        EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
      }
    }
    // NOTE: EVP_Digest fails only on allocation failure; there is no sensible way on from there.
    precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
    return out
  }

  /// The lowercase hex HMAC-SHA-256 of `bytes` under `key` (RFC 2104).
  public static func hmacHex(key: [UInt8], _ bytes: [UInt8]) -> String {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let result = key.withUnsafeBytes { secret in
      bytes.withUnsafeBytes { input in
        out.withUnsafeMutableBufferPointer { output in
          HMAC(
            EVP_sha256(), secret.baseAddress, Int32(secret.count),
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
            output.baseAddress, &length)
        }
      }
    }
    // NOTE: HMAC fails only on allocation failure, like EVP_Digest.
    precondition(result != nil && length == 32, "HMAC(SHA-256) failed")
    return lowercaseHex(out)
  }

  /// The lowercase hex SHA-256 of `bytes`.
  public static func hex(_ bytes: [UInt8]) -> String { lowercaseHex(digest(bytes)) }

  /// The lowercase hex SHA-256 of `bytes` (a slice: a body's image part, not copied).
  public static func hex(_ bytes: ArraySlice<UInt8>) -> String { lowercaseHex(digest(bytes)) }
}
