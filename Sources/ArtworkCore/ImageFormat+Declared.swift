extension ImageFormat {
  /// Whether bytes sniffed as `actual` fit a declared type of `self`. HEIC and AVIF share the
  /// HEIF container and clients often declare one for the other (`image/heif`).
  package func isCompatible(with actual: ImageFormat) -> Bool {
    switch (self, actual) {
    case (.heic, .avif), (.avif, .heic): true
    default: self == actual
    }
  }
}
