/// Builds the storage backend the configuration names.
enum StorageFactory {
  static func make(config: ServiceConfig, logger: Logger) async throws(ArtworkError)
    -> any ArtworkStorage
  {
    switch config.storage {
    case .fileSystem(let path):
      return try FileSystemStorage(directory: path)
    case .s3:
      throw ArtworkError(.internal, "S3 storage is not available in this build.")
    }
  }
}
