//! Skirmishers: ad-hoc builds and the build space ([`crate::rules::ruleset::Builds`]): a
//! trooper with any primary, secondary, armour and experience (see
//! [`crate::rules::skirmishers::catalogue::space`]).

use super::*;
use crate::catalogue::adhoc::AdHocBuild;
use crate::rules::ruleset::SpaceFilter;
use crate::rules::skirmishers::catalogue::space;

impl crate::rules::ruleset::Builds for Skirmishers {
    const SPACE: &'static str = "trooper × primary × secondary × armour × experience: every trooper card (track, grenades, sneak suit) with every weapon its track may carry as primary (power armour: one for a basic suit, two for standard and heavy), every secondary or none (at least one an arc weapon: duels fire no other), every armour of its track and every experience; PV as printed (UNIT_PV)";

    fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
        space::adhoc_entry(cat, build, name)
    }

    fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
        space::build_space(cat, filter)
    }
}
