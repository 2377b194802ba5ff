//! One name matcher for every ruleset (see [`super`]).
