/// What this build is: printed by `artwork --version` and exported by `/metrics`
/// (`artwork_build_info`).
public enum BuildInfo {
  /// The release this source tree is, in semantic-version form. Raised with each release.
  public static let version = "0.12.0"
}
