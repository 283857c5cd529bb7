import ArtworkCore
import ArtworkService
import Foundation
import JSON

/// What one input of a batch gave: the members of its answer, or the problem the service would
/// answer.
struct BatchResult: Sendable {
  /// The input's position in the run (for output in input order).
  var index: Int
  var input: String
  var outcome: Result<[(String, JSONValue)], ArtworkError>

  var ok: Bool {
    if case .success = outcome { return true }
    return false
  }

  /// `{"input": ..., "ok": true, ...answer}` or `{"input": ..., "ok": false, "problem": {...}}`.
  var line: String {
    var members: [(String, JSONValue)] = [("input", .string(input)), ("ok", .bool(ok))]
    switch outcome {
    case .success(let answer): members += answer
    case .failure(let error): members.append(("problem", error.problemJSON))
    }
    return JSONValue.object(members).text
  }
}

/// Every input of a batch through one async function, at most `jobs` at once, in this process.
/// Results arrive in completion order. Once `interruption` is requested no input is started;
/// the running ones finish.
struct BatchRun {
  var jobs: Int
  var interruption: Interruption

  /// Runs `work` on `inputs`, handing each result to `completed` as it finishes (one at a
  /// time). Returns how many inputs were started.
  func run(
    _ inputs: [BatchInput],
    _ work: @escaping @Sendable (BatchInput) async throws(ArtworkError) -> [(String, JSONValue)],
    completed: (BatchResult) -> Void
  ) async -> Int {
    await withTaskGroup(of: BatchResult.self) { group in
      var next = 0
      var running = 0
      while true {
        while running < jobs, next < inputs.count, !interruption.isRequested {
          let index = next
          let input = inputs[index]
          group.addTask {
            do throws(ArtworkError) {
              return BatchResult(
                index: index, input: input.text, outcome: .success(try await work(input)))
            } catch {
              return BatchResult(index: index, input: input.text, outcome: .failure(error))
            }
          }
          next += 1
          running += 1
        }
        guard let result = await group.next() else { break }
        running -= 1
        completed(result)
      }
      return next
    }
  }
}
