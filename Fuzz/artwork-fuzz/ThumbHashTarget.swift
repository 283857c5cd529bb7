import ThumbHashCodec

/// The `thumbhash` target: the input as a hash (bytes, and as base64 text) through every reading
/// the service offers (`/v1/thumbhash/decode`, the CLI's `decode`), each answer checked against
/// what the codec promises of it.
enum ThumbHashTarget {
  static func run(_ input: UnsafeRawBufferPointer) {
    let hash = Array(input)
    read(hash)
    // Base64 both ways: any bytes survive the round trip, and any text either decodes or throws.
    precondition((try? ThumbHashBase64.decode(ThumbHashBase64.encode(hash))) == hash)
    if let bytes = try? ThumbHashBase64.decode(String(decoding: hash, as: UTF8.self)) {
      read(bytes)
    }
  }

  private static func read(_ hash: [UInt8]) {
    guard let image = try? ThumbHash.decode(hash) else {
      precondition((try? ThumbHash.averageColor(hash)) == nil, "a refused hash has a colour")
      precondition((try? ThumbHash.approximateAspectRatio(hash)) == nil)
      return
    }
    precondition((1...32).contains(image.width) && (1...32).contains(image.height))
    precondition(image.rgba.count == image.width * image.height * 4)
    let png = ThumbHash.pngData(image)
    precondition(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    guard let color = try? ThumbHash.averageColor(hash),
      let aspect = try? ThumbHash.approximateAspectRatio(hash)
    else { preconditionFailure("a decoded hash has no colour or aspect ratio") }
    for channel in [color.red, color.green, color.blue, color.alpha] {
      precondition((0...1).contains(channel))
    }
    precondition(aspect >= 1.0 / 7 - 1e-9 && aspect <= 7 + 1e-9)
  }
}
