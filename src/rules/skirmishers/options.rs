//! Every Ruling and switch of `shared/rules/skirmishers.md` as a named option with its
//! documented default. Options the engagements play take other values; book readings
//! the kernels rely on without an alternative are listed with their one value (so they
//! appear in manifests and cell keys), and advanced rules the engagements do not play
//! are switches that [`Options::validate`] refuses to turn on.

use crate::rules::kit::options::{self as kit, Pick, Value};

crate::rule_options! {
    "Skirmishers";
    /// The options' values. An option marked `fixed` is a book reading the kernels rely
    /// on (true only) or an advanced rule they do not play (false only): its other value
    /// is read, and refused by [`Options::validate`].
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Options {
        no_automatic_result: bool = true, switch, "§1: no natural 2/12 rule, TN <= 2 always and TN >= 13 never succeeds (off: a natural 2 fails, a 12 succeeds)";
        scatter_dots: i64 = 1, int(0, 3), "§3 Explosives: dots a missed explosive scatters; the aimed-at trooper then takes that ring";
        initial_cell_clamp: bool = true, switch, "§3: the initial cell is the first not-fully-crossed cell at or right of the roll (11-12 start at basic cell 10)", fixed;
        armour_check_after_lethal: bool = true, switch, "§3: bludgeoning looks at the armour left after the same attack's lethal part (off: before the attack)";
        blunt_start: bool = true, switch, "§3: bludgeoning starts after the last cell lethal crossed, or at the initial cell (also when armour soaked all of it)", fixed;
        blunt_skips_full: bool = true, switch, "§3: bludgeoning skips fully crossed cells (off: a point on a full cell is spent there)";
        current_hp_rightmost: bool = true, switch, "§3: current HP is the column right of the rightmost full cell (off: of the leftmost, the power-armour text's 'highest')";
        prone_when_spent: bool = true, switch, "§3: a hit unit drops prone when AP already spent >= its new max AP (stationary engagements spend none)", fixed;
        zero_cell: bool = true, switch, "§3: the basic 0 column is a cell: crossing 1 gives HP 0, crossing 0 gives DEAD", fixed;
        out_condition: bool = true, switch, "§3: out at basic HP 0 or DEAD, power armour DEAD", fixed;
        out_when_cannot_attack: bool = false, switch, "§3: also out when the unit's max AP cannot pay its cheapest attack";
        ap_floor: bool = true, switch, "§3: AP never below 0; absolute 0 columns stay 0", fixed;
        advanced_armour_per_point: bool = true, switch, "§3 advanced body armour: each lethal point marks a protected armour cell one step (with ADVANCED_BODY_ARMOR)", fixed;
        pa_knockdown: i64 = 9, int(1, 99), "§3 Power Armor: bludgeoning points in one turn that knock power armour prone (not played: stationary engagements)";
        blast_roll_each: bool = true, switch, "§3 Explosives: every trooper a blast catches rolls its own initial cell (squad fights: one draw per trooper caught)", fixed;
        incendiary_miss_no_effect: bool = true, switch, "§3: a failed incendiary roll does nothing (off: it scatters like an explosive)";
        fire_persists: bool = true, switch, "§3: fire lasts the whole engagement", fixed;
        intervening_trooper_cover: bool = true, switch, "§2: an intervening trooper gives +1 cover (count it in --obstructions)", fixed;
        cover_skips_firer_adjacent: bool = true, switch, "§2 Resolving Fire: obstructions between the firer and its adjacent dots give no cover: none at range 1, and --obstructions counts the others (off: every obstruction counts, also at range 1)";
        smoke_replaces_cover: bool = true, switch, "§2: a smoke dot counts +3, not +4 (off: +3 on top of its +1 obstruction)";
        sneak_suit_stacks: bool = true, switch, "§2: a sneak suit's +1 adds to the long-range +2 (off: no extra)";
        range_bands: bool = true, switch, "§2: no attack beyond Long; melee needs range 1; a throw reaches as far as the AP paid", fixed;
        round: bool = true, switch, "§4: the engine's turn is a round (both sides' turns)", fixed;
        first_side: Pick = Pick("random"), choice("random", "a", "b"), "§4: which side of a duel moves first (random: the exact duel averages both orders)";
        one_attack_per_trigger: bool = true, switch, "§4: a firer attacks a given enemy once per trigger", fixed;
        volley: bool = false, switch, "§4: spend all of an arc's remaining shots on one trigger (burst arcs still fire once)";
        one_arc_per_trooper: bool = true, switch, "§4: one active weapon and one arc a trooper; power armour one arc per weapon", fixed;
        crew_column: bool = true, switch, "§4: the crew table's AP Cost column holds the crew values", fixed;
        crew_arc_ap: i64 = 4, int(0, 8), "§4: AP to re-pay a crew weapon's 60 degree arc each turn";
        movement_fire_limit: bool = true, switch, "§4: movement fire once a turn, burst weapons while AP lasts", fixed;
        fists_round_down: bool = true, switch, "§4 Melee: fists deal max AP / 2 rounded down (off: up)";
        morale_timing: bool = true, switch, "§4: morale checked at the start of the side's turn; failing, no action", fixed;
        morale_counts_out: bool = true, switch, "§4: troopers at HP 0 count as dead for morale", fixed;
        damage_mods_all_checks: bool = true, switch, "§4: Mods apply to morale and control checks too", fixed;
        squad_policy: bool = true, switch, "§4: roster order, widest arc, always fire, primary if in range (squad fights)", fixed;
        squad_budget: i64 = 0, int(0, 1_000_000), "§4 squad fight: PV budget; a one-kind force fields floor(budget / unit PV) troopers, a mixed one must fit (0: forces as written)";
        squad_pv_tolerance: i64 = 10, int(0, 100), "§4 squad fight (Ruling SQUAD_EQUAL_PV): forces whose PVs differ by more than this percent of the larger are refused";
        squad_max_rounds: i64 = 50, int(1, 10_000), "§4 squad fight: round cap (unless --max-turns gives one)";
        squad_cap_result: Pick = Pick("draw"), choice("draw", "undecided"), "§4 squad fight: how a fight still on at the round cap is called (the doc: a draw)";
        grenades: bool = true, switch, "§4 squad fight, §3 Explosives: troopers throw their hand grenades and thrown explosives (satchel charges), 3 AP to ready + 1 AP a dot (satchel 2), TN = the throw's AP, no arc that turn, ammunition counted (4 grenades = 4 throws), resolved at the end of the side's turn; every enemy in the blast takes its ring and rolls its own cell (off: never thrown)";
        squad_throw: Pick = Pick("better"), choice("better", "always"), "§4 squad fight (with GRENADES): better: a trooper throws when the blast's expected number of enemies put out beats its arc's; always: whenever a throw is in reach";
        squad_spacing: i64 = 2, int(1, 20), "§4 squad fight geometry (the book gives none): each side stands in a line on the hex dots, neighbours this many dots apart (2 = 5 m), the lines --range dots apart; a blast d dots from a trooper deals it ring d";
        fists_and_bayonet: bool = true, switch, "§4 Melee, squad fight at range 1: every trooper has its fists and a bayonet/knife (attached to a rifle or SMG), power armour its fists (1X plus (max AP/2) bludgeoning); a trooper may set narrower arcs and keep 5 AP for a melee attack with its bayonet (basic, active weapon a primary), fists (basic, other weapons) or power-armour fists, when that puts out more enemies in expectation (off: arcs only)";
        squad_opening: Pick = Pick("contact"), choice("contact", "cold"), "§4 squad fight: contact: every trooper starts with its arcs set, as at the end of an earlier turn (the book's play: arcs are set at the end of each activation while the sides close); cold: no arc, the side moving first takes no fire in its first turn";
        launchers: bool = true, switch, "§4 squad fight, Advanced Explosives: launchers (advanced explosive and incendiary ranged weapons, power-armour flamethrower and anti-tank missile) are fired as the book's explosives: TN 6 (+2 long) + Mods + cover + smoke, their AP Cost (3 AP more to make the launcher active unless it is the first primary, a grenade launcher under a rifle or SMG, or power armour's: Ruling LAUNCHER_READY), ammunition counted, resolved at the end of the side's turn with scatter and rings (incendiaries do not scatter), no arc that turn (power armour pays its other arcs with the AP left), chosen by SQUAD_THROW (off: never fired)";
        launcher_ready: bool = true, switch, "§4 squad fight, LAUNCHERS: a launcher costs 3 AP more to make it the active weapon (\"It costs 3 AP to change active weapons, including to change to an explosive\"), except the first primary, a grenade launcher under a rifle or SMG and power armour's weapons", fixed;
        knife_not_drawn: bool = true, switch, "§4 Melee, squad fight at range 1: the combat knife is not drawn as an active weapon (3 AP to change + 5 AP to strike, and 3 AP back: the squad fight keeps no active weapon from turn to turn, and the book gives no rule for putting it away); a trooper without a bayonet strikes with its fists", fixed;
        card_ap_field: bool = true, switch, "§5: the card's weapon AP box is the Shots multiplier for arc weapons, else the AP cost", fixed;
        secondary_optional: bool = true, switch, "§5: the secondary weapon is optional", fixed;
        unit_pv: bool = true, switch, "§5: unit PV = printed PVs of what it carries (44 per 4 hand grenades); the rest 0 unless given", fixed;
        satchel_cost: bool = true, switch, "§5: a flat satchel throw costs 2 AP per dot (3 = stairs/ladders)", fixed;
        pa_flame_atm: bool = true, switch, "§5: power-armour flamethrower and ATM fire in the activation, resolve at the end of the turn", fixed;
        vehicle_mods: bool = true, switch, "§5: movement fire uses the rider's Mods only", fixed;
        wipeout_lethal: bool = true, switch, "§5: wipe-out damage is lethal", fixed;
        movement_fire: bool = false, switch, "Advanced Mobility switch: the attacker fires movement-fire shots (2 AP, +2 TN) in its own turn";
        advanced_body_armor: bool = false, switch, "Advanced Combat switch: armour protects chosen cells (needs protected cells on the card: not played)", fixed;
        morale: bool = false, switch, "Advanced Combat switch (optional, so off): morale checks in squad fights, once 4 or more of a side are out: 2D6 >= experience TN (9/7/5/2) + dead - 4 - the leader's leadership if it lives + Mods, at the start of the side's turn; failing, no action that turn (a duel or attack run never has 4 dead)";
        squad_leadership: i64 = 2, int(0, 12), "Advanced Combat Morale Checks: the squad leader's leadership (the book's standard 2); the leader is the side's first trooper in roster order";
        advanced_terrain: bool = false, switch, "Advanced Mobility switch: the terrain conditions --entangled (+1 TN), --tunnel (+2) and --target-swimming (+1)";
        fire: bool = false, switch, "Advanced Combat switch: burning dots (not played)", fixed;
        jet_packs: bool = false, switch, "Advanced Mobility switch: jet packs (not played)", fixed;
        vehicles: bool = false, switch, "Advanced Mobility switch: vehicles (not played)", fixed;
    }
}

impl Options {
    /// A switch's value (`name` must be listed).
    pub fn on(&self, name: &str) -> bool {
        kit::get(self, name) == Value::Switch(true)
    }
    /// A number option's value (`name` must be listed).
    pub fn int(&self, name: &str) -> i64 {
        match kit::get(self, name) {
            Value::Int(n) => n,
            v => panic!("{name} is not a number option: {v}"),
        }
    }
    /// A choice option's value (`name` must be listed).
    pub fn choice(&self, name: &str) -> &'static str {
        match kit::get(self, name) {
            Value::Choice(c) => c,
            v => panic!("{name} is not a choice option: {v}"),
        }
    }
    /// The marking rulings of §3.
    pub fn marking(&self) -> super::track::Marking {
        super::track::Marking {
            armour_check_after_lethal: self.armour_check_after_lethal,
            blunt_skips_full: self.blunt_skips_full,
            rightmost: self.current_hp_rightmost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruling_of_the_rules_document_is_an_option() {
        for name in [
            "NO_AUTOMATIC_RESULT",
            "SCATTER_DOTS",
            "INITIAL_CELL_CLAMP",
            "ARMOUR_CHECK_AFTER_LETHAL",
            "BLUNT_START",
            "BLUNT_SKIPS_FULL",
            "CURRENT_HP_RIGHTMOST",
            "PRONE_WHEN_SPENT",
            "ZERO_CELL",
            "OUT_CONDITION",
            "OUT_WHEN_CANNOT_ATTACK",
            "AP_FLOOR",
            "ADVANCED_ARMOUR_PER_POINT",
            "PA_KNOCKDOWN",
            "BLAST_ROLL_EACH",
            "INCENDIARY_MISS_NO_EFFECT",
            "FIRE_PERSISTS",
            "INTERVENING_TROOPER_COVER",
            "SMOKE_REPLACES_COVER",
            "SNEAK_SUIT_STACKS",
            "RANGE_BANDS",
            "ROUND",
            "FIRST_SIDE",
            "ONE_ATTACK_PER_TRIGGER",
            "VOLLEY",
            "ONE_ARC_PER_TROOPER",
            "CREW_COLUMN",
            "CREW_ARC_AP",
            "MOVEMENT_FIRE_LIMIT",
            "FISTS_ROUND_DOWN",
            "MORALE_TIMING",
            "MORALE_COUNTS_OUT",
            "DAMAGE_MODS_ALL_CHECKS",
            "SQUAD_POLICY",
            "CARD_AP_FIELD",
            "SECONDARY_OPTIONAL",
            "UNIT_PV",
            "SATCHEL_COST",
            "PA_FLAME_ATM",
            "VEHICLE_MODS",
            "WIPEOUT_LETHAL",
            "ADVANCED_BODY_ARMOR",
            "GRENADES",
            "SQUAD_THROW",
            "SQUAD_SPACING",
            "FISTS_AND_BAYONET",
            "MORALE",
            "SQUAD_LEADERSHIP",
            "LAUNCHERS",
            "LAUNCHER_READY",
            "KNIFE_NOT_DRAWN",
        ] {
            assert!(kit::index::<Options>(name).is_ok(), "{name}");
        }
        let o = Options::default();
        assert!(o.validate().is_ok());
        assert!(!o.on("MOVEMENT_FIRE") && !o.on("ADVANCED_BODY_ARMOR") && !o.on("VOLLEY"));
        assert_eq!(o.int("SCATTER_DOTS"), 1);
        assert!(o.on("GRENADES") && o.on("BLAST_ROLL_EACH"));
        assert_eq!((o.choice("SQUAD_THROW"), o.int("SQUAD_SPACING")), ("better", 2));
    }

    #[test]
    fn values_are_checked_and_unplayed_switches_refused() {
        let mut o = Options::default();
        assert!(o.set("SCATTER_DOTS", "9").is_err());
        assert!(o.set("FIRST_SIDE", "c").is_err());
        assert!(o.set("NO_SUCH", "on").unwrap_err().to_string().contains("unknown"));
        o.set("fire", "on").unwrap();
        assert!(o.validate().unwrap_err().to_string().contains("FIRE=true"));
        let mut o = Options::default();
        o.set("ZERO_CELL", "off").unwrap();
        assert!(o.validate().is_err());
    }
}
