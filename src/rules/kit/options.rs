//! One option table for every ruleset (see [`super`]).
