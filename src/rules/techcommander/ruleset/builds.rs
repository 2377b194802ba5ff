//! TechCommander: ad-hoc builds and the build space ([`crate::rules::ruleset::Builds`]):
//! a unit with any multiset of weapons and gear (see [`crate::rules::techcommander::catalogue::space`]).

use super::*;
use crate::catalogue::adhoc::AdHocBuild;
use crate::rules::ruleset::SpaceFilter;
use crate::rules::techcommander::catalogue::space;

impl crate::rules::ruleset::Builds for TechCommander {
    const SPACE: &'static str = "every unit with every multiset of the weapons its kind carries and every set of gear, within its free weight and power, the MSV class limits and the link limit (extra copies are systems of their own)";

    fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
        space::adhoc_entry(cat, build, name)
    }

    fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
        space::build_space(cat, filter)
    }
}
