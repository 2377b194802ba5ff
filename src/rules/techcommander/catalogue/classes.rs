//! The rulebooks' MSV classes table (TechCommander 3rd ed., "MSV classes"; the 2nd
//! edition prints the same four rows), and the 2nd edition's AC2 MSV.

/// One MSV weight class. Weights in tons.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MsvClass {
    pub name: &'static str,
    pub ac: u32,
    pub total_weight: f64,
    /// The most weapons and gear (standard and swappable) a chassis of this class may carry.
    pub gear_weight: f64,
    pub power: f64,
}

/// AC2 (2nd edition) 2/20/10/20, LIGHT 3/30/15/30, MEDIUM 4/40/20/40, HEAVY 5/50/25/50,
/// ULTRA HEAVY 6/60/30/60.
///
/// The 2nd edition says an MSV "might be anywhere from AC2 to AC6" but its class table has
/// no AC2 row; its "Equipping MSV units" gives the rule the rows follow ("the total weight
/// of an MSV is equal to AC X 10 and the max gear weight is equal to half that amount.
/// The power limit on MSVs is equal to AC X 10"), so the AC2 row is that rule: total
/// weight 20, gear weight 10, power 20. The catalogue accepts an MSV of AC 2 to 6, loaded
/// before the options are known; an AC2 MSV plays only under `EDITION=2`
/// ([`crate::rules::techcommander::edition::check_unit`]).
pub const MSV_CLASSES: [MsvClass; 5] = [
    MsvClass { name: "AC2 (2nd edition)", ac: 2, total_weight: 20.0, gear_weight: 10.0, power: 20.0 },
    MsvClass { name: "LIGHT", ac: 3, total_weight: 30.0, gear_weight: 15.0, power: 30.0 },
    MsvClass { name: "MEDIUM", ac: 4, total_weight: 40.0, gear_weight: 20.0, power: 40.0 },
    MsvClass { name: "HEAVY", ac: 5, total_weight: 50.0, gear_weight: 25.0, power: 50.0 },
    MsvClass { name: "ULTRA HEAVY", ac: 6, total_weight: 60.0, gear_weight: 30.0, power: 60.0 },
];

/// The class of an MSV of armor class `ac`, if there is one.
pub fn msv_class(ac: u32) -> Option<&'static MsvClass> {
    MSV_CLASSES.iter().find(|c| c.ac == ac)
}
