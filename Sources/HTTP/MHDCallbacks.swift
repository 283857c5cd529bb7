import CMicroHTTPD

/// The C entry points MHD calls. Each recovers its Swift object from the `void *` slot and
/// hands over to `ServerCore`; none captures anything, so they are plain C function pointers.
enum MHDCallbacks {
  /// Called with the raw request-target as soon as the request line is read; the context it
  /// returns (retained) becomes the request's context slot, released in `completed`.
  static let uriLog: artwork_mhd_uri_log_callback = { cls, uri, connection in
    guard let cls, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    return core.open(connection, rawTarget: uri.map { String(cString: $0) } ?? "")
  }

  /// MHD's access handler: called once the headers are in, once per body piece, once when the
  /// request is complete, and again after each resume.
  static let access: MHD_AccessHandlerCallback = {
    cls, connection, _, method, version, upload, uploadSize, slot in
    guard let cls, let connection, let slot, let uploadSize else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    // NOTE: MHD always calls `uriLog` first; this keeps the pairing even if it did not.
    let raw = slot.pointee ?? core.open(connection, rawTarget: "/")
    slot.pointee = raw
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    return core.access(
      context, method: method.map { String(cString: $0) } ?? "",
      version: version.map { String(cString: $0) } ?? "", upload: upload,
      uploadSize: uploadSize)
  }

  /// MHD's end of a request: releases the context retained in `uriLog`.
  static let completed: MHD_RequestCompletedCallback = { cls, _, slot, termination in
    guard let cls, let slot, let raw = slot.pointee else { return }
    slot.pointee = nil
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    core.finish(context, cleanly: termination == .REQUEST_TERMINATED_COMPLETED_OK)
  }

  /// MHD's content reader for stream bodies.
  static let read: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return artwork_mhd_reader_end_with_error() }
    let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue()
    return reader.read(into: UnsafeMutableRawPointer(buffer), max: max)
  }

  /// Called when MHD destroys a stream response: releases the reader retained for it.
  static let freeReader: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamReader>.fromOpaque(cls).release()
  }
}
