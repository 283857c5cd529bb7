import ArtworkCore
internal import CZlib

/// A PNG's metadata kept within bounds before any decoder sees it.
///
/// PNG is the one accepted format whose metadata can be compressed: text in `zTXt` and `iTXt`,
/// the ICC profile in `iCCP`. A chunk of 100 KB can inflate to 100 MB, and libvips' loader lets
/// libpng inflate every text chunk up to 50 MB (20 chunks of it took 9 s of CPU). The service
/// uses no text, so text chunks (`tEXt`, `zTXt`, `iTXt`) are dropped unread; an ICC profile is
/// kept only when it inflates to at most `maxProfileBytes` (counted without keeping the output),
/// else dropped (the picture is then taken as sRGB).
///
/// The chunk walk trusts nothing: every length is checked against what is left, and a PNG it
/// cannot walk to its end is passed on unchanged, for the decoder to refuse.
public enum PNGMetadataFilter {
  /// The largest ICC profile kept, inflated.
  public static let maxProfileBytes = 4 << 20

  /// Chunk types dropped unread.
  static let textChunks: Set<String> = ["tEXt", "zTXt", "iTXt"]

  /// `png` without its text chunks and without an ICC profile over the bound: the same value
  /// when there is nothing to drop (or `png` is not a PNG that can be walked), else a copy.
  public static func filtered(_ png: PinnedBytes) -> PinnedBytes {
    let chunks = png.withUnsafeBytes { PNGChunk.walk($0) }
    guard let chunks else { return png }
    let dropped = png.withUnsafeBytes { bytes in
      chunks.indices.filter { index in
        let chunk = chunks[index]
        if textChunks.contains(chunk.type) { return true }
        return chunk.type == "iCCP" && !profileWithinBound(bytes, chunk)
      }
    }
    guard !dropped.isEmpty else { return png }
    let drop = Set(dropped)
    var kept: [UInt8] = []
    kept.reserveCapacity(png.count)
    png.withUnsafeBytes { bytes in
      kept.append(contentsOf: bytes[0..<PNGChunk.signature.count])
      for (index, chunk) in chunks.enumerated() where !drop.contains(index) {
        kept.append(contentsOf: bytes[chunk.start..<chunk.end])
      }
      if let last = chunks.last, last.end < bytes.count {
        // Whatever follows the last chunk walked stays, for the decoder to judge.
        kept.append(contentsOf: bytes[last.end...])
      }
    }
    return PinnedBytes(copying: kept)
  }

  /// Whether the `iCCP` chunk's profile inflates to at most `maxProfileBytes`: its data is a
  /// name of 1 to 79 bytes, a NUL, the compression method (0), then the zlib stream.
  static func profileWithinBound(_ bytes: UnsafeRawBufferPointer, _ chunk: PNGChunk) -> Bool {
    let data = bytes[chunk.dataStart..<chunk.dataEnd]
    guard let nul = data.prefix(80).firstIndex(of: 0), nul + 2 <= chunk.dataEnd else {
      return false
    }
    let stream = UnsafeRawBufferPointer(rebasing: bytes[(nul + 2)..<chunk.dataEnd])
    var size = 0
    let status = artwork_zlib_inflated_size(
      stream.baseAddress?.assumingMemoryBound(to: UInt8.self), stream.count, maxProfileBytes,
      &size)
    // A damaged stream is libpng's to refuse (it then ignores the profile); only a bomb is ours.
    return Int(status) != ARTWORK_ZLIB_OVER_LIMIT
  }
}
