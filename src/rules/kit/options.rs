//! One option table for every ruleset (see [`super`]).
//!
//! A room declares its options once, with [`rule_options!`](crate::rule_options): one
//! item per option, its typed field, default, kind (switch, integer or number with a
//! range, choice among names) and one line of help. The macro writes the options struct,
//! its `Default` and its [`Declared`] table; everything else is here, the same for every
//! ruleset:
//!
//! - names are matched in any case, with `-` or `_`; an unknown name gets the nearest;
//! - switches take `true`/`false`, `on`/`off` or `yes`/`no` in any case, and are
//!   written `true`/`false`;
//! - choices take their names in any case, with `-` or `_`, and are written as declared;
//! - integers and numbers are checked against their range when set;
//! - [`pairs`] gives the canonical `NAME=value` text that goes into cell keys and
//!   manifests, in declaration order;
//! - an option marked `fixed` takes other values but the kernels play only its default:
//!   [`check_played`] refuses the others, naming each.
//!
//! Every error is an [`OptionError`], a usage error: no run of any command could accept
//! the value.

use std::fmt;

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `true` or `false` (read also as `on`/`off`, `yes`/`no`).
    Switch,
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// A finite number in `min..=max`.
    Num { min: f64, max: f64 },
    /// One of these names, written as listed.
    Choice(&'static [&'static str]),
    /// `AUTO` or a whole number in `min..=max`.
    AutoOrInt { min: i64, max: i64 },
}

impl Kind {
    /// The values this kind takes, for messages and `volley rulesets`: "true or false",
    /// "a whole number from 0 to 100", "one of floor, ceil".
    pub fn describe(&self) -> String {
        match self {
            Kind::Switch => "true or false (on/off)".into(),
            Kind::Int { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Num { min, max } => format!("a number from {min} to {max}"),
            Kind::Choice(names) => format!("one of {}", names.join(", ")),
            Kind::AutoOrInt { min, max } => format!("AUTO or a whole number from {min} to {max}"),
        }
    }

    /// Read `text` as a value of this kind.
    ///
    /// # Errors
    /// `None` when `text` is not a value of this kind (out of range included).
    pub fn read(&self, text: &str) -> Option<Value> {
        let t = text.trim();
        match *self {
            Kind::Switch => read_switch(t).map(Value::Switch),
            Kind::Int { min, max } => t.parse::<i64>().ok().filter(|n| (min..=max).contains(n)).map(Value::Int),
            Kind::Num { min, max } => {
                t.parse::<f64>().ok().filter(|x| x.is_finite() && (min..=max).contains(x)).map(Value::Num)
            }
            Kind::Choice(names) => names.iter().find(|n| same_name(n, t)).map(|n| Value::Choice(n)),
            Kind::AutoOrInt { min, max } if t.eq_ignore_ascii_case("auto") => {
                let _ = (min, max);
                Some(Value::Auto)
            }
            Kind::AutoOrInt { min, max } => Kind::Int { min, max }.read(t),
        }
    }

    /// Whether `v` is a value of this kind, in range (a value written into a struct by
    /// code rather than read from text may not be).
    pub fn holds(&self, v: Value) -> bool {
        match (*self, v) {
            (Kind::Switch, Value::Switch(_)) | (Kind::AutoOrInt { .. }, Value::Auto) => true,
            (Kind::Int { min, max } | Kind::AutoOrInt { min, max }, Value::Int(n)) => (min..=max).contains(&n),
            (Kind::Num { min, max }, Value::Num(x)) => x.is_finite() && (min..=max).contains(&x),
            (Kind::Choice(names), Value::Choice(n)) => names.contains(&n),
            _ => false,
        }
    }
}

/// `true` for `true`/`on`/`yes`, `false` for `false`/`off`/`no`, any case.
fn read_switch(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" => Some(true),
        "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// Whether two names are the same in any case, with `-` and `_` alike.
fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().to_ascii_uppercase().replace('-', "_");
    norm(a) == norm(b)
}

/// One option's value, as the table reads and writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Switch(bool),
    Int(i64),
    Num(f64),
    /// A name of the option's [`Kind::Choice`] list.
    Choice(&'static str),
    /// `AUTO` of a [`Kind::AutoOrInt`].
    Auto,
}

impl fmt::Display for Value {
    /// The canonical text: `true`/`false`, decimal integers, numbers as JSON writes them
    /// (`0.25`, `3.0`), choices as declared, `AUTO`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Switch(b) => write!(f, "{b}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Num(x) => match serde_json::Number::from_f64(*x) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "{x}"),
            },
            Value::Choice(name) => f.write_str(name),
            Value::Auto => f.write_str("AUTO"),
        }
    }
}

/// A type an option field may have: it converts to and from a [`Value`].
pub trait OptionValue: Sized {
    /// The names of a choice type, in declaration order (empty for other types).
    const NAMES: &'static [&'static str] = &[];
    fn to_value(&self) -> Value;
    /// `None` for a value of another kind (never for a value its kind read).
    fn from_value(v: Value) -> Option<Self>;
}

impl OptionValue for bool {
    fn to_value(&self) -> Value {
        Value::Switch(*self)
    }
    fn from_value(v: Value) -> Option<bool> {
        if let Value::Switch(b) = v { Some(b) } else { None }
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl OptionValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
            fn from_value(v: Value) -> Option<$t> {
                if let Value::Int(n) = v { <$t>::try_from(n).ok() } else { None }
            }
        }
    )*};
}
int_value!(u32, i32, i64);

impl OptionValue for f64 {
    fn to_value(&self) -> Value {
        Value::Num(*self)
    }
    fn from_value(v: Value) -> Option<f64> {
        if let Value::Num(x) = v { Some(x) } else { None }
    }
}

/// A choice among names listed in the declaration (`choice("FLOOR", "CEIL")`), for an
/// option that needs no enum of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pick(pub &'static str);

impl OptionValue for Pick {
    fn to_value(&self) -> Value {
        Value::Choice(self.0)
    }
    fn from_value(v: Value) -> Option<Pick> {
        if let Value::Choice(n) = v { Some(Pick(n)) } else { None }
    }
}

/// `AUTO` or a whole number ([`Kind::AutoOrInt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AutoOr {
    Auto,
    Int(i64),
}

impl OptionValue for AutoOr {
    fn to_value(&self) -> Value {
        match self {
            AutoOr::Auto => Value::Auto,
            AutoOr::Int(n) => Value::Int(*n),
        }
    }
    fn from_value(v: Value) -> Option<AutoOr> {
        match v {
            Value::Auto => Some(AutoOr::Auto),
            Value::Int(n) => Some(AutoOr::Int(n)),
            _ => None,
        }
    }
}

/// Implement [`OptionValue`] for a choice enum: each variant with its name.
///
/// ```ignore
/// option_choices!(Rounding { Up = "up", Down = "down" });
/// ```
#[macro_export]
macro_rules! option_choices {
    ($($t:ident { $($v:ident = $n:literal),+ $(,)? })+) => {$(
        impl $crate::rules::kit::options::OptionValue for $t {
            const NAMES: &'static [&'static str] = &[$($n),+];
            fn to_value(&self) -> $crate::rules::kit::options::Value {
                $crate::rules::kit::options::Value::Choice(match self { $($t::$v => $n),+ })
            }
            fn from_value(v: $crate::rules::kit::options::Value) -> Option<$t> {
                match v {
                    $($crate::rules::kit::options::Value::Choice($n) => Some($t::$v),)+
                    _ => None,
                }
            }
        }
    )+};
}

/// One option as declared: what `volley rulesets` lists and what [`set`] checks.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDef {
    /// `NAME` in UPPER_SNAKE case, as the rules documents spell their rulings.
    pub name: String,
    pub kind: Kind,
    pub default: Value,
    /// One line: what it rules and where the rules document discusses it.
    pub help: &'static str,
    /// The kernels play the default only: other values are read, and refused by
    /// [`check_played`].
    pub fixed: bool,
}

/// A typed error of the option table. Every one is a usage error (exit 2): the value is
/// refused whatever the catalogue or files.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptionError {
    /// No option of that name; `nearest` is the closest name when one is close.
    #[error("unknown {ruleset} option `{name}`{}", nearest.as_ref().map(|n| format!(" (did you mean {n}?)")).unwrap_or_default())]
    Unknown { ruleset: &'static str, name: String, nearest: Option<String> },
    /// A value the option does not take.
    #[error("{ruleset} option {name}: `{value}` is not {expected}")]
    BadValue { ruleset: &'static str, name: String, value: String, expected: String },
    /// Values outside their option's range, as `NAME=value (what it takes)`.
    #[error("{ruleset} options out of range: {}", pairs.join(", "))]
    OutOfRange { ruleset: &'static str, pairs: Vec<String> },
    /// Values the kernels do not play, as `NAME=value`.
    #[error("{ruleset} does not play {}: only the default of each is played", pairs.join(", "))]
    NotPlayed { ruleset: &'static str, pairs: Vec<String> },
    /// A combination the room refuses, with its reason.
    #[error("{ruleset} options: {reason}")]
    Refused { ruleset: &'static str, reason: String },
}

impl OptionError {
    /// Always true: an option the run cannot take is a usage error.
    pub fn is_usage(&self) -> bool {
        true
    }
}

/// Its message, for library code whose errors are still text (kernels refuse options they
/// cannot play with `o.validate()?`).
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.to_string()
    }
}

/// A ruleset's options struct as written by [`rule_options!`](crate::rule_options).
pub trait Declared: Sized {
    /// The ruleset's display name, for messages (`Skirmishers`).
    const RULESET: &'static str;
    /// Every option in declaration order.
    fn defs() -> &'static [OptionDef];
    /// Option `i`'s value (`i` < `defs().len()`).
    fn value(&self, i: usize) -> Value;
    /// Set option `i` to `v`, a value its kind read.
    fn put(&mut self, i: usize, v: Value);
}

/// The position of option `name` (any case, `-` or `_`).
///
/// # Errors
/// [`OptionError::Unknown`] with the nearest name.
pub fn index<O: Declared>(name: &str) -> Result<usize, OptionError> {
    let defs = O::defs();
    defs.iter().position(|d| same_name(&d.name, name)).ok_or_else(|| {
        let key = name.trim().to_ascii_uppercase().replace('-', "_");
        OptionError::Unknown {
            ruleset: O::RULESET,
            name: name.trim().to_string(),
            nearest: crate::catalogue::error::closest(&key, defs.iter().map(|d| d.name.as_str())).map(str::to_string),
        }
    })
}

/// Set option `name` of `o` from text.
///
/// # Errors
/// An unknown name, or a value the option does not take (range included).
pub fn set<O: Declared>(o: &mut O, name: &str, value: &str) -> Result<(), OptionError> {
    let i = index::<O>(name)?;
    let def = &O::defs()[i];
    let v = def.kind.read(value).ok_or_else(|| OptionError::BadValue {
        ruleset: O::RULESET,
        name: def.name.clone(),
        value: value.trim().to_string(),
        expected: def.kind.describe(),
    })?;
    o.put(i, v);
    Ok(())
}

/// Option `name`'s value (a declared name; a programming error otherwise).
///
/// # Panics
/// When `name` is not declared.
pub fn get<O: Declared>(o: &O, name: &str) -> Value {
    o.value(index::<O>(name).unwrap_or_else(|e| panic!("{e}")))
}

/// Every option as canonical `(NAME, value)` text, in declaration order: part of every
/// cell key and manifest.
pub fn pairs<O: Declared>(o: &O) -> Vec<(String, String)> {
    O::defs().iter().enumerate().map(|(i, d)| (d.name.clone(), o.value(i).to_string())).collect()
}

/// The options whose value is not their default, as canonical `(NAME, value)`.
pub fn non_default<O: Declared>(o: &O) -> Vec<(String, String)> {
    O::defs()
        .iter()
        .enumerate()
        .filter(|(i, d)| o.value(*i) != d.default)
        .map(|(i, d)| (d.name.clone(), o.value(i).to_string()))
        .collect()
}

/// Refuse values out of their option's range (set in code rather than read from text),
/// then `fixed` options switched away from their default, naming each.
///
/// # Errors
/// [`OptionError::OutOfRange`], else [`OptionError::NotPlayed`].
pub fn check_played<O: Declared>(o: &O) -> Result<(), OptionError> {
    let out: Vec<String> = O::defs()
        .iter()
        .enumerate()
        .filter(|(i, d)| !d.kind.holds(o.value(*i)))
        .map(|(i, d)| format!("{}={} ({})", d.name, o.value(i), d.kind.describe()))
        .collect();
    if !out.is_empty() {
        return Err(OptionError::OutOfRange { ruleset: O::RULESET, pairs: out });
    }
    let bad: Vec<String> = O::defs()
        .iter()
        .enumerate()
        .filter(|(i, d)| d.fixed && o.value(*i) != d.default)
        .map(|(i, d)| format!("{}={}", d.name, o.value(i)))
        .collect();
    if bad.is_empty() { Ok(()) } else { Err(OptionError::NotPlayed { ruleset: O::RULESET, pairs: bad }) }
}

/// Declare a ruleset's options: the struct with one typed field per option, its
/// `Default`, and its [`Declared`] table. One item per option:
///
/// ```ignore
/// rule_options! {
///     "MyGame";
///     /// The rulings MyGame is played by.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct Options {
///         /// Field documentation.
///         smoke_pop: bool = true, switch, "§2 smoke gear pops smoke";
///         smoke_penalty: u32 = 6, int(0, 100), "§2 penalty for smoke";
///         damage_weight: f64 = 0.25, num(0.0, 100.0), "§2.7 weight of damage";
///         cover_bands: CoverBands = CoverBands::Minor, choice, "§2 which band";
///         half: Pick = Pick("FLOOR"), choice("FLOOR", "CEIL"), "§6 halves round down";
///         depth: AutoOr = AutoOr::Auto, auto_or_int(1, 60), "§8 rerolls kept";
///         no_map: bool = true, switch, "§4 no map", fixed;
///     }
/// }
/// ```
///
/// The option's `NAME` is the field's name in upper case. `fixed` marks an option whose
/// other values are read but refused by [`check_played`].
#[macro_export]
macro_rules! rule_options {
    (
        $ruleset:literal;
        $(#[$sm:meta])*
        pub struct $S:ident {
            $(
                $(#[$fm:meta])*
                $field:ident : $ty:ty = $default:expr, $k:ident $(($($a:expr),* $(,)?))?, $help:literal $(, $fixed:ident)?;
            )*
        }
    ) => {
        $(#[$sm])*
        pub struct $S {
            $( $(#[$fm])* pub $field: $ty, )*
        }

        impl Default for $S {
            fn default() -> $S {
                $S { $( $field: $default, )* }
            }
        }

        impl $S {
            /// Set option `name` (any case, `-` or `_`) from text.
            ///
            /// # Errors
            /// An unknown name (with the nearest), or a value the option does not take.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), $crate::rules::kit::options::OptionError> {
                $crate::rules::kit::options::set(self, name, value)
            }
            /// `self` with option `name` set from text.
            ///
            /// # Errors
            /// As [`Self::set`].
            pub fn with(mut self, name: &str, value: &str) -> Result<$S, $crate::rules::kit::options::OptionError> {
                self.set(name, value)?;
                Ok(self)
            }
            /// Every option as canonical `(NAME, value)`, in declaration order.
            pub fn pairs(&self) -> Vec<(String, String)> {
                $crate::rules::kit::options::pairs(self)
            }
            /// Every option as `NAME=value`, joined by `,`.
            pub fn canonical(&self) -> String {
                self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
            }
            /// Refuse values out of range and `fixed` options off their default.
            ///
            /// # Errors
            /// As [`check_played`]($crate::rules::kit::options::check_played).
            pub fn validate(&self) -> Result<(), $crate::rules::kit::options::OptionError> {
                $crate::rules::kit::options::check_played(self)
            }
        }

        impl $crate::rules::kit::options::Declared for $S {
            const RULESET: &'static str = $ruleset;
            fn defs() -> &'static [$crate::rules::kit::options::OptionDef] {
                use $crate::rules::kit::options::{OptionDef, OptionValue};
                static DEFS: std::sync::OnceLock<Vec<OptionDef>> = std::sync::OnceLock::new();
                DEFS.get_or_init(|| {
                    let d = $S::default();
                    vec![$(
                        OptionDef {
                            name: stringify!($field).to_ascii_uppercase(),
                            kind: $crate::rule_options!(@kind $ty, $k $(($($a),*))?),
                            default: d.$field.to_value(),
                            help: $help,
                            fixed: $crate::rule_options!(@fixed $($fixed)?),
                        },
                    )*]
                })
            }
            #[allow(unused_assignments)]
            fn value(&self, i: usize) -> $crate::rules::kit::options::Value {
                use $crate::rules::kit::options::OptionValue;
                let mut n = 0usize;
                $(
                    if i == n {
                        return self.$field.to_value();
                    }
                    n += 1;
                )*
                panic!("no option {i} in {}", $ruleset)
            }
            #[allow(unused_assignments)]
            fn put(&mut self, i: usize, v: $crate::rules::kit::options::Value) {
                use $crate::rules::kit::options::OptionValue;
                let mut n = 0usize;
                $(
                    if i == n {
                        self.$field = <$ty>::from_value(v).expect("a value of the option's kind");
                        return;
                    }
                    n += 1;
                )*
                panic!("no option {i} in {}", $ruleset)
            }
        }
    };
    (@kind $ty:ty, switch) => { $crate::rules::kit::options::Kind::Switch };
    (@kind $ty:ty, int($min:expr, $max:expr)) => {
        $crate::rules::kit::options::Kind::Int { min: $min as i64, max: $max as i64 }
    };
    (@kind $ty:ty, num($min:expr, $max:expr)) => {
        $crate::rules::kit::options::Kind::Num { min: $min as f64, max: $max as f64 }
    };
    (@kind $ty:ty, auto_or_int($min:expr, $max:expr)) => {
        $crate::rules::kit::options::Kind::AutoOrInt { min: $min as i64, max: $max as i64 }
    };
    (@kind $ty:ty, choice) => { $crate::rules::kit::options::Kind::Choice(<$ty as $crate::rules::kit::options::OptionValue>::NAMES) };
    (@kind $ty:ty, choice($($n:expr),+)) => { $crate::rules::kit::options::Kind::Choice(&[$($n),+]) };
    (@fixed) => { false };
    (@fixed fixed) => { true };
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
