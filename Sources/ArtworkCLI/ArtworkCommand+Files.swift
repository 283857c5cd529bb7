import ArtworkCore
import ArtworkService
import Foundation
import Imaging
import ThumbHashCodec

extension ArtworkCommand {
  /// `artwork thumbhash FILE...`
  static func thumbhash(files: [String]) -> Int32 {
    guard !files.isEmpty else {
      printError(help["thumbhash"]!)
      return 2
    }
    Runtime.initialize()
    var failed = false
    for path in files {
      do {
        let bytes = try readFile(path)
        let (_, pixels) = try ImagePipeline.thumbnailPixels(bytes, limits: .standard)
        let hash = try ArtworkProcessor.hash(pixels)
        printOut("\(hash.base64)\t\(path)\n")
      } catch {
        failed = true
        printError("artwork: \(path): \(error.detail)")
      }
    }
    return failed ? 1 : 0
  }

  /// `artwork decode HASH -o FILE.png`
  static func decode(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let o = arguments.firstIndex(of: "-o"), o == 1 else {
      printError(help["decode"]!)
      return 2
    }
    let text = arguments[0]
    let path = arguments[2]
    let png: [UInt8]
    do {
      png = ThumbHash.pngData(try ThumbHash.decode(try ThumbHashBase64.decode(text)))
    } catch {
      printError("artwork: \(text) is not a valid ThumbHash: \(error)")
      return 1
    }
    do {
      try writeFileAtomically(path, png)
    } catch {
      printError("artwork: cannot write \(path): \(error.detail)")
      return 1
    }
    return 0
  }

  /// `artwork process FILE --shape poster --size 400 --crop attention --out DIR`
  static func process(_ arguments: [String]) async -> Int32 {
    var fields: [String: String] = [:]
    var file: String?
    var outDirectory: String?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("--") {
        guard index + 1 < arguments.count else {
          printError("artwork: \(argument) needs a value\n\n\(help["process"]!)")
          return 2
        }
        let value = arguments[index + 1]
        switch argument {
        case "--shape", "--size", "--crop": fields[String(argument.dropFirst(2))] = value
        case "--out": outDirectory = value
        default:
          printError("artwork: unknown option \(argument)\n\n\(help["process"]!)")
          return 2
        }
        index += 2
      } else {
        guard file == nil else {
          printError("artwork: process takes one FILE\n\n\(help["process"]!)")
          return 2
        }
        file = argument
        index += 1
      }
    }
    guard let file, let outDirectory else {
      printError(help["process"]!)
      return 2
    }
    Runtime.initialize()
    do {
      let options = try ArtworkOptions(fields: fields)
      let bytes = try readFile(file)
      let processor = ArtworkProcessor(
        pool: BlockingPool<Void>(name: "artwork-img", threads: 1, queueLimit: 1),
        maxSourceBytes: Int.max, maxPixels: ImageLimits.standard.maxPixels)
      let created = try await processor.render(bytes, declaredType: nil, options: options)
      try? FileManager.default.createDirectory(
        atPath: outDirectory, withIntermediateDirectories: true)
      let path = URL(fileURLWithPath: outDirectory).appendingPathComponent(created.key.fileName)
        .path
      try writeFileAtomically(path, created.rendered.bytes)
      let json = ArtworkApp.artworkJSON(
        ArtworkAnswer(created, shape: options.shape), location: path, sourceURL: nil)
      printOut(json.text + "\n")
      return 0
    } catch {
      printError("artwork: \(file): \(error.detail)")
      return 1
    }
  }

  static func readFile(_ path: String) throws(ArtworkError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ArtworkError(.notFound, "cannot read \(path)")
    }
    return [UInt8](data)
  }

  static func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(ArtworkError) {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw ArtworkError(.internal, "cannot write \(path)", internalDetail: "\(error)")
    }
  }
}
