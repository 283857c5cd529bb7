import CZlib

/// zlib's own inflate, for the compressed PNGs of the reference vectors (the codec's PNGs are
/// read by `PNGReader.inflateStored`, which is independent of zlib).
enum ZlibInflate {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The whole stream inflated, at most `limit` bytes of it (a vector is at most 100x100).
  static func whole(_ stream: [UInt8]) throws -> [UInt8] {
    let limit = 1 << 20
    var output = [UInt8](repeating: 0, count: limit)
    var length = uLongf(limit)
    let status = output.withUnsafeMutableBufferPointer { out in
      stream.withUnsafeBufferPointer { input in
        uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
      }
    }
    guard status == Z_OK else { throw Failure(description: "zlib status \(status)") }
    return Array(output[0..<Int(length)])
  }
}
