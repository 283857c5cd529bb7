/// One command's arguments, split into options and operands.
///
/// Options may come anywhere, before or after the operands, as `--name value` or
/// `--name=value`; flags take no value. `--` ends the options (every later argument is an
/// operand, even one starting with `-`), and `-` alone is an operand (standard input).
/// `--help` and `-h` are recognised everywhere before `--`.
struct ParsedArguments {
  /// The value of each option given (the last one when repeated), keyed by its name (`--out`).
  private(set) var values: [String: String] = [:]
  /// The flags given (`--resume`).
  private(set) var flags: Set<String> = []
  /// The operands, in order.
  private(set) var operands: [String] = []
  /// Whether `--help` or `-h` was given.
  private(set) var wantsHelp = false

  /// Parses `arguments` of `command`, accepting the options in `valued` (which take a value)
  /// and `flags` (which do not), each named with its dashes.
  init(_ arguments: [String], command: String, valued: Set<String> = [], flags: Set<String> = [])
    throws(UsageError)
  {
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        operands.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        wantsHelp = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if valued.contains(name) {
        if let inline {
          values[name] = inline
        } else {
          guard index < arguments.count else { throw UsageError(command, "\(name) needs a value") }
          values[name] = arguments[index]
          index += 1
        }
      } else if flags.contains(name) {
        guard inline == nil else { throw UsageError(command, "\(name) takes no value") }
        self.flags.insert(name)
      } else {
        throw UsageError(command, "unknown option \(name)")
      }
    }
  }

  /// The value of option `name`, or nil when it was not given.
  subscript(_ name: String) -> String? { values[name] }

  /// Whether flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }
}
