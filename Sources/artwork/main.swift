import ArtworkCLI
import Foundation
import ImageWorker
import WorkerProtocol

// A worker process (started by the service itself) never enters the command line's async world.
// This is the one door from `artwork` to libvips: `WorkerMain.run` never returns, and nothing
// else here links a decoder (the service and the command line are walled off from `Imaging`).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == WorkerLaunch.command {
  WorkerMain.run(Array(CommandLine.arguments.dropFirst(2)))
}
let status = await ArtworkCommand.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
