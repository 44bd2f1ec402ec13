import CountingStore
import StoreBenchCLI

// The whole storebench command line, with CountingStore beside the built-in backends:
//   swift run -c release counting-bench list
//   swift run -c release counting-bench conformance --backend counting+sqlite
//   swift run -c release counting-bench run --backends counting+sqlite,sqlite --workloads 'crud.*'
// Every measured cell is a child process of this executable.
StoreBenchCLI.main(backends: [CountingStore.descriptor])
