//! One line of help per MECHCOM ruling, for `volley rulesets` (from the rules document's
//! rulings, as the fields of [`super::Options`] document them).

/// (NAME, help) of every ruling, in the order of [`super::Options::pairs`].
pub const HELP: [(&str, &str); 49] = [
    (
        "SIX_ALWAYS_CRITS",
        "§1 a natural 6 is a crit (2 hits) whatever the effective Stability, so S >= 7 plays as S = 6. Off: a 6 hits only when 6 >= S.",
    ),
    ("NO_AUTOMATIC_MISS", "§1 with S <= 1 every die hits. Off: a natural 1 always misses."),
    (
        "MODIFIERS_MOVE_STABILITY",
        "§1 spot-token bonuses change S, never a die face, so only a natural 6 crits. Off: each bonus adds 1 to the die, and a modified 6 or more is a crit.",
    ),
    (
        "ATTACKS_FROM_WEAPON",
        "§1 the dice rolled are the weapon's Attacks. No other reading is implemented (a mech has no Attacks stat).",
    ),
    (
        "SOFT_COVER_IS_HALF_COVER",
        "§1 soft cover (forest, dense snow, swimming) gives the +2 of half cover. Off: soft cover gives nothing.",
    ),
    (
        "COVER_STACKS",
        "§1 off, cover gives +2 at most even from two sources (the scenario's cover and a Submerged target). On: each source adds +2.",
    ),
    ("HEAVY_MOVED_STABILITY", "§1 Stability change for a Heavy weapon whose wielder moved this turn (+2: worse)."),
    (
        "HEIGHT_STABILITY_PER_2_LEVELS",
        "§1 Stability change per full 2 levels the shooter is above the target (−1: better).",
    ),
    (
        "MELEE_RANGE_HEXES",
        "§1 melee range in hexes (adjacent); at this range or less, melee weapons can attack and shooting takes +2.",
    ),
    ("SPOT_TOKENS_SHARED", "§1 any enemy attacker may consume the Spot tokens on a model."),
    (
        "SPOT_POLICY",
        "§1 which Spot tokens an attack consumes: consume-one (default; all of them with a Sniper weapon) or never (Artillery still consumes one)",
    ),
    ("MELEE_TIES_FAIL", "§1 \"beats\" means strictly greater. Off: ties win."),
    (
        "MELEE_ARMOUR_ROLL",
        "§1 off, melee has no armour roll. On: each winning die must also pass the target's armour roll.",
    ),
    (
        "MELEE_CRIT",
        "§1 a winning melee die with a natural 6 is a crit (on-crit effects, Flurry); never worth two. Off: melee never crits.",
    ),
    (
        "UNARMED_D3_PER_DIE",
        "§1 an unarmed attack rolls 1d3 per winning die. Off: one d3 for the attack, times the winning dice (the same with one die).",
    ),
    ("FLURRY_ALWAYS_ROLLS", "§2 Flurry's optional extra die is always rolled. Off: never rolled."),
    (
        "REACTOR_COUNTS_FLURRY_CRITS",
        "§2 Red-Hot Reactor counts crits of Flurry dice too. Off: only crits of the first roll.",
    ),
    (
        "HIT_MEANS_ATTACK_ROLL_HIT",
        "§2 \"hit\" (Condition X) is a hit of the attack roll, blocked or not. Off: only hits that cost Integrity count, and a crit counts for Critical condition X only when one of its armour rolls fails.",
    ),
    ("BLAST_MISS", "§2 Blast's \"misses\" is an attack roll with zero hits."),
    (
        "ARMOUR_NO_AUTOMATIC_RESULT",
        "§2 A <= 1 means every hit costs Integrity, A >= 7 none does. Off: a natural 6 always costs and a natural 1 never.",
    ),
    (
        "DIRECT_DAMAGE_IGNORES_ARMOUR",
        "§2 (consulted by attack runs): \"suffers X damage\" (Burned, Backfire) removes X Integrity with no roll.",
    ),
    (
        "EXPLOSION_TIMING",
        "§2 when a destroyed model explodes: end-of-next-activation (default; in a duel victory comes first) or immediately",
    ),
    (
        "EXPLOSION_AS_SHOOTING",
        "§2 the death explosion is rolled as Shooting at a fixed S = 2 with no Stability modifiers; the target's Armour applies.",
    ),
    ("EXPLOSION_ABSTRACT_TARGETS", "§2 without a map an explosion hits only models in melee with the destroyed one."),
    (
        "END_OF_TURN",
        "§2 (consulted by attack runs): \"end of turn\" is the end of the afflicted model's own next activation, so Blinded, Shocked and Stunned spoil one.",
    ),
    ("CONDITIONS_DONT_STACK", "§2 a condition is on or off."),
    (
        "NO_END_IS_PERMANENT",
        "§2 (consulted by attack runs): Immobilized and Invisible last for the rest of the engagement.",
    ),
    (
        "CLEAR_POLICY",
        "§2 which conditions a model clears with leftover Energy: leftover-burned-first (default, Burned then Corroded) or never",
    ),
    (
        "WEAPON_BRACKET",
        "§3 order of a weapon's [a-b-c]: range-damage-attacks (default, as Arsenal defines them) or range-attacks-damage",
    ),
    ("DEPLOYABLE_ACTION_FREE", "§3 the parent's 1⚡ covers the deployable's action."),
    ("ACES_MERCS_UNIQUE", "§3 at most one of each Ace or Mercenary card per squad."),
    ("COST_IS_PRINTED", "§3 a unit's cost is its printed points."),
    (
        "ABILITY_BRACKET",
        "§3 reading of an ability's [a/b]: cost-limit (default: Searing Wave 1 Energy, Limit 5) or limit-cost",
    ),
    ("TYPHON_ABILITY_COST", "§3 ⚡ of Searing Wave and Vent Coolant."),
    ("TYPHON_ABILITY_LIMIT", "§3 uses per game of Searing Wave and Vent Coolant."),
    ("CONDITION_LIST_SPLIT", "§3 \"Condition: Burned, Superheated\" is two perks."),
    (
        "MULTI_POLICY",
        "§3 how a Multi weapon splits its dice: one-target (every die at one target; the only reading played)",
    ),
    (
        "ROLL_OFF",
        "§4 each player rolls 1d6, highest first, ties roll again; with two players each goes first with probability 1/2, every round.",
    ),
    ("ALTERNATION_RUNOUT", "§4 a player with no model left to activate passes."),
    (
        "REPEAT_ACTIONS",
        "§4 (consulted by attack runs): the same weapon may fire again in one activation; Ammo X is the only per-weapon limit.",
    ),
    ("MOVE_REPEATS", "§4 a second Move costs another 2⚡."),
    ("ENERGY_RESET_AT_START_PHASE", "§4 Energy refills in the Start phase."),
    ("MAX_ROUNDS", "§4 rounds before a battle is recorded as undecided."),
    ("MALFUNCTION_ONE_ACTION", "§4 one AI-table action per activation."),
    (
        "NON_SPATIAL",
        "§4 no map; every model sees every enemy, range is the engagement's, and range <= melee range means melee distance.",
    ),
    (
        "ATTACK_RUN_TARGET_INERT",
        "§4 (consulted by attack runs): the target acts after the attacker, takes no action and never clears a condition.",
    ),
    (
        "ACTION_POLICY",
        "§4 what a model does with its Energy: best-expected-loss-per-energy (the attack with the highest expected Integrity loss per Energy, then clearing, then Barrage dice)",
    ),
    (
        "TARGET_POLICY",
        "§4 which enemy a model attacks: lowest-integrity (ties to the highest cost; the only reading played)",
    ),
    ("ACTIVATION_ORDER", "§4 which model a player activates next: most-expensive-first (the only reading played)"),
];
