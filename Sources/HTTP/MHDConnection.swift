import CMicroHTTPD

/// A libmicrohttpd connection pointer that may be handed to another thread.
///
/// NOTE: `@unchecked Sendable` because MHD connection pointers are only used from the MHD thread
/// that runs the connection, with one exception: `MHD_resume_connection`, which MHD documents as
/// thread-safe. `RequestContext` guarantees each resume matches exactly one suspend, so the
/// pointer is still valid whenever another thread uses it (a suspended connection is never
/// freed).
struct MHDConnection: @unchecked Sendable {
  /// The connection.
  let raw: OpaquePointer
}
