//! Catalogue selectors, the same on the command line and in scenarios (see [`super`]).
