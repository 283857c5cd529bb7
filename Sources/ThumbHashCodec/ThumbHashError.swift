/// Why a ThumbHash operation refused its input. Every malformed input maps to one of these;
/// the codec never traps on untrusted bytes.
public enum ThumbHashError: Error, Equatable, Sendable {
  /// The image to encode is not 1...100 pixels in each direction.
  case invalidDimensions(width: Int, height: Int)
  /// The RGBA buffer is not exactly `width * height * 4` bytes.
  case pixelBufferLength(expected: Int, actual: Int)
  /// The hash ends before its header or its AC data does (this includes the empty hash).
  case truncatedHash(expected: Int, actual: Int)
  /// The header describes an image with no luminance terms along one side (aspect 0 or infinite),
  /// which no encoder produces and which would decode to an empty image.
  case invalidHeader
  /// The string is not standard base64 (padded or unpadded).
  case invalidBase64
}

extension ThumbHashError: CustomStringConvertible {
  /// A short sentence a client can act on.
  public var description: String {
    switch self {
    case .invalidDimensions(let width, let height):
      return "ThumbHash needs an image of 1...100 px per side, got \(width)x\(height)"
    case .pixelBufferLength(let expected, let actual):
      return "RGBA buffer has \(actual) bytes, expected width * height * 4 = \(expected)"
    case .truncatedHash(let expected, let actual):
      return "ThumbHash is truncated: \(actual) bytes, its header needs \(expected)"
    case .invalidHeader:
      return "ThumbHash header is invalid: a side has no luminance terms"
    case .invalidBase64:
      return "ThumbHash is not valid base64"
    }
  }
}
