import StoreBenchCLI
import StoreBenchModels

// The command line lives in the StoreBenchCLI library, so that an outside package can run the
// same commands with its own backends registered (see StoreBenchCLI.main). The graph suite
// (declared models against string keys and the store) is this executable's own.
StoreBenchCLI.main(suites: [GraphSuite()])
