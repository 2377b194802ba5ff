//! Options: one value syntax for every ruleset, echoed in headers, refused where unused.
