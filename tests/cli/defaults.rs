//! Every ruleset its own defaults: standard scenarios, sweep and diff without a scenario, wording.
