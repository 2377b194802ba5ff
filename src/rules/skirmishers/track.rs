//! HP-cell tracks (§3 "Unit Card", "Power Armor"): the state of one unit's card packed in
//! a `u64`, and one hit applied to it.
//!
//! Cells are indexed left to right from 0 (basic: labels 10..0, 11 cells; power armour:
//! 12..2 then the unlabelled (1)..(-5), 18 cells). Each cell takes 2 bits (0 clean,
//! 1 partially crossed, 2 fully crossed); armour cells left sit in bits 48..52. The
//! *column* of a state is the index right of the rightmost fully crossed cell (0 when
//! none is crossed); column == cells is DEAD.

/// Cell marks.
pub const CLEAN: u64 = 0;
pub const PARTIAL: u64 = 1;
pub const FULL: u64 = 2;
const ARMOUR_SHIFT: u32 = 48;

/// Which card a unit uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrackKind {
    /// Basic trooper: HP 10..0, then DEAD (Ruling `ZERO_CELL`: 0 is a cell).
    Basic,
    /// Power armour: HP 12..2, (1)..(-5), then DEAD.
    Power,
}

const BASIC_AP: [i32; 10] = [0, 0, 0, 0, -1, -1, -2, -2, -3, -4];
const BASIC_MODS: [i32; 11] = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3];
const POWER_AP: [i32; 18] = [6, 6, 5, 5, 4, 4, 3, 2, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7];
const POWER_MODS: [i32; 18] = [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3];

impl TrackKind {
    pub fn name(self) -> &'static str {
        match self {
            TrackKind::Basic => "basic",
            TrackKind::Power => "power",
        }
    }
    /// Number of HP cells (DEAD is not a cell).
    pub fn cells(self) -> usize {
        match self {
            TrackKind::Basic => 11,
            TrackKind::Power => 18,
        }
    }
    /// The printed HP of column `col` (`None`: DEAD).
    pub fn hp(self, col: usize) -> Option<i32> {
        (col < self.cells()).then(|| self.top() - col as i32)
    }
    /// HP of the first column (10 or 12).
    pub fn top(self) -> i32 {
        match self {
            TrackKind::Basic => 10,
            TrackKind::Power => 12,
        }
    }
    /// The column of HP `hp`, clamped to the track (values above the top are the top).
    pub fn column_of(self, hp: i32) -> usize {
        (self.top() - hp.min(self.top())).clamp(0, self.cells() as i32) as usize
    }
    /// The AP row entry at column `col` (added to 8 + experience - armour); `None` for
    /// the absolute 0 columns (basic HP 0, DEAD).
    pub fn ap_entry(self, col: usize) -> Option<i32> {
        match self {
            TrackKind::Basic => BASIC_AP.get(col).copied(),
            TrackKind::Power => POWER_AP.get(col).copied(),
        }
    }
    /// The Mods row at column `col`, added to all of this unit's target numbers.
    pub fn mods(self, col: usize) -> i32 {
        match self {
            TrackKind::Basic => BASIC_MODS[col.min(10)],
            TrackKind::Power => POWER_MODS[col.min(17)],
        }
    }
    /// The first cell whose printed value is <= a 2D6 roll (Ruling `INITIAL_CELL_CLAMP`:
    /// 11 and 12 start at basic cell 10).
    fn roll_cell(self, roll: i32) -> usize {
        (self.top() - roll).max(0) as usize
    }
    /// Out of the engagement (Ruling `OUT_CONDITION`): basic HP 0 or DEAD, power DEAD.
    pub fn out_column(self, col: usize) -> bool {
        match self {
            TrackKind::Basic => col >= 10,
            TrackKind::Power => col >= 18,
        }
    }
}

/// One hit's damage as the target takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hit {
    /// Lethal points (X).
    pub lethal: u32,
    /// Bludgeoning points (\\).
    pub blunt: u32,
}

/// The rulings that change how a hit is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marking {
    /// Ruling `ARMOUR_CHECK_AFTER_LETHAL` (true): bludgeoning looks at the armour left
    /// after this attack's lethal part; false: at the armour before the attack.
    pub armour_check_after_lethal: bool,
    /// Ruling `BLUNT_SKIPS_FULL` (true): bludgeoning skips fully crossed cells; false: a
    /// point landing on a full cell is spent there.
    pub blunt_skips_full: bool,
    /// Ruling `CURRENT_HP_RIGHTMOST` (true): the column right of the rightmost full
    /// cell; false: right of the leftmost ("highest") one.
    pub rightmost: bool,
}

impl Default for Marking {
    fn default() -> Self {
        Marking { armour_check_after_lethal: true, blunt_skips_full: true, rightmost: true }
    }
}

/// A fresh card with `armour` armour cells.
pub fn fresh(armour: u32) -> u64 {
    (armour as u64) << ARMOUR_SHIFT
}

/// Armour cells left.
pub fn armour(s: u64) -> u32 {
    ((s >> ARMOUR_SHIFT) & 0xF) as u32
}

/// The mark of cell `i`.
pub fn cell(s: u64, i: usize) -> u64 {
    (s >> (2 * i)) & 3
}

fn set(s: u64, i: usize, mark: u64) -> u64 {
    (s & !(3 << (2 * i))) | (mark << (2 * i))
}

/// The current column (see the module documentation).
pub fn column(kind: TrackKind, s: u64, m: &Marking) -> usize {
    let mut full = (0..kind.cells()).filter(|&i| cell(s, i) == FULL);
    let c = if m.rightmost { full.next_back() } else { full.next() };
    c.map_or(0, |i| i + 1)
}

/// Apply one successful attack whose initial-cell roll is `roll` (2..=12), in the order
/// of §3: armour soaks lethal points, the rest fully crosses cells from the initial cell
/// rightwards (skipping full cells; points past the last cell are lost); bludgeoning
/// (basic track only, none while armour is left) partially crosses cells from the cell
/// after the last one crossed (or the initial cell, Ruling `BLUNT_START`).
pub fn apply(kind: TrackKind, s: u64, hit: Hit, roll: i32, m: &Marking) -> u64 {
    let n = kind.cells();
    let before = armour(s);
    let soak = before.min(hit.lethal);
    let left_armour = before - soak;
    let mut s = (s & !(0xF << ARMOUR_SHIFT)) | ((left_armour as u64) << ARMOUR_SHIFT);
    let start = (kind.roll_cell(roll)..n).find(|&i| cell(s, i) != FULL).unwrap_or(n);
    let mut last = None;
    let mut left = hit.lethal - soak;
    let mut i = start;
    while left > 0 && i < n {
        if cell(s, i) != FULL {
            s = set(s, i, FULL);
            left -= 1;
            last = Some(i);
        }
        i += 1;
    }
    let seen = if m.armour_check_after_lethal { left_armour } else { before };
    if hit.blunt > 0 && kind == TrackKind::Basic && seen == 0 {
        let mut i = last.map_or(start, |l| l + 1);
        let mut left = hit.blunt;
        while left > 0 && i < n {
            match cell(s, i) {
                FULL => {
                    if !m.blunt_skips_full {
                        left -= 1;
                    }
                }
                PARTIAL => {
                    s = set(s, i, FULL);
                    left -= 1;
                }
                _ => {
                    s = set(s, i, PARTIAL);
                    left -= 1;
                }
            }
            i += 1;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic_with(full: &[i32], partial: &[i32]) -> u64 {
        let mut s = fresh(0);
        for &hp in full {
            s = set(s, (10 - hp) as usize, FULL);
        }
        for &hp in partial {
            s = set(s, (10 - hp) as usize, PARTIAL);
        }
        s
    }

    /// §6 (*): 9, 7, 6 full and 5 partial: HP 5; a regular has 7 AP and +2.
    #[test]
    fn book_example_basic_card() {
        let k = TrackKind::Basic;
        let s = basic_with(&[9, 7, 6], &[5]);
        let col = column(k, s, &Marking::default());
        assert_eq!(k.hp(col), Some(5));
        assert_eq!(8 + k.ap_entry(col).unwrap(), 7);
        assert_eq!(k.mods(col), 2);
    }

    /// §6 (*): power armour with 10, 9, 6 crossed: HP 5, 10 AP, +1.
    #[test]
    fn book_example_power_card() {
        let k = TrackKind::Power;
        let mut s = fresh(0);
        for hp in [10, 9, 6] {
            s = set(s, (12 - hp) as usize, FULL);
        }
        let col = column(k, s, &Marking::default());
        assert_eq!(k.hp(col), Some(5));
        assert_eq!(8 + k.ap_entry(col).unwrap(), 10);
        assert_eq!(k.mods(col), 1);
        // CURRENT_HP_RIGHTMOST off reads the highest crossed cell instead.
        let highest = Marking { rightmost: false, ..Marking::default() };
        assert_eq!(k.hp(column(k, s, &highest)), Some(9));
    }

    /// §6 (*): stun baton (8\) at cell 7 on a fresh trooper: HP stays 10; then at 9: HP 1.
    #[test]
    fn stun_baton_partial_then_full() {
        let k = TrackKind::Basic;
        let m = Marking::default();
        let baton = Hit { lethal: 0, blunt: 8 };
        let s = apply(k, fresh(0), baton, 7, &m);
        assert_eq!(k.hp(column(k, s, &m)), Some(10));
        assert_eq!((0..11).filter(|&i| cell(s, i) == PARTIAL).count(), 8);
        let s = apply(k, s, baton, 9, &m);
        assert_eq!(k.hp(column(k, s, &m)), Some(1));
    }

    /// §6 (*): standard armour (4) against a rifle hit: armour 0, HP 10.
    #[test]
    fn armour_soaks_a_rifle_hit() {
        let k = TrackKind::Basic;
        let m = Marking::default();
        for roll in 2..=12 {
            let s = apply(k, fresh(4), Hit { lethal: 4, blunt: 0 }, roll, &m);
            assert_eq!(armour(s), 0);
            assert_eq!(k.hp(column(k, s, &m)), Some(10));
        }
    }

    #[test]
    fn bludgeoning_waits_for_the_armour_and_starts_after_the_lethal_run() {
        let k = TrackKind::Basic;
        let m = Marking::default();
        let club = Hit { lethal: 1, blunt: 4 };
        // Armour 1 soaks the lethal point and is gone: bludgeoning starts at the roll.
        let s = apply(k, fresh(1), club, 8, &m);
        assert_eq!((2..6).map(|i| cell(s, i)).collect::<Vec<_>>(), vec![PARTIAL; 4]);
        // Looking at the armour before the attack ignores it instead.
        let before = Marking { armour_check_after_lethal: false, ..m };
        assert_eq!(apply(k, fresh(1), club, 8, &before), fresh(0));
        // Unarmoured: cell 8 full, cells 7..4 partial.
        let s = apply(k, fresh(0), club, 8, &m);
        assert_eq!(cell(s, 2), FULL);
        assert_eq!((3..7).map(|i| cell(s, i)).collect::<Vec<_>>(), vec![PARTIAL; 4]);
        // Power armour ignores bludgeoning.
        let p = apply(TrackKind::Power, fresh(0), Hit { lethal: 0, blunt: 9 }, 7, &m);
        assert_eq!(p, fresh(0));
    }

    #[test]
    fn damage_past_the_last_cell_is_lost_and_dead_is_the_last_column() {
        let k = TrackKind::Basic;
        let m = Marking::default();
        let s = apply(k, fresh(0), Hit { lethal: 10, blunt: 0 }, 3, &m);
        assert_eq!(column(k, s, &m), 11);
        assert_eq!(k.hp(11), None);
        assert!(k.out_column(10) && k.out_column(11) && !k.out_column(9));
    }
}
