//! MECHCOM: ad-hoc builds and the build space ([`crate::rules::ruleset::Builds`]): not
//! available yet, so `search` and `NAME[PART, ...]` names say so.

use super::*;

impl crate::rules::ruleset::Builds for Mechcom {}
