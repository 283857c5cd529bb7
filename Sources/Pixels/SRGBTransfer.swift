import Glibc

/// The sRGB transfer function (IEC 61966-2-1) as lookup tables: 8-bit codes to linear light, and
/// linear light back to 8-bit codes.
enum SRGBTransfer {
  /// Linear light of each 8-bit code, in 0...1.
  static let toLinear: [Float] = (0..<256).map { code in
    let value = Double(code) / 255
    let linear = value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    return Float(linear)
  }

  /// Steps of linear light in `fromLinear`: 65536, fine enough that the table never picks a code
  /// a step away from the exact one (near black, one step moves the code by 0.05).
  static let steps = 65535

  /// The nearest 8-bit code of each linear value `index / steps`.
  static let fromLinear: [UInt8] = (0...steps).map { index in
    let value = Double(index) / Double(steps)
    let encoded = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    return UInt8(max(0, min(255, (encoded * 255).rounded())))
  }
}
