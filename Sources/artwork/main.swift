import ArtworkCLI
import Foundation

let status = await ArtworkCommand.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
