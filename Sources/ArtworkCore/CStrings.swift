import Glibc

/// Runs `body` with `strings` as a NULL-terminated array of C strings (an `argv` or `envp` for
/// `posix_spawn` or `execve`), each a copy freed when `body` returns.
public func withCStrings<R>(
  _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R
) -> R {
  let pointers = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return body(pointers)
}
