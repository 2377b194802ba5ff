//! Shellshock: ad-hoc builds and the build space ([`crate::rules::ruleset::Builds`]): a
//! unit with its gunners' Gunnery levels (see [`crate::rules::shellshock::space`]).

use super::*;
use crate::catalogue::adhoc::AdHocBuild;
use crate::rules::ruleset::SpaceFilter;
use crate::rules::shellshock::space;

impl crate::rules::ruleset::Builds for Shellshock {
    const SPACE: &'static str = "every unit with every Gunnery level the catalogue's [[crew]] table prices, one level per gunner (a gunner whose card level has no price keeps it; piloting stays the card's)";

    fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
        space::adhoc_entry(cat, build, name)
    }

    fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
        space::build_space(cat, filter)
    }
}
