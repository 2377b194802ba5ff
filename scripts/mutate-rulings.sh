#!/usr/bin/env bash
# Mutation check of the TechCommander rulings: every option's default must be pinned by a
# test.
#
# For each option of the `rule_options!` table of src/rules/techcommander/options.rs in
# turn, the script changes its DEFAULT (integers +1, and also -1 with
# MUTATION_BOTH_WAYS=1; booleans flipped; a choice `Enum::Variant` to each other variant
# of its enum), rebuilds, runs the tests and reports "caught" (some test failed) or
# "SURVIVED" (the whole test set passed: no test pins that default). It then applies the
# code mutations listed in CODE_MUTATIONS below (book rules that are code, not options).
# The files are restored after each mutation and on any exit, Ctrl-C included.
#
# Usage: scripts/mutate-rulings.sh [--list] [--only NAME]...
#   --list       print the mutations and exit
#   --only NAME  run only the mutations of option (or code mutation) NAME, the option's
#                field name (e.g. in_the_red_life); repeatable
# Environment:
#   MUTATION_TESTS  the test command (default: "cargo test --lib --quiet"). The rulings
#                   are pinned by the kernel's unit tests (src/rules/techcommander/), so
#                   the library's unit tests are the smallest set that proves the point:
#                   they rebuild one test binary per mutation (about 15 s on 2 busy cores)
#                   and run in under a second. Use "cargo test --quiet" for the whole suite.
#   MUTATION_TIMEOUT  seconds allowed per test run (default 900).
#   MUTATION_BOTH_WAYS  1: mutate integers by -1 as well as +1 (twice the rebuilds).
#
# Exit status: 0 when every mutation is caught, 1 when any survives or fails to build,
# 2 on a usage error, 130 when interrupted.
# Needs bash, cargo, perl, cmp (and `timeout` when present).

set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
OPTIONS=src/rules/techcommander/options.rs
TESTS="${MUTATION_TESTS:-cargo test --lib --quiet}"
TIMEOUT="${MUTATION_TIMEOUT:-900}"
BOTH_WAYS="${MUTATION_BOTH_WAYS:-0}"
# What to compile before testing: the default test set needs only the library's unit tests.
if [ -z "${MUTATION_TESTS:-}" ]; then BUILD_TARGETS="--lib"; else BUILD_TARGETS=""; fi

# Code mutations: NAME|FILE|perl substitution (applied to the whole file; it must match).
# omega-no-positive-modifiers: an Omega Override keeps no positive modifier (§2); the
#   mutation lets it keep a positive to-hit bonus.
# designated-missiles-ignore-cover: against a laser-designated target missiles ignore
#   cover (§2); the mutation takes the cover anyway.
# combat-agility-second-edition-only: USSC Combat Agility is 2nd-edition faction
#   training; the mutation reads it under the 3rd edition too.
# single-scan-d20: one scan d20 for every figure (2nd edition "Scanning"); the mutation
#   rolls one per figure.
# trample-regardless-of-infiltration: a trample crosses infiltrated members; the
#   mutation skips them.
# failed-jury-rig-reveals: a failed jury rig reveals the unit (kernel §4); the mutation
#   keeps it hidden.
# dig-in-until-it-moves: a dug-in unit stays dug in until it moves position; the
#   mutation ends the dig-in at Reset.
# aerial-never-hull-down: hull down is a non-flying vehicle's status; the mutation lets
#   a VTOL be hull down.
# extra-copies-are-systems: copies beyond the link limit are systems of their own; the
#   mutation links them all into one system again.
# dug-in-close-attacks: a ram or death from above at a dug-in unit takes its −2; the
#   mutation reads the special attacks compiled without it.
# dug-in-omega: an Omega Override at a dug-in unit takes its −2; the mutation does not.
# dug-in-offload: an offload's shots at a dug-in unit take its −2; the mutation does not.
# rallied-assault-no-move-modifier: "No move modifiers apply" to a Rallied Assault; the
#   mutation takes the side's movement.
# overrun-fire-scored: the policies weigh an overrun's fire (OVERRUN_FIRE); the mutation
#   scores the overrun alone.
# repair-without-friend-gear: a repair applies none of the friend's defensive gear
#   (REPAIR ruling); the mutation applies its armour and fire-control negation.
# repair-capped-at-20: repaired life never exceeds 20; the mutation lets it.
# repair-once-a-turn: a repair is one more system, once a turn; the mutation repairs
#   again.
# revival-clears-credit: a revived unit's kill credit is cleared (REPAIR_REVIVES); the
#   mutation keeps it.
# shield-recharges: a standing bubble shield is back at 20 each turn (BUBBLE_SHIELD); the
#   mutation keeps the life it has left (exact chain).
# shield-targeted-as-ac5: attacks at a bubbled unit are rolled at the shield (AC5 size,
#   AC1 damage); the mutation rolls them at the unit's size and armour.
# shield-ignores-postures: the carrier's postures do not cover its shield; the mutation
#   keeps them.
# shield-leave-to-fire: a duel's covered side that is not auto-stabilized leaves its
#   shield to fire; the mutation keeps it covered.
# shield-no-drop-after-a-fall: no shield is dropped in the turn one fell; the mutation
#   drops the next at once (duels).
# shield-exact-duel-recharges, shield-exact-duel-leave-to-fire,
#   shield-exact-duel-no-drop-after-a-fall: the same three rules in the exact duel
#   chain (src/rules/techcommander/exact_duel.rs).
# mechcom-exact-split-order: the exact initiative split solves round 1 with the given
#   side first; the mutation solves it with the other side first.
# battle-shield-recharges, battle-shield-leave-to-fire, battle-shield-no-drop-after-a-fall,
#   battle-shield-bypass: the duels' shield rules in battles
#   (src/rules/techcommander/battle/shield.rs): a standing shield back at 20 at Reset, a
#   covered unit leaving its shield to fire, no second drop in a turn, a bypassing
#   attacker firing at the unit.
# battle-shield-group-break-value, battle-shield-assault-meets-shields: the rallied
#   groups' scores at carriers (battle/shield_group.rs): a broken shield is worth
#   DAMAGE_WEIGHT × the carrier's V; the next member of an assaulted group meets its
#   shield.
CODE_MUTATIONS=(
    'omega-no-positive-modifiers|src/rules/techcommander/target_number.rs|s/m\.attacker_bonus = m\.attacker_bonus\.min\(0\);/m.attacker_bonus = m.attacker_bonus;/'
    'designated-missiles-ignore-cover|src/rules/techcommander/target_number.rs|s/let cover_ignored = cond\.is_designated\(\) && weapon\.missile;/let cover_ignored = false;/'
    'combat-agility-second-edition-only|src/rules/techcommander/special/roll.rs|s/let agile = edition::faction_training\(o\) && target\.combat_agility;/let agile = o.faction_training && target.combat_agility;/'
    'single-scan-d20|src/rules/techcommander/battle/infiltration.rs|s/        if roll_d20\(rng\) <= self\.infiltration\.scan_number\[u\] \{\n            for &t in &self\.enemies\[side\] \{\n/        for &t in &self.enemies[side] {\n            if roll_d20(rng) <= self.infiltration.scan_number[u] {\n/'
    'trample-regardless-of-infiltration|src/rules/techcommander/battle/rally.rs|s/!self\.trampleable\(s, t\)/!self.targetable(s, t)/g'
    'failed-jury-rig-reveals|src/rules/techcommander/battle/game.rs|s/        if failed \{\n            s\.hidden\[a\] = false;\n        \}\n//'
    'dig-in-until-it-moves|src/rules/techcommander/battle/game.rs|s/            s\.hidden\[u\] = self\.infiltrates\(u\);\n            if f\.power_armor/            s.hidden[u] = self.infiltrates(u);\n            s.dug_in[u] = false;\n            if f.power_armor/'
    'aerial-never-hull-down|src/rules/techcommander/profile.rs|s/ && !self\.aerial//'
    'extra-copies-are-systems|src/rules/techcommander/catalogue/resolve.rs|s/if kind == UnitKind::Vehicle \|\| count <= linkable \{/if true {/'
    'dug-in-close-attacks|src/rules/techcommander/battle/variants.rs|s/Some\(d\) if s\.dug_in\[t\] => d,\n            _ => &self\.specials,/_ => &self.specials,/'
    'dug-in-omega|src/rules/techcommander/battle/variants.rs|s/Some\(d\) if s\.dug_in\[t\] => d,\n            _ => &self\.omega,/_ => &self.omega,/'
    'dug-in-offload|src/rules/techcommander/battle/variants.rs|s/\(&self\.offload, &v\.offload_dug\), //'
    'rallied-assault-no-move-modifier|src/rules/techcommander/battle/variants.rs|s/self\.variants\.assault\.as_ref\(\)\.unwrap_or\(&self\.tables\)/&self.tables/'
    'overrun-fire-scored|src/rules/techcommander/battle/best_shot.rs|s/score \+= sh\.overrun_bonus;//'
    'repair-without-friend-gear|src/rules/techcommander/battle/repair.rs|s/let target = Target \{ damage_reduction: 0, negates_fire_control: false, \.\.friend\.target\.clone\(\) \};/let target = friend.target.clone();/'
    'repair-capped-at-20|src/rules/techcommander/battle/repair.rs|s/s\.life\[f\] = \(before \+ gained\)\.min\(STARTING_LIFE as i32\);/s.life[f] = before + gained;/'
    'repair-once-a-turn|src/rules/techcommander/battle/repair.rs|s/        s\.used\[r\] \|= REPAIR_BIT;\n//'
    'shield-recharges|src/rules/techcommander/attack_run/shield.rs|s/_ => at\(l, fresh, u\),/_ => at(l, s, u),/'
    'shield-targeted-as-ac5|src/rules/techcommander/attack_run/shield.rs|s/CompiledSide::new\(attacker, &Target::bubble_shield\(\), &at_shield\(cond\), o, policy\)/CompiledSide::new(attacker, \&Target { damage_ac: 1, ..target.clone() }, \&at_shield(cond), o, policy)/'
    'shield-ignores-postures|src/rules/techcommander/attack_run/shield.rs|s/let statuses = Statuses \{ forest: cond\.statuses\.forest, \.\.Statuses::default\(\) \};/let statuses = cond.statuses;/'
    'shield-leave-to-fire|src/rules/techcommander/duel.rs|s/\(cover\[who\], settled\[who\]\) = \(0, true\);//'
    'shield-no-drop-after-a-fall|src/rules/techcommander/duel.rs|s/settled\[d\] \|= cover\[d\] == 0;//'
    'shield-exact-duel-recharges|src/rules/techcommander/exact_duel.rs|s/let cover = c\.cover\.map\(\|l\| if l > 0 \{ SHIELD_LIFE as u8 \} else \{ 0 \}\);/let cover = c.cover;/'
    'shield-exact-duel-leave-to-fire|src/rules/techcommander/exact_duel.rs|s/\(n\.cover\[who\], n\.settled\[who\]\) = \(0, true\);//'
    'mechcom-exact-split-order|src/rules/mechcom/duel_chain.rs|s/let forced = \[given\.unwrap_or\(0\)\];/let forced = [1 - given.unwrap_or(0)];/'
    'shield-exact-duel-no-drop-after-a-fall|src/rules/techcommander/exact_duel.rs|s/m\.settled\[d\] \|= left == 0;//'
    'battle-shield-recharges|src/rules/techcommander/battle/shield.rs|s/                s\.cover\[u\] = SHIELD_LIFE as u8;\n//'
    'battle-shield-leave-to-fire|src/rules/techcommander/battle/shield.rs|s/            s\.cover\[a\] = 0;\n//'
    'battle-shield-no-drop-after-a-fall|src/rules/techcommander/battle/shield.rs|s/s\.cover\[t\] == 0 && s\.spare\[t\] > 0 && !s\.settled\[t\] \{/s.cover[t] == 0 \&\& s.spare[t] > 0 {/'
    'battle-shield-bypass|src/rules/techcommander/battle/shield.rs|s/        if sh\.bypass\[a\] \{/        if false {/'
    'battle-shield-group-break-value|src/rules/techcommander/battle/shield_group.rs|s/Some\(\(break_value\(v, &self\.o\)\.kill \* broken \+ /Some((/'
    'battle-shield-assault-meets-shields|src/rules/techcommander/battle/shield_group.rs|s/at\(i \+ 1, shield0\(i \+ 1\), life0\(i \+ 1\)\)/at(i + 1, 0, life0(i + 1))/'
    'revival-clears-credit|src/rules/techcommander/battle/repair.rs|s/        s\.credit\[f\] = super::game::NO_CREDIT;\n//'
    # Skirmishers squad-fight throws (src/rules/skirmishers/battle/; the options are
    # Skirmishers', which the option loop above does not read, so their defaults are
    # mutated here):
    # skirmishers-grenades-played: GRENADES defaults to on; the mutation never throws.
    # skirmishers-squad-throw-better: SQUAD_THROW defaults to better; the mutation always.
    # skirmishers-squad-spacing-2: SQUAD_SPACING defaults to 2 dots; the mutation 3.
    # skirmishers-blast-catches-every-trooper: every trooper in the blast takes its ring
    #   (BLAST_ROLL_EACH: each its own cell); the mutation hits only the aimed-at one.
    # skirmishers-grenades-counted: a throw spends one of the 4 grenades; the mutation none.
    # skirmishers-no-arc-after-a-throw: a thrower sets no arc; the mutation keeps its arc.
    # skirmishers-blasts-at-end-of-turn: blasts go off after the side's last activation;
    #   the mutation sets each off at once.
    # skirmishers-fists-and-bayonet: FISTS_AND_BAYONET defaults to on; the mutation off.
    # skirmishers-bayonet-on-a-primary: a rifle or SMG carries its bayonet; the mutation
    #   gives every trooper only its fists.
    # skirmishers-morale-off: MORALE (an optional Advanced Combat rule) defaults to off;
    #   the mutation on.
    # skirmishers-squad-leadership-2: SQUAD_LEADERSHIP defaults to the book's standard 2;
    #   the mutation 3.
    # skirmishers-morale-from-4-dead: checks start at 4 dead; the mutation at 5.
    # skirmishers-shaken-no-action: a trooper that fails takes no action; the mutation
    #   sets its arc anyway.
    # MECHCOM Heat (src/rules/mechcom/heat.rs and duel_kernel.rs; the options are MECHCOM's,
    # which the option loop above does not read, so their defaults are mutated here):
    # mechcom-heat-played: HEAT_PLAYED defaults to on; the mutation turns Heat off.
    # mechcom-heat-policy: HEAT_POLICY defaults to vent-before-overheat; the mutation ignores Heat.
    # mechcom-malfunction-one-action: MALFUNCTION_ONE_ACTION defaults to on; the mutation repeats.
    # mechcom-programming-at-6-heat: Programming malfunctions at 6 Heat; the mutation at 7.
    # mechcom-searing-wave-2-heat: Searing Wave adds 2 Heat; the mutation 3.
    # mechcom-malfunction-ends-activation: becoming Malfunctioning ends the activation; the
    #   mutation keeps acting.
    # mechcom-malfunction-clears-on-a-six-exact / -run / -duel: the start-of-activation d6
    #   clears on a 6 (1/6); the mutations clear on a 5 or 6 (exact chain, run Monte Carlo,
    #   duel).
    # mechcom-reactor-heat-per-crit: Red-Hot Reactor adds a Heat per crit; the mutation none.
    # mechcom-duel-spot-used-up / -chain / -battle: a duel's or battle's attack uses up the
    #   Spot tokens its weapon consumes (§1); the mutations never use them up (duel Monte
    #   Carlo, exact chain, battle).
    # mechcom-spot-action-when-it-pays: SPOT_ACTION defaults to when-it-pays; the mutation
    #   never spots.
    # mechcom-spot-3-dice / mechcom-spot-six-places-a-token: the Spot action rolls 3d6 and
    #   each 6 places a token (§1 "Spotting"); the mutations roll 2d6, or count 5s too.
    # mechcom-spot-tokens-shared-in-battles: a battle prices a Spot with every living
    #   friend's attacks (SPOT_TOKENS_SHARED); the mutation with the spotter's own only.
    # mechcom-tracker-duel / -chain / -battle: a Tracker hit adds the Integrity lost in
    #   Spot tokens ("List of Perks"); the mutations add none (duel Monte Carlo, exact
    #   chain, battle).
    # mechcom-run-tracker-places-tokens: in an attack run a Tracker hit places the
    #   Integrity it took in Spot tokens; the mutation places none (token_run.rs).
    # mechcom-run-attack-uses-up-tokens: a run's attack uses up the tokens its weapon
    #   consumes also when the run places tokens; the mutation keeps them.
    # mechcom-run-spot-places-tokens-mc / -exact: a run's Spot places a token per six;
    #   the mutations place none (Monte Carlo, exact chain).
    # mechcom-multi-split: MULTI_POLICY defaults to split (the book's "may be split"); the
    #   mutation plays one target.
    # mechcom-multi-capped-at-integrity: a split weighs each die's expected Integrity
    #   taken capped at the target's Integrity left; the mutation uncapped.
    'skirmishers-grenades-played|src/rules/skirmishers/options.rs|s/grenades: bool = true,/grenades: bool = false,/'
    'skirmishers-squad-throw-better|src/rules/skirmishers/options.rs|s/squad_throw: Pick = Pick\("better"\),/squad_throw: Pick = Pick("always"),/'
    'skirmishers-squad-spacing-2|src/rules/skirmishers/options.rs|s/squad_spacing: i64 = 2,/squad_spacing: i64 = 3,/'
    'skirmishers-blast-catches-every-trooper|src/rules/skirmishers/battle/throwing.rs|s/let d = hex_distance\(at, self\.dot_of\(j\)\) as usize;/let d = if j == c { hex_distance(at, self.dot_of(j)) as usize } else { 99 };/'
    'skirmishers-grenades-counted|src/rules/skirmishers/battle/throwing.rs|s/s\.rounds\[t \* MAX_THROWS \+ g\] -= 1;//'
    'skirmishers-no-arc-after-a-throw|src/rules/skirmishers/battle/throwing.rs|s/s\.shots\[t \* MAX_GUNS\.\.\(t \+ 1\) \* MAX_GUNS\]\.fill\(0\);//'
    'skirmishers-blasts-at-end-of-turn|src/rules/skirmishers/battle/game.rs|s/if s\.pending_n > 0 && self\.slots\(side\)\.all\(\|u\| s\.done\[u\]\)/if s.pending_n > 0/'
    'skirmishers-fists-and-bayonet|src/rules/skirmishers/options.rs|s/fists_and_bayonet: bool = true,/fists_and_bayonet: bool = false,/'
    'skirmishers-bayonet-on-a-primary|src/rules/skirmishers/battle/compiled.rs|s/if ws\[0\]\.class == Class::Primary \{ bayonet\(\) \} else \{ fists\(\) \}/fists()/'
    'skirmishers-morale-off|src/rules/skirmishers/options.rs|s/morale: bool = false,/morale: bool = true,/'
    'skirmishers-squad-leadership-2|src/rules/skirmishers/options.rs|s/squad_leadership: i64 = 2,/squad_leadership: i64 = 3,/'
    'skirmishers-morale-from-4-dead|src/rules/skirmishers/battle/morale.rs|s/pub const MORALE_DEAD: u32 = 4;/pub const MORALE_DEAD: u32 = 5;/'
    'skirmishers-shaken-no-action|src/rules/skirmishers/battle/game.rs|s/if !s\.out\[t\] && s\.shaken\[t\] \{/if false {/'
    'mechcom-heat-played|src/rules/mechcom/options.rs|s/heat_played: bool = true,/heat_played: bool = false,/'
    'mechcom-heat-policy|src/rules/mechcom/options.rs|s/heat_policy: HeatPolicy = HeatPolicy::VentBeforeOverheat,/heat_policy: HeatPolicy = HeatPolicy::IgnoreHeat,/'
    'mechcom-malfunction-one-action|src/rules/mechcom/options.rs|s/malfunction_one_action: bool = true,/malfunction_one_action: bool = false,/'
    'mechcom-programming-at-6-heat|src/rules/mechcom/notes.rs|s/pub const PROGRAMMING_HEAT: u32 = 6;/pub const PROGRAMMING_HEAT: u32 = 7;/'
    'mechcom-searing-wave-2-heat|src/rules/mechcom/heat.rs|s/pub const SEARING_WAVE_HEAT: u32 = 2;/pub const SEARING_WAVE_HEAT: u32 = 3;/'
    'mechcom-malfunction-ends-activation|src/rules/mechcom/heat.rs|s/(m\.malfunctioning = true;\n\s+m\.heat = 0;\n)\s+break;\n/$1/'
    'mechcom-malfunction-clears-on-a-six-exact|src/rules/mechcom/heat.rs|s/vec!\[\(1, planner\.normal_round\(&cleared, score\)\?\), \(5, /vec![(2, planner.normal_round(\&cleared, score)?), (4, /'
    'mechcom-malfunction-clears-on-a-six-run|src/rules/mechcom/attack_run.rs|s/\(roll\(rng, 6\) != MALFUNCTION_CLEARS_ON\)/(roll(rng, 6) < MALFUNCTION_CLEARS_ON - 1)/'
    'mechcom-malfunction-clears-on-a-six-duel|src/rules/mechcom/duel_kernel.rs|s/roll\(&mut rngs\[who\], 6\) == MALFUNCTION_CLEARS_ON/roll(\&mut rngs[who], 6) >= MALFUNCTION_CLEARS_ON - 1/'
    'mechcom-reactor-heat-per-crit|src/rules/mechcom/duel_kernel.rs|s/minds\[foe\]\.heat \+= u32::from\(crits\);/minds[foe].heat += 0 * u32::from(crits);/'
    'mechcom-duel-spot-used-up|src/rules/mechcom/duel_kernel.rs|s/spot\[who\] = tokens - weapon\.spends/spot[who] = tokens - 0 * weapon.spends/'
    'mechcom-duel-spot-used-up-chain|src/rules/mechcom/duel_chain.rs|s/axis\.fired\(own, w, spent\)/axis.fired(own, w, 0 * spent)/'
    'mechcom-duel-spot-used-up-battle|src/rules/mechcom/battle/game.rs|s/s\.spot\[foe\] = tokens - weapon\.spends/s.spot[foe] = tokens - 0 * weapon.spends/'
    # Shellshock Weapons Selection, ammunition and physical attacks (src/rules/shellshock/;
    # its options are mutated here, as the option loop reads TechCommander's only):
    # shellshock-firing-limits-book: FIRING_LIMITS defaults to BOOK; the mutations OFF and
    #   SAME_CLASS_PAIRS.
    # shellshock-ammo-card: AMMO defaults to CARD (counts played); the mutation UNLIMITED.
    # shellshock-ammo-spent-run / -battle: a firing spends a round (attack-run and duel
    #   schedule, battle state); the mutations spend none.
    # shellshock-duel-turn-schedule: a duel fires each turn's own plans; the mutation fires
    #   the first turn's every turn.
    # shellshock-physical-book: PHYSICAL defaults to BOOK; the mutation OFF.
    # shellshock-physical-adjacent: a physical attack needs range 0-1; the mutation takes
    #   the card's range.
    # shellshock-one-physical-per-unit: one physical attack per unit, by the gunner with the
    #   most to gain; the mutation lets every gunner that can make one.
    # shellshock-physical-alone: a gunner making a physical attack fires nothing else; the
    #   mutation fires its other weapons too.
    # shellshock-dodge-two-levels: units firing at a dodging unit, and a dodging unit's
    #   gunners, lose two dice levels; the mutation none.
    # shellshock-dodge-adds-piloting: the dodging pilot's Piloting adds to the DV; the
    #   mutation adds nothing.
    # shellshock-dodging-pilot-holds-fire: a dodging pilot cannot fire; the mutation fires.
    # shellshock-immobile-never-dodges: an immobile unit does not dodge; the mutation dodges.
    # shellshock-duellists-both-dodge / shellshock-battle-units-both-dodge: under
    #   DODGE=ALWAYS every unit under fire dodges (both duel sides, every battle unit); the
    #   mutations let only the target dodge.
    # shellshock-dodge-never: DODGE defaults to NEVER (the book leaves it to the player);
    #   the mutation ALWAYS.
    'shellshock-firing-limits-book|src/rules/shellshock/options.rs|s/firing_limits: FiringLimits = FiringLimits::Book,/firing_limits: FiringLimits = FiringLimits::Off,/'
    'shellshock-firing-limits-any-pair|src/rules/shellshock/options.rs|s/firing_limits: FiringLimits = FiringLimits::Book,/firing_limits: FiringLimits = FiringLimits::SameClassPairs,/'
    'shellshock-ammo-card|src/rules/shellshock/options.rs|s/ammo: Pick = Pick\("CARD"\),/ammo: Pick = Pick("UNLIMITED"),/'
    'shellshock-ammo-spent-run|src/rules/shellshock/attack_run.rs|s/\*n -= 1;\n(\s+)spent = true;/spent = true;/'
    'shellshock-ammo-spent-battle|src/rules/shellshock/battle/game.rs|s/s\.ammo\[slot\.ammo_at\[g\] \+ b\] -= 1;//'
    'shellshock-duel-turn-schedule|src/rules/shellshock/duel.rs|s/for &g in self\.a\.turn\(t - 1\)/for \&g in self.a.turn(0)/'
    'shellshock-physical-book|src/rules/shellshock/options.rs|s/physical: Pick = Pick\("BOOK"\),/physical: Pick = Pick("OFF"),/'
    'shellshock-physical-adjacent|src/rules/shellshock/gunner.rs|s/ && !\(o\.physical\(\) && w\.kind == DvType::P && c\.range > 1\)//'
    'shellshock-one-physical-per-unit|src/rules/shellshock/gunner.rs|s/out\.push\(fire\.map\(\|f\| f\.0\)\);/out.push(punch.or(fire).map(|f| f.0));/'
    'shellshock-physical-alone|src/rules/shellshock/gunner.rs|s/menu\.punch\.push\(best\(punches\.iter\(\)\.map\(\|&i\| vec!\[i\]\)\.collect\(\)\)\);/menu.punch.push(best(punches.iter().map(|\&i| { let mut s = guns.clone(); s.push(i); s }).collect()));/'
    'shellshock-dodge-two-levels|src/rules/shellshock/gunner.rs|s/levels \+= 2;/levels += 0;/g'
    'shellshock-dodge-adds-piloting|src/rules/shellshock/gunner.rs|s/dodge_tn \+= piloting\(target\);//'
    'shellshock-dodging-pilot-holds-fire|src/rules/shellshock/gunner.rs|s/if c\.attacker_dodging && attacker\.pilot == Some\(gi as u32 \+ 1\) \{/if false {/'
    'shellshock-immobile-never-dodges|src/rules/shellshock/conditions.rs|s/let on = o\.dodge_always\(\) && !self\.immobile;/let on = o.dodge_always();/'
    'shellshock-duellists-both-dodge|src/rules/shellshock/ruleset/engagements.rs|s/let c = &c\.dodging\(o, true\);/let c = \&c.dodging(o, false);/'
    'shellshock-battle-units-both-dodge|src/rules/shellshock/battle/compiled.rs|s/\.dodging\(o, true\)/.dodging(o, false)/'
    'shellshock-dodge-never|src/rules/shellshock/options.rs|s/dodge: Pick = Pick\("NEVER"\),/dodge: Pick = Pick("ALWAYS"),/'
    'mechcom-spot-action-when-it-pays|src/rules/mechcom/options.rs|s/spot_action: SpotAction = SpotAction::WhenItPays,/spot_action: SpotAction = SpotAction::Never,/'
    'mechcom-spot-3-dice|src/rules/mechcom/spot.rs|s/pub const SPOT_DICE: u32 = 3;/pub const SPOT_DICE: u32 = 2;/'
    'mechcom-spot-six-places-a-token|src/rules/mechcom/spot.rs|s/\(f == SPOT_FACE\) as usize/(f >= SPOT_FACE - 1) as usize/'
    'mechcom-spot-tokens-shared-in-battles|src/rules/mechcom/battle/game.rs|s/\(lo as usize\.\.hi as usize\)\.filter\(\|&f\| s\.life\[f\] > 0\)/(lo as usize..hi as usize).filter(|\&f| f == me \&\& s.life[f] > 0)/'
    'mechcom-tracker-duel|src/rules/mechcom/duel_kernel.rs|s/if weapon\.tracker \{/if false \&\& weapon.tracker {/'
    'mechcom-tracker-chain|src/rules/mechcom/duel_chain.rs|s/let fired = if tracker \{/let fired = if false \&\& tracker {/'
    'mechcom-multi-split|src/rules/mechcom/options.rs|s/multi_policy: MultiPolicy = MultiPolicy::Split,/multi_policy: MultiPolicy = MultiPolicy::OneTarget,/'
    'mechcom-multi-capped-at-integrity|src/rules/mechcom/battle/game.rs|s/p \* f64::from\(loss\.min\(life\)\)/p * f64::from(loss)/'
    'mechcom-tracker-battle|src/rules/mechcom/battle/game.rs|s/if weapon\.tracker && s\.life\[foe\] > 0 \{/if false \&\& weapon.tracker \&\& s.life[foe] > 0 {/'
    'mechcom-run-tracker-places-tokens|src/rules/mechcom/token_run.rs|s/let t = node\.tokens - consumed \+ if tracker \{ loss \} else \{ 0 \};/let t = node.tokens - consumed;/'
    'mechcom-run-attack-uses-up-tokens|src/rules/mechcom/token_run.rs|s/let t = node\.tokens - consumed \+ if tracker/let t = node.tokens + if tracker/'
    'mechcom-run-spot-places-tokens-mc|src/rules/mechcom/token_run.rs|s/node = self\.after_spot\(n, placed\);/node = n.next[n.tokens as usize];/'
    'mechcom-run-spot-places-tokens-exact|src/rules/mechcom/token_run.rs|s/let to = self\.after_spot\(n, k as u32\);/let to = n.next[n.tokens as usize];/'
    # Skirmishers launchers and power-armour fists in squad fights
    # (src/rules/skirmishers/battle/blast.rs, compiled.rs):
    # skirmishers-launchers-played: LAUNCHERS defaults to on; the mutation never fires them.
    # skirmishers-launcher-ready-3-ap: a launcher that is not the active weapon costs 3 AP
    #   more (LAUNCHER_READY); the mutation none.
    # skirmishers-mounted-grenade-launcher-free: a grenade launcher under a rifle or SMG
    #   needs no switch; the mutation charges 3 AP.
    # skirmishers-launcher-ammo-counted: a launcher carries its Ammo column; the mutation
    #   unlimited rounds.
    # skirmishers-power-launcher-keeps-arcs: power armour fires its launcher and sets its
    #   other arcs; the mutation sets none (the basic trooper's rule).
    # skirmishers-power-launcher-arcs-with-ap-left: those arcs are paid from the AP the
    #   launcher leaves; the mutation from the full AP.
    # skirmishers-power-armour-fists: power armour has its fists at range 1; the mutation
    #   gives it a basic trooper's.
    'skirmishers-launchers-played|src/rules/skirmishers/options.rs|s/launchers: bool = true,/launchers: bool = false,/'
    'skirmishers-launcher-ready-3-ap|src/rules/skirmishers/battle/blast.rs|s/Some\(if mounted \|\| power \{ 0 \} else \{ 3 \}\)/Some(0)/'
    'skirmishers-mounted-grenade-launcher-free|src/rules/skirmishers/battle/blast.rs|s/Some\(if mounted \|\| power \{ 0 \} else \{ 3 \}\)/Some(if power { 0 } else { 3 })/'
    'skirmishers-launcher-ammo-counted|src/rules/skirmishers/battle/blast.rs|s/w\.ammo\.map_or\(UNLIMITED_ROUNDS,/w.ammo.filter(|_| false).map_or(UNLIMITED_ROUNDS,/'
    'skirmishers-power-launcher-keeps-arcs|src/rules/skirmishers/battle/blast.rs|s/keeps_arcs: power && /keeps_arcs: false \&\& /'
    'skirmishers-power-launcher-arcs-with-ap-left|src/rules/skirmishers/battle/throwing.rs|s/\.ap\[s\.col\[t\] as usize\] - th\.cost\);/.ap[s.col[t] as usize]);/'
    'skirmishers-power-armour-fists|src/rules/skirmishers/battle/compiled.rs|s/if power \{ power_fists\(\) \} else \{ basic \}/basic/'
    # free-dig-in-troops-and-crew-only: FREE_DIG_IN (on, the option loop flips it)
    #   declares only troops and crew ("Crew or troop units ... may be declared as being
    #   dug-in"); the mutation declares every unit.
    'free-dig-in-troops-and-crew-only|src/rules/techcommander/battle/game.rs|s/map\(\|u\| free && u\.kind\.rides\(\)\)/map(|u| free \&\& (u.kind.rides() || true))/'
    # split-shots-marginal-gain: a split gives each shot where it ADDS the most (a target
    #   that needs no more shots gains nothing from one); the mutation gives it where the
    #   target's share would score the most.
    'split-shots-marginal-gain|src/rules/techcommander/battle/split.rs|s/as usize \+ 1\) - now\[i\];/as usize + 1);/'
)

list_only=0
only=()
while [ $# -gt 0 ]; do
    case "$1" in
        --list) list_only=1 ;;
        --only)
            [ $# -ge 2 ] || { echo "--only needs a name" >&2; exit 2; }
            only+=("$2")
            shift
            ;;
        -h | --help)
            sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

wanted() {
    [ ${#only[@]} -eq 0 ] && return 0
    local n
    for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
    return 1
}

# Mutations as lines: KIND|NAME|FILE|ORIGINAL|MUTANT
#   option: ORIGINAL/MUTANT are defaults of `NAME: Type = VALUE,` in the option table
#   code:   ORIGINAL is unused, MUTANT is a perl substitution
mutations=()
# The defaults: `name: Type = value, kind, "help";` items of the `rule_options!` table.
defaults="$(perl -ne 'print "$1|$2\n" if /^\s+(\w+): [^=]+ = (.+?), (?:switch|int\(|num\(|choice|auto_or_int\()/' "$OPTIONS")"
while IFS='|' read -r name value; do
    [ -n "$name" ] || continue
    case "$value" in
        true) mutations+=("option|$name|$OPTIONS|$value|false") ;;
        Weight\(*\)) mutations+=("option|$name|$OPTIONS|$value|${value%)} + 1.0)") ;;
        false) mutations+=("option|$name|$OPTIONS|$value|true") ;;
        *[!0-9-]*)
            # A choice: Enum::Variant -> every other variant of Enum.
            enum="${value%%::*}"
            variants="$(ENUM="$enum" perl -ne 'if (/^pub enum \Q$ENV{ENUM}\E \{/) { $in = 1; next } if ($in) { if (/^\}/) { $in = 0 } elsif (/^    ([A-Z]\w*),\s*$/) { print "$1\n" } }' "$OPTIONS")"
            [ -n "$variants" ] || { echo "don't know how to mutate $name: $value" >&2; exit 2; }
            for v in $variants; do
                [ "$enum::$v" = "$value" ] || mutations+=("option|$name|$OPTIONS|$value|$enum::$v")
            done
            ;;
        *)
            mutations+=("option|$name|$OPTIONS|$value|$((value + 1))")
            [ "$BOTH_WAYS" = 1 ] && [ "$value" -gt 0 ] && mutations+=("option|$name|$OPTIONS|$value|$((value - 1))")
            ;;
    esac
done <<<"$defaults"
for m in "${CODE_MUTATIONS[@]}"; do
    IFS='|' read -r name file subst <<<"$m"
    mutations+=("code|$name|$file||$subst")
done

if [ -z "$defaults" ]; then
    echo "no defaults found in $OPTIONS" >&2
    exit 2
fi

if [ "$list_only" = 1 ]; then
    for m in "${mutations[@]}"; do
        IFS='|' read -r kind name file orig mutant <<<"$m"
        wanted "$name" || continue
        if [ "$kind" = option ]; then echo "$name: $orig -> $mutant"; else echo "$name: $file: $mutant"; fi
    done
    exit 0
fi

# Back up every file a mutation may touch; restore on every exit path.
backup="$(mktemp -d)"
files=("$OPTIONS")
for m in "${CODE_MUTATIONS[@]}"; do files+=("$(cut -d'|' -f2 <<<"$m")"); done
for f in "${files[@]}"; do mkdir -p "$backup/$(dirname "$f")" && cp -p "$f" "$backup/$f"; done
restore() {
    local f
    for f in "${files[@]}"; do
        # A plain copy (new modification time), so that cargo rebuilds the restored file.
        cmp -s "$backup/$f" "$f" || cp "$backup/$f" "$f"
    done
}
cleanup() {
    restore
    rm -rf "$backup"
}
trap cleanup EXIT
trap 'echo; echo "interrupted: files restored" >&2; exit 130' INT
trap 'exit 143' TERM HUP

run_tests() {
    # --foreground keeps the tests in this script's process group, so Ctrl-C reaches them.
    if command -v timeout >/dev/null; then
        timeout --foreground "$TIMEOUT" bash -c "exec $TESTS"
    else
        bash -c "exec $TESTS"
    fi
}

log="$(mktemp)"
caught=0
survived=()
unbuilt=()
total=0
start=$SECONDS
for m in "${mutations[@]}"; do
    IFS='|' read -r kind name file orig mutant <<<"$m"
    wanted "$name" || continue
    total=$((total + 1))
    restore
    if [ "$kind" = option ]; then
        label="$name $orig -> $mutant"
        NAME="$name" ORIG="$orig" MUTANT="$mutant" perl -pi -e \
            's/^(\s+\Q$ENV{NAME}\E: [^=]+ = )\Q$ENV{ORIG}\E,/$1$ENV{MUTANT},/' "$file"
    else
        label="$name (code: $mutant)"
        perl -0pi -e "$mutant" "$file"
    fi
    if cmp -s "$backup/$file" "$file"; then
        echo "NOT APPLIED  $label (the pattern no longer matches $file)"
        unbuilt+=("$label")
        continue
    fi
    printf '%-66s ' "$label"
    # A mutant that does not compile proves nothing about the tests: report it apart.
    if ! cargo test --no-run --quiet $BUILD_TARGETS >"$log" 2>&1; then
        echo "DOES NOT BUILD"
        unbuilt+=("$label")
        continue
    fi
    if run_tests >"$log" 2>&1; then
        echo "SURVIVED"
        survived+=("$label")
    else
        # "test result: FAILED. 55 passed; 2 failed; ..." per test binary; then the names.
        failed="$(perl -ne '$n += $1 if /test result: FAILED\. \d+ passed; (\d+) failed/; END { print $n + 0 }' "$log")"
        names="$(perl -ne 'if (/^failures:$/) { $in = 1; @n = (); next } if ($in) { if (/^    (\S+)$/) { push @n, $1 } elsif (/\S/) { $in = 0 } } END { print join(", ", @n[0 .. ($#n < 2 ? $#n : 2)]), (@n > 3 ? ", ..." : "") }' "$log")"
        echo "caught ($failed failed: $names)"
        caught=$((caught + 1))
    fi
done
restore
rm -f "$log"

echo
echo "$total mutations in $((SECONDS - start)) s: $caught caught, ${#survived[@]} survived, ${#unbuilt[@]} not run"
for s in "${survived[@]}"; do echo "  SURVIVED: $s"; done
for s in "${unbuilt[@]}"; do echo "  not run:  $s"; done
[ ${#survived[@]} -eq 0 ] && [ ${#unbuilt[@]} -eq 0 ]
