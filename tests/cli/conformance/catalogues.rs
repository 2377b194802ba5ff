//! The small catalogues the suite writes into a temporary directory (`--loadouts DIR`):
//! a few entries of every section each ruleset has, with names and numbers not in the
//! shipped catalogues (keys as in `loadouts/<ruleset>/README.md`).

/// TechCommander: two weapons, a vehicle and an MSV, a gear, two builds, a field and two forces.
pub const TECHCOMMANDER: &str = r#"
[[weapon]]
name = "Tiny Zapper"
damage = 5
shots = 2
fire_control = 0
opt = 10
weight = 1
power = 1

[[weapon]]
name = "Tiny Lobber"
damage = 8
shots = 1
fire_control = 1
opt = 18
weight = 2
power = 2

[[gear]]
name = "Tiny Sight"
weight = 1
power = 1
ignores_smoke = true

[[unit]]
name = "Tinybot"
kind = "vehicle"
ac = 2

[[unit]]
name = "Tinywalker"
kind = "msv"
free_weight = 10
free_power = 10
ac = 3

[[build]]
name = "Bot Zap"
unit = "Tinybot"
weapons = [{ name = "Tiny Zapper" }]

[[build]]
name = "Walker Lob"
unit = "Tinywalker"
weapons = [{ name = "Tiny Lobber" }, { name = "Tiny Zapper" }]
gear = ["Tiny Sight"]

[[field]]
name = "tiny-field"
opponents = [{ build = "Bot Zap", weight = 2 }, { build = "Walker Lob", weight = 1 }]

[[force]]
name = "Zap Pair"
units = [{ build = "Bot Zap", count = 2 }]

[[force]]
name = "Lob Pair"
units = [{ build = "Walker Lob" }, { build = "Bot Zap" }]
"#;

/// MECHCOM: two weapons, two Corpro mechs, a pilot, a squad, a field and two forces.
pub const MECHCOM: &str = r#"
[[weapon]]
name = "Spark Cannon"
range = 5
damage = 2
attacks = 2

[[weapon]]
name = "Spark Rifle"
range = 7
damage = 1
attacks = 3

[[mech]]
name = "Sparker"
faction = "Corpro"
cost = 210
energy = 7
movement = 4
sensors = 8
stability = 3
strength = 0
armour = 3
integrity = 8
weapons = ["Spark Cannon"]

[[mech]]
name = "Plodder"
faction = "Corpro"
cost = 170
energy = 8
movement = 3
sensors = 7
stability = 4
strength = 1
armour = 4
integrity = 7
weapons = ["Spark Rifle"]

[[pilot]]
name = "Calm Hands"
type = "regular"
cost = 20
faction = "Corpro"
bonus = { stability = -1 }

[[squad]]
name = "Spark Squad"
faction = "Corpro"
members = [{ mech = "Sparker", pilot = "Calm Hands" }, "Plodder"]

[[field]]
name = "spark-field"
opponents = [{ mech = "Sparker", weight = 2 }, "Plodder"]

[[force]]
name = "Spark Pair"
units = [{ build = "Sparker", count = 2 }]

[[force]]
name = "Plod Trio"
units = [{ build = "Plodder", count = 2 }, { build = "Sparker" }]
"#;

/// Skirmishers: two weapons, two troopers and two squads (a squad is also a field and a force).
pub const SKIRMISHERS: &str = r#"
[[weapon]]
name = "Tiny Carbine"
class = "primary"
lethal = 3
shots = 2
short = 8
long = 24
pv = 40

[[weapon]]
name = "Tiny Sidearm"
class = "secondary"
lethal = 2
shots = 1
short = 4
long = 10
pv = 10

[[trooper]]
name = "Carbine Hand"
primary = "Tiny Carbine"
secondary = "Tiny Sidearm"
grenades = 0

[[trooper]]
name = "Vested Hand"
body_armor = "basic"
primary = "Tiny Carbine"
grenades = 0

[[squad]]
name = "Tiny Team"
members = [{ trooper = "Carbine Hand", count = 1 }, { trooper = "Vested Hand", count = 2 }]

[[squad]]
name = "Tiny Vests"
members = [{ trooper = "Vested Hand", count = 3 }]
"#;

/// Shellshock: two weapons, a chart, a modern and a ww2 unit, and a field.
pub const SHELLSHOCK: &str = r#"
[[weapon]]
name = "Tiny Gun"
type = "B"
damage = 5
shock = 3
penetration = 3
range = 120

[[weapon]]
name = "Tiny MG"
type = "SA"
damage = 2
shock = 1
penetration = 1
spreadfire = true
range = 60

[[chart]]
name = "tiny"
lines = "ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB"
equipment = [{ letter = "A", name = "Crew" }, { letter = "B", name = "Engine", kind = "engine", hits = 2 }]

[[unit]]
name = "Tiny Tank"
era = "modern"
defense = { B = 13, M = 12, E = 10, I = 12, SA = 22, P = 14 }
armor = { front = 8, side = 5, rear = 3 }
shock_threshold = 4
penetration_factor = 4
dead_at = 10
internal = [{ from = 3, percent = 10, hits = 1 }]
chart = "tiny"
gunners = [{ skill = 1, weapons = ["Tiny Gun", "Tiny MG"] }, { weapons = ["Tiny MG"] }]
ecv = 80

[[unit]]
name = "Tiny Scout"
era = "ww2"
defense = { B = 12, M = 11, E = 9, I = 11, SA = 21, P = 13 }
armor = { front = 5, side = 3, rear = 2 }
shock_threshold = 3
penetration_factor = 3
dead_at = 8
chart = "tiny"
gunners = [{ skill = 1, weapons = ["Tiny MG"] }]
ecv = 50

[[field]]
name = "tiny-pair"
opponents = [{ unit = "Tiny Tank", weight = 2 }, "Tiny Scout"]

[[force]]
name = "Tiny Lance"
units = [{ build = "Tiny Scout", count = 8 }]
"#;
