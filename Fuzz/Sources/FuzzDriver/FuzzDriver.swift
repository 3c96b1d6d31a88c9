// Starts libFuzzer from a target's `main`.
//
// The build instruments code with the frontend's `-sanitize=fuzzer` and links libFuzzer's
// no-main runtime (see run.sh), so that Courier's macro plugin, an executable with a `main` of its
// own, links too. Each target's `main` therefore hands its `LLVMFuzzerTestOneInput` to libFuzzer
// through `LLVMFuzzerRunDriver`, which takes the usual libFuzzer command line.
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

/// Runs libFuzzer with this process's arguments on `testOneInput`, and exits with its status.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
