//! The conformance contract: every command on every registered ruleset, one generic suite.
