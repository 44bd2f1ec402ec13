import StoreBenchCLI

// The command line lives in the StoreBenchCLI library, so that an outside package can run the
// same commands with its own backends registered (see StoreBenchCLI.main).
StoreBenchCLI.main()
