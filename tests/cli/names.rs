//! Names and selectors: one matcher and the same selectors on the command line and in scenarios.
