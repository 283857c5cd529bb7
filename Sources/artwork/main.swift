import ArtworkCLI
import Foundation
import ImageWorkers

// A worker process (started by the service itself) never enters the command line's async world.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == WorkerMain.command {
  WorkerMain.run(Array(CommandLine.arguments.dropFirst(2)))
}
let status = await ArtworkCommand.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
