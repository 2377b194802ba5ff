//! TechCommander against its rulebooks: each contradiction fixed, with a test that failed before.
