//! Every ruling of `shared/rules/techcommander.md`, and the modifiers a designer may want
//! to vary, as a runtime option with its documented default, so a run can record and
//! switch them (manifest, cell key).
//!
//! Declared once on the kit's option table ([`crate::rule_options!`]): field names are
//! the options' names in lower case; [`Options::pairs`] gives the canonical `NAME=value`
//! pairs (UPPER_SNAKE names, as the rules document spells its rulings) for manifests
//! and cell keys, [`Options::set`] switches one, and the table's help lines are what
//! `volley rulesets` lists. Every option is
//! consulted: the constructors (`shot`, `system_odds`, `all_odds`, `AttackRun::new`,
//! `Duel::new`) compile them into target numbers, action tables and a duel's jury-rig
//! thresholds once, so the hot loops never read an option per shot.
//!
//! Penalties are magnitudes (a penalty of 2 subtracts 2 from the target number); bonuses
//! add. Book numbers no designer varies (the d20, base 10, 20 life, actions per turn)
//! stay constants in [`super::rulings`].

/// The editions `EDITION` takes.
pub const EDITIONS: [u32; 2] = [3, 2];

/// Largest penalty or bonus an option accepts: far beyond any d20 roll, small enough
/// that no sum of modifiers overflows.
pub const MAX_MODIFIER: u32 = 100;

/// Which cover bands give which penalty (§2, ruling on cover).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CoverBands {
    /// The 3rd edition's "Cover Modifiers" section and the 2nd-edition chart: minor,
    /// half and heavy cover take their own penalties (default).
    CoverModifiers,
    /// The 3rd edition's bullet list under "How to attack", which shifts the bands by
    /// one: minor cover takes the half-cover penalty, half cover the heavy-cover one,
    /// and heavy cover (over 75%) counts as blocked (no shot unless NLOS, then the
    /// blocked penalty).
    HowToAttack,
}

impl CoverBands {
    /// Every reading, default first.
    pub const ALL: [CoverBands; 2] = [CoverBands::CoverModifiers, CoverBands::HowToAttack];
}

/// How "AC × d20" damage of a ram, overrun or trample is rolled (§4 `DAMAGE_DICE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DamageDice {
    /// One d20 multiplied by the AC: trample's "(Attacker AC) x (D20 damage roll)"
    /// (default).
    OneD20TimesAc,
    /// AC d20s added up, as collapses read "number of D20's".
    AcD20s,
}

/// Which way a half is rounded (§4 `RAM_SELF_ROUND`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rounding {
    Up,
    Down,
}

/// Which modifiers a ram or death from above adds to its target number (§4
/// `CLOSE_MODIFIERS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CloseModifiers {
    /// Size, the action's listed bonus or penalty and the defender's statuses only
    /// (default): the actions list their full modifiers.
    Listed,
    /// Also the attacker's own to-hit bonuses (unit and gear, e.g. Wet Wire Jacks) and
    /// faction fire control (Wetwire, Combined Arms) where fire control applies.
    WithAttackerBonuses,
}

/// When a ram or death from above counts as made "in smoke" (§4 `SMOKE_CLOSE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SmokeClose {
    /// Whenever the scenario has smoke (`smoke` or `designated`): the attacker ends
    /// adjacent, inside the same cloud (default).
    ScenarioSmoke,
    /// Never: "smoke does not affect close combat".
    Ignored,
}

/// Which AC multiplies death from above's 20 (§4 `DFA_AC_SOURCE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcSource {
    /// The attacker's AC (default, kept from the kernel).
    Attacker,
    /// The target's AC: every hit is lethal.
    Target,
}

/// Whether damage reduction (armour) applies to a special attack's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Armour {
    Applies,
    Ignored,
}

/// Who dodges an overrun or trample (§4 `DODGE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dodge {
    /// Every target dodges, except a prone one (default: a dodge costs nothing). No
    /// condition makes a target prone yet (2nd-edition stances are not modelled).
    AlwaysExceptProne,
    /// Nobody dodges: every overrun and trample hits.
    Never,
}

/// What happens to an aerial unit in the red (`AERIAL_IN_THE_RED`; 2nd edition "Aerial
/// Vehicles, VTOLs and UAVs": "must immediately land, if they cannot land, they are
/// eliminated"; `AERIAL_RULES` applies it under both editions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AerialInTheRed {
    /// Eliminated as soon as it is in the red (default): the battles have no map, so no
    /// landing spot can be shown, and the book's fallback applies.
    Eliminated,
    /// It lands and stays in play, in the red (under fixed geometry landing changes
    /// nothing else): the rule's other branch, for a battlefield with room to land.
    Lands,
}

/// Which players reroll a tied initiative roll (`INITIATIVE_TIES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InitiativeTies {
    /// Only the tied players reroll among themselves (default: "reroll ties").
    Tied,
    /// Every player rerolls.
    All,
}

/// What escaped crew do (`CREW_SURVIVORS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CrewSurvivors {
    /// They leave the game, score nothing and do not count for elimination (default).
    Evacuate,
    /// They stay as AC1 crew units (20 life, no power armour, unarmed: the books give
    /// the 2nd edition's handgun no stats) and count for elimination.
    Fight,
}

/// Both sides eliminated at the same Resolve Damage (`MUTUAL_ELIMINATION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MutualElimination {
    /// A draw: neither side controls the field (default).
    Draw,
    /// The AC score of destroyed enemies decides, as when time is called.
    Score,
}

/// What a deathmatch player does with kill chips (`DM_PERKS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DmPerks {
    /// Hand them in for +1 cap each until the maximum, then keep them (default).
    CapFirst,
    /// Never spend them.
    Hold,
}

/// How a deathmatch with equal points ends (`DM_TIEBREAK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DmTiebreak {
    /// Most kills wins; still equal: shared (default).
    Kills,
    /// Shared at once.
    Shared,
}

/// A policy weight: a finite number from 0 to [`MAX_MODIFIER`], compared and hashed by
/// value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weight(pub f64);

impl Eq for Weight {}

impl std::hash::Hash for Weight {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state)
    }
}

crate::rule_options! {
    "TechCommander";
    /// The rulings TechCommander is played by. `Options::default()` is the documented
    /// reading; every published number was computed with it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct Options {
        /// §5 `EDITION`: the rulebook played, 3 (3rd edition, the default) or 2 (2nd
        /// edition core rules); any other value is refused by [`Options::validate`]. Under 2
        /// the 2nd edition's rows of `techcommander-battles.md` §5 apply: faction training
        /// (with `FACTION_TRAINING` on), infantry stances (with `STANCES` on), a scan number
        /// per unit (`edition::scan_target`), the adjacent gap of 2
        /// (`edition::adjacent_gap`) and AC2 MSVs (`edition::check_unit`).
        edition: u32 = 3, int(2, 3), "§5 rulebook edition: 3 (3rd, default) or 2 (2nd: faction training, stances, scans, AC2 MSVs)";
        /// §5 `STANCES`: the 2nd edition's optional infantry stances, under `EDITION=2` only
        /// (off by default: optional in the book). On: a stationary troop or crew attacker
        /// is prone and adds `PRONE_BONUS` to its own ranged attacks (not fire control, so
        /// it holds when fire control is lost).
        stances: bool = false, switch, "§5 2nd-edition infantry stances (EDITION=2 only): stationary troops and crew are prone";
        /// §5 `PRONE_BONUS`: a prone troop's bonus to its own ranged attacks (+1).
        prone_bonus: u32 = 1, int(0, MAX_MODIFIER), "§5 bonus of a prone troop or crew to its own ranged attacks (not fire control)";
        /// §5 `MONEYSHOT_BONUS`: Mercenary *Moneyshot* (2nd-edition faction training) adds
        /// this to a shot when, with every shot of the action hitting, the life lost would
        /// reach the target's current life (ruling `MONEYSHOT`) (+2).
        moneyshot_bonus: u32 = 2, int(0, MAX_MODIFIER), "§5 Mercenary Moneyshot bonus when all shots hitting would eliminate the target";
        /// §1 `NO_AUTOMATIC_HIT_OR_MISS`: a target number of 20 or more always hits, 0 or
        /// less never does: P(hit) = clamp(T, 0, 20) / 20. Off: a natural 1 always hits and
        /// a natural 20 always misses: P(hit) = clamp(T, 1, 19) / 20.
        no_automatic_hit_or_miss: bool = true, switch, "§1 ruling: T >= 20 always hits, T <= 0 never; false: a 1 always hits, a 20 always misses";
        /// §2 `SIZE_BONUS_CAP`: the size bonus is the target's AC, capped at this (+6).
        size_bonus_cap: u32 = 6, int(0, MAX_MODIFIER), "§2 size bonus = target AC capped at this";
        /// §2 `HALF_MOVE_PENALTY`: attacking after a half move (−1).
        half_move_penalty: u32 = 1, int(0, MAX_MODIFIER), "§2 penalty after a half move";
        /// §2 `FULL_MOVE_PENALTY`: attacking after a full move (−4).
        full_move_penalty: u32 = 4, int(0, MAX_MODIFIER), "§2 penalty after a full move";
        /// §2 `AUTO_STABILIZED_MOVE_PENALTY`: a non-MSV vehicle firing after a half or full
        /// move, at any speed (−1).
        auto_stabilized_move_penalty: u32 = 1, int(0, MAX_MODIFIER), "§2 penalty for a non-MSV vehicle firing after any move";
        /// §2 `POP_AND_SHOOT_PENALTY` (−1).
        pop_and_shoot_penalty: u32 = 1, int(0, MAX_MODIFIER), "§2 penalty for pop-and-shoot";
        /// §2 `JUMP_ASSAULT_PENALTY` (−4).
        jump_assault_penalty: u32 = 4, int(0, MAX_MODIFIER), "§2 penalty for a jump assault";
        /// §2 `OFFLOAD_PENALTY`: attacking from an offload (−1).
        offload_penalty: u32 = 1, int(0, MAX_MODIFIER), "§2 penalty for attacking from an offload";
        /// §2 `COVER_BANDS`: which band gives which penalty (ruling: the "Cover Modifiers"
        /// section wins over the bullet list under "How to attack").
        cover_bands: CoverBands = CoverBands::CoverModifiers, choice, "§2 ruling: cover-modifiers (minor/half/heavy) or how-to-attack (bands shifted by one)";
        /// §2 `MINOR_COVER_PENALTY`: 10-25% covered (−1).
        minor_cover_penalty: u32 = 1, int(0, MAX_MODIFIER), "§2 penalty for minor cover (10-25%)";
        /// §2 `HALF_COVER_PENALTY`: 25-75% covered (−2).
        half_cover_penalty: u32 = 2, int(0, MAX_MODIFIER), "§2 penalty for half cover (25-75%)";
        /// §2 `HEAVY_COVER_PENALTY`: over 75% covered (−3).
        heavy_cover_penalty: u32 = 3, int(0, MAX_MODIFIER), "§2 penalty for heavy cover (over 75%)";
        /// §2 `BLOCKED_NLOS_PENALTY`: line of sight blocked, NLOS weapons only (−6).
        blocked_nlos_penalty: u32 = 6, int(0, MAX_MODIFIER), "§2 penalty for an NLOS shot at a blocked target";
        /// §2 `NLOS_WEAPONS_FIRE_NLOS` (ruling): an NLOS-capable weapon always takes the
        /// NLOS shot, so it ignores smoke and may fire under its minimum range; the cover
        /// modifier is still the target's cover. Off: it fires NLOS only when line of sight
        /// is blocked, and otherwise takes smoke and its minimum range like any weapon.
        nlos_weapons_fire_nlos: bool = true, switch, "§2 ruling: NLOS weapons always fire NLOS (ignore smoke and minimum range)";
        /// §2 `SMOKE_PENALTY`: the line of fire crosses smoke; several areas never add more
        /// (−6).
        smoke_penalty: u32 = 6, int(0, MAX_MODIFIER), "§2 penalty for smoke on the line of fire";
        /// §2 `DESIGNATED_SMOKE_PENALTY`: smoke against a laser-designated target (−3).
        designated_smoke_penalty: u32 = 3, int(0, MAX_MODIFIER), "§2 smoke penalty against a laser-designated target";
        /// §2 `DUG_IN_PENALTY` (−2).
        dug_in_penalty: u32 = 2, int(0, MAX_MODIFIER), "§2 penalty against a dug-in target";
        /// §2 `HULL_DOWN_PENALTY`: stacks with cover and dug in (−2).
        hull_down_penalty: u32 = 2, int(0, MAX_MODIFIER), "§2 penalty against a hull-down target";
        /// §2 `HULL_DOWN_ONLY_VEHICLES` (ruling): hull down adds nothing on a target that
        /// cannot be hull down (an MSV, troop, crew or terrain; a generic `ac:N` target
        /// can). Off: it applies to any target.
        hull_down_only_vehicles: bool = true, switch, "§2 ruling: hull down adds nothing on a target that cannot be hull down (an MSV, an aerial vehicle, troop, crew or terrain: the book's non-MSV or non-flying vehicle)";
        /// §2 `POSTED_UP_PENALTY` (−2).
        posted_up_penalty: u32 = 2, int(0, MAX_MODIFIER), "§2 penalty against a posted-up target";
        /// §2 `POSTED_UP_NEEDS_COVER` (ruling): posted up counts only when the target also
        /// has a cover modifier that applies to this shot. Off: it always counts.
        posted_up_needs_cover: bool = true, switch, "§2 ruling: posted up counts only with a cover modifier on the shot";
        /// §2 `FOREST_PENALTY`: target fully inside forest, 2nd-edition terrain (−2; 0 plays
        /// the 3rd edition, which has no forest status).
        forest_penalty: u32 = 2, int(0, MAX_MODIFIER), "§2 penalty against a target inside forest (2nd-edition terrain: the forest status is refused under EDITION=3; 0: none)";
        /// §2 `FACTION_TRAINING`: the 2nd edition's faction training, read from unit
        /// abilities: Syndicate *Wetwire*, Pirate *Combined Arms*, Syndicate *Defense
        /// Masters*, Mercenary *Moneyshot*. It applies only when `EDITION=2` and this is on
        /// (the 3rd edition has no faction training, so under `EDITION=3` it does nothing
        /// either way). Off: a 2nd-edition game without faction training.
        faction_training: bool = true, switch, "§2 2nd-edition faction training under EDITION=2 (Wetwire, Combined Arms, Defense Masters, Moneyshot)";
        /// §2 `WETWIRE_FIRE_CONTROL`: Syndicate *Wetwire* adds this fire control (+1).
        wetwire_fire_control: u32 = 1, int(0, MAX_MODIFIER), "§2 fire control added by Syndicate Wetwire";
        /// §2 `COMBINED_ARMS_FIRE_CONTROL`: Pirate *Combined Arms* adds this fire control
        /// with a friendly MSV on the field (+2).
        combined_arms_fire_control: u32 = 2, int(0, MAX_MODIFIER), "§2 fire control added by Pirate Combined Arms with a friendly MSV";
        /// §2 `DEFENSE_MASTERS_DUG_IN_PENALTY`: dug in against a Syndicate *Defense
        /// Masters* unit (−3).
        defense_masters_dug_in_penalty: u32 = 3, int(0, MAX_MODIFIER), "§2 dug-in penalty against Syndicate Defense Masters";
        /// §2 `FIRE_FOR_EFFECT_LOS_PENALTY`: fire for effect at a spot in line of sight (−4).
        fire_for_effect_los_penalty: u32 = 4, int(0, MAX_MODIFIER), "§2 fire-for-effect penalty with line of sight to the spot";
        /// §2 `FIRE_FOR_EFFECT_NO_LOS_PENALTY`: fire for effect without line of sight (−8,
        /// instead of the NLOS −6).
        fire_for_effect_no_los_penalty: u32 = 8, int(0, MAX_MODIFIER), "§2 fire-for-effect penalty without line of sight";
        /// §2 `FIRE_FOR_EFFECT_AT_A_SPOT` (ruling): fire for effect aims at a spot, so the
        /// target's cover and statuses do not apply. Off: they apply as to an aimed shot.
        fire_for_effect_at_a_spot: bool = true, switch, "§2 ruling: fire for effect ignores the target's cover and statuses";
        /// §2 `FIRE_FOR_EFFECT_BLIND_IS_NLOS` (ruling): fire for effect without line of
        /// sight is an NLOS shot: it needs an NLOS weapon and ignores smoke. Off: any splash
        /// weapon may fire it, and smoke applies.
        fire_for_effect_blind_is_nlos: bool = true, switch, "§2 ruling: blind fire for effect needs an NLOS weapon and ignores smoke";
        /// §2-3 `FIRE_FOR_EFFECT_IS_SPLASH` (ruling): fire for effect deals its hits as
        /// splash damage, which never ignores armour ("Splash damage rules"), so armour
        /// piercing does not apply. Off: the weapon's armour piercing applies.
        fire_for_effect_is_splash: bool = true, switch, "§3 ruling: fire for effect is splash damage, never armour piercing";
        /// §3 `OMEGA_USES_SMALLEST_ARMOR_PIERCING` (ruling): an Omega Override subtracts the
        /// target's reduction once from the combined total, less the smallest armour
        /// piercing among the weapons fired. Off: less the largest.
        omega_uses_smallest_armor_piercing: bool = true, switch, "§3 ruling: Omega Override pierces by the smallest piercing fired (false: largest)";
        /// §4 `IN_THE_RED_LIFE`: a unit with this much life or less (eliminated included)
        /// is in the red and rolls a jury rig for each action (5).
        in_the_red_life: u32 = 5, int(0, super::rulings::STARTING_LIFE), "§4 life at or below which a unit is in the red";
        /// §4 `JURY_RIG_SUCCESS_MAX`: a jury-rig d20 of this or less acts normally;
        /// otherwise the action has no fire control (10).
        jury_rig_success_max: u32 = 10, int(0, super::rulings::DIE_SIDES), "§4 a jury-rig d20 of this or less keeps fire control";
        /// §4 `JURY_RIG_PER_ACTION` (ruling): a unit in the red rolls once per action given
        /// (an MSV twice a turn). Off: once per turn, at its first action in the red; the
        /// result holds for its other actions that turn.
        jury_rig_per_action: bool = true, switch, "§4 ruling: one jury-rig roll per action (false: one per turn)";
        /// §3 `BUBBLE_SHIELD` (gear "BUBBLE SHIELD", both editions): a target whose gear
        /// has `bubble_shield` drops a 20-life shield when first attacked in a turn, one per
        /// round of its gear; attacks hit the shield (targeted as AC5, damaged as AC1, the
        /// overflow of the attack that breaks it lost) until it falls; a standing shield is
        /// back at 20 at Reset (true). Attack runs, duels and battles play it; off: the gear
        /// does nothing.
        bubble_shield: bool = true, switch, "§3 gear: a bubble shield takes attacks at its carrier (AC5 targeted, AC1 damaged, 20 life, overflow lost, back to 20 at Reset); attack runs, duels and battles";
        /// §3 `SHIELD_BYPASS` ("Auto-stabilized": "useful to get around defenses such as a
        /// bubble shield"): an auto-stabilized attacker (a non-MSV vehicle) whose speed
        /// carries it inside the shield (speed >= range − 5, its radius) fires at the unit
        /// from inside during its move, with the auto-stabilized move penalty (true). Off:
        /// its attacks hit the shield as every other attacker's.
        shield_bypass: bool = true, switch, "§3 gear: an auto-stabilized attacker within its speed of the shield (speed >= range - 5) fires at the unit from inside it, at the move penalty (always, while a shield stands)";
        // §4 of techcommander-battles.md: special attacks (ram, death from above, overrun,
        // trample); see `super::special`.
        /// §4 `ADJACENT_GAP`: inches between two adjacent units in `REACH_RULE` (speed >=
        /// range − gap) under the 3rd edition: 0 is base contact; the 2nd edition adds 2
        /// ("about two units apart"), see `edition::adjacent_gap`.
        adjacent_gap: u32 = 0, int(0, MAX_MODIFIER), "§4 battles: inches between adjacent units; reach when speed >= range - gap (2nd edition: 2 more)";
        /// §4 `DAMAGE_DICE`: "AC × d20" is one d20 times AC, or AC d20s added up.
        damage_dice: DamageDice = DamageDice::OneD20TimesAc, choice, "§4 battles ruling: AC x d20 is one-d20-times-ac or ac-d20s (AC dice added up)";
        /// §4 `RAM_FIRE_CONTROL`: a ram's fire control (+2), lost in smoke, on a failed
        /// jury rig, under-crewed or against gear that negates fire control.
        ram_fire_control: u32 = 2, int(0, MAX_MODIFIER), "§4 battles: a ram's fire control (lost in smoke, on a failed jury rig)";
        /// §4 `RAM_SELF_ROUND`: the rammer takes half the target's damage, rounded this way
        /// (up; changes life only for a rammer of AC 1).
        ram_self_round: Rounding = Rounding::Up, choice, "§4 battles ruling: the rammer's half of the damage is rounded up or down";
        /// §4 `CLOSE_MODIFIERS`: what a ram or death from above adds to its target number.
        close_modifiers: CloseModifiers = CloseModifiers::Listed, choice, "§4 battles ruling: ram/DFA add listed modifiers only, or with-attacker-bonuses";
        /// §4 `SMOKE_CLOSE`: when a ram loses its fire control and death from above takes
        /// its smoke penalty.
        smoke_close: SmokeClose = SmokeClose::ScenarioSmoke, choice, "§4 battles ruling: scenario smoke puts ram/DFA in smoke (scenario-smoke) or never (ignored)";
        /// §4 `DFA_SMOKE_PENALTY`: death from above landing mostly in smoke (−2).
        dfa_smoke_penalty: u32 = 2, int(0, MAX_MODIFIER), "§4 battles: penalty for death from above landing in smoke";
        /// §4 `DFA_AC_SOURCE`: death from above deals AC × 20 + d20 with this AC.
        dfa_ac_source: AcSource = AcSource::Attacker, choice, "§4 battles ruling: death from above deals AC x 20 + d20 with the attacker's or target's AC";
        /// §4 `DFA_SELF_ARMOUR`: whether the attacker's own damage reduction applies to the
        /// d20 it takes landing (ignored: the same impact as the target's).
        dfa_self_armour: Armour = Armour::Ignored, choice, "§4 battles ruling: the attacker's armour against its own landing d20 (ignored or applies)";
        /// §4 `TRAMPLE_ARMOUR`: whether the target's damage reduction applies to trample
        /// damage (applies, as to overrun, its twin).
        trample_armour: Armour = Armour::Applies, choice, "§4 battles ruling: the target's armour against trample damage (applies or ignored)";
        /// §4 `DODGE`: who dodges an overrun or trample.
        dodge: Dodge = Dodge::AlwaysExceptProne, choice, "§4 battles ruling: overrun/trample targets dodge (always-except-prone) or never";
        /// §4 `OVERRUN_FIRE`: an overrunning unit also fires one weapon system "as
        /// described in normal move and shoot rules" (3rd and 2nd edition "Overrun"): the
        /// full-move modifier (MSV −4, auto-stabilized −1), its best ready system at the
        /// enemy the greedy score picks once the overrun has resolved, in the same action
        /// (true). False: the overrun alone.
        overrun_fire: bool = true, switch, "§4 battles: an overrun also fires one weapon system at the full-move modifier (MSV -4, auto-stabilized -1)";
        /// §5 `AERIAL_IN_THE_RED`: an aerial unit in the red must land, "if they cannot
        /// land, they are eliminated" (`AERIAL_RULES`, both editions): `eliminated`
        /// (default: no map shows a landing spot) or `lands` (stays in play). Battles.
        aerial_in_the_red: AerialInTheRed = AerialInTheRed::Eliminated, choice, "§5 battles: an aerial unit in the red is eliminated (no landing spot without a map) or lands (stays in play)";
        /// §4 `DODGE_TARGET`: a dodge succeeds on a d20 of this or less (12).
        dodge_target: u32 = 12, int(0, super::rulings::DIE_SIDES), "§4 battles: an overrun/trample dodge succeeds on a d20 of this or less";
        /// §4 `COMBAT_AGILITY_DODGE_TARGET`: the dodge target of a unit with the 2nd
        /// edition's USSC *Combat Agility* (14; read under `FACTION_TRAINING`).
        combat_agility_dodge_target: u32 = 14, int(0, super::rulings::DIE_SIDES), "§4 battles: dodge target of a unit with USSC Combat Agility (2nd edition: read where faction training applies, EDITION=2 with FACTION_TRAINING on)";
        // ---- battles (techcommander-battles.md §2, §6) ----
        /// `FORCE_BUDGET`: points a skirmish force may field (12, the book's basic skirmish).
        force_budget: u32 = 12, int(0, 1_000_000), "§2.1 battles: points a skirmish force may field";
        /// `SKIRMISH_MAX_TURNS`: a skirmish is called for time after this many turns (10).
        skirmish_max_turns: u32 = 10, int(1, super::rulings::MAX_TURNS_LIMIT), "§2.6 battles: turns before a skirmish is called for time (AC scoring)";
        /// `COMMAND_AT_TURN_START`: command actions are fixed when the Action phase starts
        /// (true); false: a command unit at 0 life or less when the command rounds begin
        /// gives none.
        command_at_turn_start: bool = true, switch, "§2.2 battles: command actions fixed at the start of the Action phase";
        /// `SYSTEM_ONCE_PER_TURN`: each weapon system fires at most once per turn (true).
        system_once_per_turn: bool = true, switch, "§2.2 battles: each weapon system fires once per turn";
        /// `PASS_ENDS_TURN`: a player who passes is out for the rest of the turn (true);
        /// false: the pass spends one player action.
        pass_ends_turn: bool = true, switch, "§2.3 battles: a passing player is out for the turn (false: the pass spends an action)";
        /// `INITIATIVE_TIES`: which players reroll a tied initiative roll.
        initiative_ties: InitiativeTies = InitiativeTies::Tied, choice, "§2.3 battles: tied: only tied players reroll; all: everybody rerolls";
        /// `RALLY_AT_DEPLOY`: all troop and crew units of a side form one rallied group
        /// that takes one action (Rallied Weapons Free, Rallied Attack or Rallied Assault)
        /// (true).
        rally_at_deploy: bool = true, switch, "§2.4 battles: a side's troops and crew form one rallied group";
        /// `SMOKE_POP`: a unit with smoke gear may spend a Move action and one round to be
        /// smoked until Reset (true).
        smoke_pop: bool = true, switch, "§2.4 battles: smoke gear: a Move action smokes the unit until Reset";
        /// `SMOKE_BOTH_WAYS`: shots to or from a smoked unit take the smoke penalty (true);
        /// false: only shots at it.
        smoke_both_ways: bool = true, switch, "§2.4 battles: shots to or from a smoked unit take the smoke penalty";
        /// `CREW_ESCAPE_TARGET`: a standard crew member escapes a removed unit on a d20 of
        /// this or less (10).
        crew_escape_target: u32 = 10, int(0, super::rulings::DIE_SIDES), "§2.5 battles: a crew member escapes a removed unit on a d20 of this or less";
        /// `CREW_SURVIVORS`: escaped crew evacuate, or stay and fight as AC1 crew units.
        crew_survivors: CrewSurvivors = CrewSurvivors::Evacuate, choice, "§2.5 battles: evacuate (leave the game) or fight (stay as unarmed AC1 crew)";
        /// `MUTUAL_ELIMINATION`: both sides eliminated at the same Resolve Damage is a draw,
        /// or is decided by the AC score.
        mutual_elimination: MutualElimination = MutualElimination::Draw, choice, "§2.6 battles: draw, or score (the AC score decides)";
        /// `OMEGA_IN_BATTLES`: an MSV with no earlier action this turn may Omega Override
        /// as a battle action (§2.4; true): the greedy and focus-lowest policies play it at a
        /// target only when its exact score beats the best two-attack sequence the MSV could
        /// play at that target this turn. False: never.
        omega_in_battles: bool = true, switch, "§2.4 battles: MSVs may Omega Override (played when it beats the best two attacks at that target)";
        /// `OMEGA_NEEDS_JURY_RIG`: an MSV in the red must pass a jury-rig roll to Omega
        /// Override (§2.4; true); a failed roll ends its turn with no shot. False: it fires
        /// anyway (the Omega has no fire control to lose).
        omega_needs_jury_rig: bool = true, switch, "§2.4 battles: in the red, an Omega Override needs a passed jury rig (else no shot)";
        /// `DAMAGE_WEIGHT`: the greedy policy's weight of damage short of a kill (0.25).
        damage_weight: Weight = Weight(0.25), num(0, MAX_MODIFIER), "§2.7 battles: greedy policy: weight of damage short of a kill";
        /// `COMMAND_TARGET_WEIGHT`: points a unit's command action is worth as a target (3).
        command_target_weight: Weight = Weight(3.0), num(0, MAX_MODIFIER), "§2.7 battles: greedy policy: points per command action of a target";
        /// `PROTECT_COMMAND`: the greedy policy pops smoke on a threatened command unit.
        protect_command: bool = true, switch, "§2.7 battles: greedy policy: pop smoke on a threatened command unit";
        /// `PROTECT_COMMAND_THRESHOLD`: the enemy kill chance that counts as a threat (0.25).
        protect_command_threshold: Weight = Weight(0.25), num(0, MAX_MODIFIER), "§2.7 battles: greedy policy: enemy kill chance that counts as a threat";
        /// `INFILTRATION`: a troop or crew unit with infiltration gear starts infiltrated and
        /// re-infiltrates at Reset; an infiltrated unit cannot be targeted (§2.4; true).
        infiltration: bool = true, switch, "§2.4 battles: troop/crew with infiltration gear are untargetable until revealed";
        /// `STEALTH_TARGET`: an infiltrated unit that acts, of a player not last in
        /// initiative, stays infiltrated on a stealth d20 of this or less (10).
        stealth_target: u32 = 10, int(0, super::rulings::DIE_SIDES), "§2.4 battles: an acting infiltrated unit (not last in initiative) stays hidden on d20 <= this";
        /// `INFILTRATION_SPOT_RANGE`: enemy troop and crew whose side's scenario range is at
        /// most this and whose movement is not full ignore infiltration (6 inches).
        infiltration_spot_range: u32 = 6, int(0, MAX_MODIFIER), "§2.4 battles: enemy troop/crew within this range, not moving full, ignore infiltration";
        /// `SCANNING`: a unit whose speed reaches the scenario range may scan (§2.4; true).
        scanning: bool = true, switch, "§2.4 battles: scan action (d20 <= 12 + gear reveals infiltrated enemies within speed)";
        /// `SCAN_WEIGHT`: the greedy policy scores a scan as this × the best, over hidden
        /// enemies, of P(the scan reveals it) × the best attack score at it (1).
        scan_weight: Weight = Weight(1.0), num(0, MAX_MODIFIER), "§2.4 battles: greedy policy: scan score = this x P(reveal) x best attack it enables";
        /// `POLICY_DIG_IN`: units may dig in as an action (−2 to be targeted until Reset,
        /// one return attack), and the greedy policy does so when no attack scores above
        /// `DIG_IN_THRESHOLD` (false: "digging in trades an action for −2").
        policy_dig_in: bool = false, switch, "§2.4 battles: units may dig in (-2 to be targeted until the unit moves position, one return attack)";
        /// `DIG_IN_THRESHOLD`: the greedy policy digs in when its best attack scores at most
        /// this (0.5 points).
        dig_in_threshold: Weight = Weight(0.5), num(0, MAX_MODIFIER), "§2.4 battles: greedy policy digs in when no attack scores above this";
        /// `FREE_DIG_IN`: troops and crew that have not acted are dug in at no action
        /// ("Crew or troop units that have not acted may be declared as being dug-in at
        /// any point that an opposing player is not targeting it", 3rd and 2nd edition
        /// "Dug-in"; "Troop units can be declared as dug in at any point before acting
        /// and do not need to do this as an action", 3rd edition "Dig in", and the 2nd
        /// edition's "Dig in" order alike): every troop or crew unit on the field is
        /// declared dug in as its turn begins, unless it already is, with one return
        /// attack, and stays dug in until it moves position ([`super::battle::dig_in`]).
        /// Ruling: on by default, the book's reading. Both editions make the declaration
        /// free for troops and crew, and a free −2 with a return attack costs nothing, so
        /// every player declares it; the start of the turn is the one moment before any
        /// unit has acted and before anyone targets it, so no later declaration is
        /// worth more under fixed geometry. False: troops and crew dig in only as an
        /// action under `POLICY_DIG_IN`, as `techcommander-battles.md` played them (its
        /// §7 vectors have them stand undug).
        free_dig_in: bool = true, switch, "§2.4 battles: troops and crew are dug in for free before they act (-2 to be targeted, one return attack) until they move position";
        /// `SPLIT_SHOTS`: one weapon system's shots may go at several targets (3rd
        /// edition "Attacks": "each shot may have a different target"; a system's shots
        /// are still one action, one jury rig and one use of the system). The greedy
        /// policy weighs it ([`super::battle::split`]): for the system and target it
        /// would fire at, it gives the shots out one at a time, each to the enemy where
        /// it adds the most to the greedy score (kill value plus damage value, capped at
        /// the target's life, so a target that needs no more shots gets none), and
        /// splits when that scores more than every shot at the one target. Rulings:
        /// focus-lowest and random fire every shot at one target; damage reduction is
        /// subtracted once per target ("once per action", each target's share being
        /// its own attack); a shot with the 2nd edition's Moneyshot bonus is not split
        /// (the bonus is for an attack that can eliminate its one target). False: every
        /// shot of a system goes at one target.
        split_shots: bool = true, switch, "§2.4 battles: one system's shots may go at several targets (the greedy policy splits them)";
        /// `REPAIR`: a unit with repair gear (a gear card with `repair_damage`) may spend an
        /// action repairing a damaged friendly unit (3rd edition "Repair", the 2nd edition's
        /// likewise: "(Repair equipped units only.) Repair works like an attack action to a
        /// friendly unit, except that the unit gains life for the resulting 'damage'
        /// instead of losing it"): the gear's shots roll as an attack's at the friend, and
        /// the life the attack would take is gained instead, never above 20
        /// ([`super::battle::repair`]). The greedy policy repairs when the repair's score
        /// beats its best attack's. Rulings (the book is silent): the repairer reaches its
        /// friend (range 0, stationary, no cover or smoke), the friend's defensive gear is
        /// not applied and no status of an opposing target counts, each unit repairs once a
        /// turn with one repair gear (its first), a unit does not repair itself. True: the
        /// book's reading; false: repair gear does nothing.
        repair: bool = true, switch, "§2.4 battles: repair gear repairs a friend like an attack action (the life it would take is gained, up to 20)";
        /// `REPAIR_REVIVES`: a repair may bring an eliminated friend (0 life or less, still
        /// on the field until Resolve Damage) back above 0, and it is then not removed (3rd
        /// edition "Kills, Deaths and Points": kill chips are "retained even if the
        /// eliminated unit manages to heal or repair the unit back to a living status";
        /// "Loot": "regardless of whether the looted unit is healed / repaired"). The kill
        /// is then no longer the unit's removal: a deathmatch scores it at once (its chips
        /// retained), a skirmish scores nothing for it; a later kill is credited afresh.
        /// True: the book's reading; false: only a friend above 0 life is repaired.
        repair_revives: bool = true, switch, "§2.4 battles: a repair may bring an eliminated friend (0 life or less, not yet removed) back above 0";
        /// `DM_TURNS`: a deathmatch ends after this many turns (6, the "pre-agreed time").
        dm_turns: u32 = 6, int(1, super::rulings::MAX_TURNS_LIMIT), "§3.6 battles: turns a deathmatch lasts";
        /// `DM_LARGE_CAP`: the large-cap game (cap 4 up to 12) instead of 3 up to 8.
        dm_large_cap: bool = false, switch, "§3.1 battles: large-cap game: cap 4 up to 12 (false: 3 up to 8)";
        /// `DM_CAP_STEP`: cap raised per kill chip handed in (1).
        dm_cap_step: u32 = 1, int(0, 12), "§3.1 battles: cap raised per kill chip handed in";
        /// `DM_REINFORCE`: a player whose units survived fills up to its cap each turn.
        dm_reinforce: bool = true, switch, "§3.2 battles: surviving players fill up to their cap each turn";
        /// `DM_PERKS`: cap-first (kill chips buy +1 cap until the maximum) or hold.
        dm_perks: DmPerks = DmPerks::CapFirst, choice, "§3.5 battles: cap-first: kill chips buy cap until the maximum; hold: never spent";
        /// `DM_SURVIVAL_UNITS`: survival scores 5 + 1 per surviving unit (true) or 5.
        dm_survival_units: bool = true, switch, "§3.4 battles: survival scores 5 + 1 per surviving unit (false: 5)";
        /// `DM_TIEBREAK`: equal points are decided by kills, else shared (a draw).
        dm_tiebreak: DmTiebreak = DmTiebreak::Kills, choice, "§3.6 battles: equal points: kills decide, or shared (a draw)";
    }
}

impl crate::rules::kit::options::OptionValue for Weight {
    fn to_value(&self) -> crate::rules::kit::options::Value {
        self.0.to_value()
    }
    fn from_value(v: crate::rules::kit::options::Value) -> Option<Weight> {
        f64::from_value(v).map(Weight)
    }
}

crate::option_choices! {
    CoverBands { CoverModifiers = "cover-modifiers", HowToAttack = "how-to-attack" }
    DamageDice { OneD20TimesAc = "one-d20-times-ac", AcD20s = "ac-d20s" }
    Rounding { Up = "up", Down = "down" }
    CloseModifiers { Listed = "listed", WithAttackerBonuses = "with-attacker-bonuses" }
    SmokeClose { ScenarioSmoke = "scenario-smoke", Ignored = "ignored" }
    AcSource { Attacker = "attacker", Target = "target" }
    Armour { Applies = "applies", Ignored = "ignored" }
    Dodge { AlwaysExceptProne = "always-except-prone", Never = "never" }
    AerialInTheRed { Eliminated = "eliminated", Lands = "lands" }
    InitiativeTies { Tied = "tied", All = "all" }
    CrewSurvivors { Evacuate = "evacuate", Fight = "fight" }
    MutualElimination { Draw = "draw", Score = "score" }
    DmPerks { CapFirst = "cap-first", Hold = "hold" }
    DmTiebreak { Kills = "kills", Shared = "shared" }
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
