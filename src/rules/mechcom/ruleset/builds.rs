//! MECHCOM: ad-hoc builds and the build space ([`crate::rules::ruleset::Builds`]): a
//! mech with at most one pilot and one profile (see
//! [`crate::rules::mechcom::catalogue::space`]).

use super::*;
use crate::catalogue::adhoc::AdHocBuild;
use crate::rules::mechcom::catalogue::space;
use crate::rules::ruleset::SpaceFilter;

impl crate::rules::ruleset::Builds for Mechcom {
    const SPACE: &'static str = "every mech with a faction, with no pilot or each pilot that may fly it (faction, `mechs`), in each of its profiles (BASE first); cost = mech + pilot + profile, as squads count it";

    fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
        space::adhoc_entry(cat, build, name)
    }

    fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
        space::build_space(cat, filter)
    }
}
