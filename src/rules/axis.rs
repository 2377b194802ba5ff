//! Condition axes: the named conditions a ruleset's engagements vary over. The shared
//! rooms (sweep grids, command-line flags, table columns, cell keys, charts) know a
//! ruleset's conditions only through its [`AxisSpec`]s and the canonical text of their
//! values; the ruleset alone turns a [`Point`] into its typed conditions.

use crate::output::{Cell, Column, Kind};

/// How an axis's values are written and read.
#[derive(Debug, Clone, Copy)]
pub enum AxisKind {
    /// A real number (`12`, `26.5`) read by `parse` (which states the range and unit in
    /// its errors); canonical text is Rust's shortest round-trip form of the `f64`.
    Number { parse: fn(&str) -> Result<f64, String> },
    /// A whole number from `min` to `max`; canonical text is the decimal number.
    Integer { min: i64, max: i64 },
    /// One name of a list, in the ruleset's order.
    Choice(&'static [&'static str]),
    /// On or off: a flag without value on the command line; canonical `true`/`false`.
    Switch,
    /// Any combination of names of a list: a repeatable flag; canonical `none` or the
    /// names in list order joined by `+` (`dug-in+forest`).
    Set(&'static [&'static str]),
}

/// The axis every ruleset calls `range` (the distance between the sides, in the
/// ruleset's unit): the one a range envelope spans and a gauntlet finds a best value of.
pub const RANGE_AXIS: &str = "range";

/// One condition axis of a ruleset.
#[derive(Debug, Clone, Copy)]
pub struct AxisSpec {
    /// The table column, the `[grid]` key of a scenario and the cell-key name
    /// (`range`, `cover`): lower case, `_` between words.
    pub name: &'static str,
    /// The command-line flag without dashes (`range`, `move`, `target-condition`).
    pub flag: &'static str,
    pub kind: AxisKind,
    /// The canonical value when none is given.
    pub default: &'static str,
    /// Help text for `--help` and `volley rulesets`: meaning, units, effect.
    pub help: &'static str,
    /// Help text where two sides fight each other (`duel`, `gauntlet`): the condition
    /// applies to each side as attacker and as target. Empty: `help`.
    pub duel_help: &'static str,
    /// Axis title on charts ("Range (inches)").
    pub label: &'static str,
    /// Unit of a number axis (`inches`, `hexes`); empty otherwise.
    pub unit: &'static str,
}

impl AxisSpec {
    /// The canonical text of a value written as `text`.
    ///
    /// # Errors
    /// A message naming the axis and, for names, the allowed values.
    pub fn canonical(&self, text: &str) -> Result<String, String> {
        let t = text.trim();
        match self.kind {
            AxisKind::Number { parse } => parse(t).map(|v| format!("{v}")),
            AxisKind::Integer { min, max } => match t.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v.to_string()),
                _ => Err(format!("{}: `{t}` is not a whole number from {min} to {max}", self.name)),
            },
            AxisKind::Choice(names) => names
                .iter()
                .find(|n| n.eq_ignore_ascii_case(t))
                .map(|n| n.to_string())
                .ok_or_else(|| format!("unknown {} `{t}`: expected one of {}", self.name, names.join(", "))),
            AxisKind::Switch => match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" => Ok("true".into()),
                "false" | "no" | "off" => Ok("false".into()),
                _ => Err(format!("{}: `{t}` is not true or false", self.name)),
            },
            AxisKind::Set(names) => {
                let mut on = vec![false; names.len()];
                for part in t.split('+').map(str::trim).filter(|p| !p.is_empty() && *p != "none") {
                    let i = names.iter().position(|n| n.eq_ignore_ascii_case(part)).ok_or_else(|| {
                        format!(
                            "unknown {} `{part}`: expected none or any of {} joined by +",
                            self.name,
                            names.join(", ")
                        )
                    })?;
                    on[i] = true;
                }
                Ok(join_set(names, &on))
            }
        }
    }

    /// The canonical text of a set given as separate names (a repeated flag).
    ///
    /// # Errors
    /// As [`AxisSpec::canonical`].
    pub fn canonical_list(&self, parts: &[String]) -> Result<String, String> {
        if parts.is_empty() {
            return Ok(self.default.to_string());
        }
        self.canonical(&parts.join("+"))
    }

    /// The column type of this axis in result tables.
    pub fn column_kind(&self) -> Kind {
        match self.kind {
            AxisKind::Number { .. } => Kind::Float,
            AxisKind::Integer { .. } => Kind::Int,
            AxisKind::Switch => Kind::Bool,
            AxisKind::Choice(_) | AxisKind::Set(_) => Kind::Text,
        }
    }

    /// This axis's table column: its name and type, its help as its meaning.
    pub fn column(&self) -> Column {
        Column { name: self.name, kind: self.column_kind(), doc: self.help, ci95: false }
    }

    /// The table cell of a canonical value.
    pub fn cell(&self, canonical: &str) -> Cell {
        match self.kind {
            AxisKind::Number { .. } => canonical.parse::<f64>().map_or(Cell::Null, Cell::Float),
            AxisKind::Integer { .. } => canonical.parse::<i64>().map_or(Cell::Null, Cell::Int),
            AxisKind::Switch => Cell::Bool(canonical == "true"),
            AxisKind::Choice(_) | AxisKind::Set(_) => Cell::Text(canonical.to_string()),
        }
    }

    /// The names a choice or set axis allows, in order (empty for numbers and switches).
    pub fn names(&self) -> &'static [&'static str] {
        match self.kind {
            AxisKind::Choice(n) | AxisKind::Set(n) => n,
            _ => &[],
        }
    }

    /// `number`, `integer`, `choice`, `switch` or `set` (manifests, `volley rulesets`).
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            AxisKind::Number { .. } => "number",
            AxisKind::Integer { .. } => "integer",
            AxisKind::Choice(_) => "choice",
            AxisKind::Switch => "switch",
            AxisKind::Set(_) => "set",
        }
    }

    /// Sort key of a canonical value: numbers by value, names by list position (sets by
    /// their bit pattern), so charts and tables keep the ruleset's order.
    pub fn order(&self, canonical: &str) -> f64 {
        match self.kind {
            AxisKind::Number { .. } | AxisKind::Integer { .. } => canonical.parse().unwrap_or(f64::INFINITY),
            AxisKind::Switch => f64::from(u8::from(canonical == "true")),
            AxisKind::Choice(n) => n.iter().position(|x| *x == canonical).map_or(f64::INFINITY, |i| i as f64),
            AxisKind::Set(n) => canonical
                .split('+')
                .filter_map(|p| n.iter().position(|x| *x == p))
                .map(|i| f64::from(1u32 << i.min(30)))
                .sum(),
        }
    }
}

fn join_set(names: &[&str], on: &[bool]) -> String {
    let picked: Vec<&str> = names.iter().zip(on).filter(|(_, on)| **on).map(|(n, _)| *n).collect();
    if picked.is_empty() { "none".into() } else { picked.join("+") }
}

/// One point of a ruleset's condition space: the canonical value of every axis and
/// flag of the ruleset, in the ruleset's order. Built only through [`Point::new`], so
/// every value is canonical and every axis is present.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Point {
    pairs: Vec<(&'static str, String)>,
}

impl Point {
    /// The point with `values` (axis name → text) over the defaults of `specs`.
    ///
    /// # Errors
    /// Every value that is not a value of its axis, and every name that is no axis.
    pub fn new(specs: &[AxisSpec], values: &[(&str, String)]) -> Result<Point, Vec<String>> {
        let mut errors = Vec::new();
        for (name, _) in values {
            if !specs.iter().any(|s| s.name == *name) {
                let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
                errors.push(format!("unknown condition `{name}`: expected one of {}", names.join(", ")));
            }
        }
        let mut pairs = Vec::with_capacity(specs.len());
        for s in specs {
            let text = values.iter().rev().find(|(n, _)| *n == s.name).map_or(s.default, |(_, v)| v.as_str());
            match s.canonical(text) {
                Ok(v) => pairs.push((s.name, v)),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() { Ok(Point { pairs }) } else { Err(errors) }
    }

    /// The canonical value of axis `name` (empty when the point has no such axis).
    pub fn get(&self, name: &str) -> &str {
        self.pairs.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v.as_str())
    }

    /// `(axis, canonical value)` in the ruleset's order.
    pub fn pairs(&self) -> &[(&'static str, String)] {
        &self.pairs
    }

    /// The canonical text `range=12|cover=none|...`: equal points give equal text.
    pub fn key(&self) -> String {
        self.pairs.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join("|")
    }

    /// The values of the axes `specs` (a prefix or subset of the point's) as table cells.
    pub fn cells(&self, specs: &[AxisSpec]) -> Vec<Cell> {
        specs.iter().map(|s| s.cell(self.get(s.name))).collect()
    }
}

/// Table columns of the axes `specs`, named and typed by axis.
pub fn columns(specs: &[AxisSpec]) -> Vec<(&'static str, Kind)> {
    specs.iter().map(|s| (s.name, s.column_kind())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(t: &str) -> Result<f64, String> {
        t.parse::<f64>().map_err(|_| "a number".to_string())
    }

    const SPECS: [AxisSpec; 4] = [
        AxisSpec {
            name: "range",
            flag: "range",
            kind: AxisKind::Number { parse: number },
            default: "12",
            help: "",
            duel_help: "",
            label: "Range",
            unit: "inches",
        },
        AxisSpec {
            name: "cover",
            flag: "cover",
            kind: AxisKind::Choice(&["none", "half"]),
            default: "none",
            help: "",
            duel_help: "",
            label: "Cover",
            unit: "",
        },
        AxisSpec {
            name: "engaged",
            flag: "engaged",
            kind: AxisKind::Switch,
            default: "false",
            help: "",
            duel_help: "",
            label: "",
            unit: "",
        },
        AxisSpec {
            name: "status",
            flag: "status",
            kind: AxisKind::Set(&["dug-in", "forest"]),
            default: "none",
            help: "",
            duel_help: "",
            label: "",
            unit: "",
        },
    ];

    #[test]
    fn values_become_canonical_text() {
        let p = Point::new(&SPECS, &[("range", "24.0".into()), ("status", "forest+dug-in".into())]).unwrap();
        assert_eq!(p.key(), "range=24|cover=none|engaged=false|status=dug-in+forest");
        assert_eq!(SPECS[0].canonical("26.50").unwrap(), "26.5");
        assert_eq!(SPECS[1].canonical("HALF").unwrap(), "half");
        assert_eq!(SPECS[2].canonical("yes").unwrap(), "true");
        assert_eq!(SPECS[3].canonical("none").unwrap(), "none");
    }

    #[test]
    fn bad_values_and_unknown_axes_are_all_reported() {
        let e = Point::new(&SPECS, &[("cover", "heavy".into()), ("smoke", "x".into()), ("engaged", "2".into())])
            .unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(e.iter().any(|m| m.contains("unknown condition `smoke`")), "{e:?}");
        assert!(e.iter().any(|m| m.contains("unknown cover `heavy`: expected one of none, half")), "{e:?}");
    }

    #[test]
    fn cells_and_order_follow_the_kind() {
        let p = Point::new(&SPECS, &[("engaged", "true".into())]).unwrap();
        assert_eq!(p.cells(&SPECS), vec![Cell::Float(12.0), "none".into(), Cell::Bool(true), "none".into()]);
        assert!(SPECS[1].order("half") > SPECS[1].order("none"));
        assert!(SPECS[3].order("dug-in+forest") > SPECS[3].order("forest"));
    }
}
