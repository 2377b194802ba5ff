//! Shellshock: battles of whole forces ([`crate::rules::ruleset::Battles`]).

use super::*;

impl crate::rules::ruleset::Battles for Shellshock {
    type Battle = NoBattle;
}
