import Foundation
import StoreFuzzing

#if STOREBENCH_FUZZ
// Built with STOREBENCH_FUZZ and `-sanitize=fuzzer` (Tests/Fuzz/fuzz.sh): no `main` here;
// libFuzzer's own main calls this for each input, on the target STOREBENCH_FUZZ_TARGET names.
private let target: FuzzTarget = {
    guard let name = getenv("STOREBENCH_FUZZ_TARGET").map({ String(cString: $0) }), let t = FuzzTarget(rawValue: name) else {
        fatalError("set STOREBENCH_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do { try target.run(UnsafeRawBufferPointer(start: data, count: size)) } catch { fatalError("\(target): \(error)") }
    return 0
}
#else
/// A normal build: replays inputs through a target without the fuzzer, or writes the seed corpora.
@main
enum StoreBenchFuzz {
    static func main() throws {
        let args = Array(CommandLine.arguments.dropFirst())
        if args.count == 2 && args[0] == "seeds" {
            try FuzzSeeds.write(under: URL(fileURLWithPath: args[1]))
        } else if let first = args.first, let t = FuzzTarget(rawValue: first), args.count > 1 {
            for path in args.dropFirst() {
                do { try t.run([UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) } catch {
                    print("\(path): \(error)")
                    exit(1)
                }
            }
            print("\(t): \(args.count - 1) input(s) pass")
        } else {
            print("usage: storebench-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE...")
            print("       storebench-fuzz seeds DIR")
            exit(64)
        }
    }
}
#endif
