import Imaging

/// The image library the workers decode and encode with, for the service's build metric: the
/// service names it without importing the libvips target itself.
public enum ImageLibrary {
  /// libvips' version, e.g. "8.14.1".
  public static var version: String { Vips.version }
}
