//! The rulebook's MSV classes table (TechCommander 3rd ed., "MSV classes").

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

/// LIGHT 3/30/15/30, MEDIUM 4/40/20/40, HEAVY 5/50/25/50, ULTRA HEAVY 6/60/30/60.
///
/// Ruling: an MSV's AC must be one of these classes (3 to 6); the 2nd edition's mention of
/// AC2 mechs has no class row, so the catalogue rejects it.
pub const MSV_CLASSES: [MsvClass; 4] = [
    MsvClass { name: "LIGHT", ac: 3, total_weight: 30.0, gear_weight: 15.0, power: 30.0 },
    MsvClass { name: "MEDIUM", ac: 4, total_weight: 40.0, gear_weight: 20.0, power: 40.0 },
    MsvClass { name: "HEAVY", ac: 5, total_weight: 50.0, gear_weight: 25.0, power: 50.0 },
    MsvClass { name: "ULTRA HEAVY", ac: 6, total_weight: 60.0, gear_weight: 30.0, power: 60.0 },
];

/// The class of an MSV of armor class `ac`, if there is one.
pub fn msv_class(ac: u32) -> Option<&'static MsvClass> {
    MSV_CLASSES.iter().find(|c| c.ac == ac)
}
