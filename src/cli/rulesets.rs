//! `volley rulesets`: the rulesets volley plays, with their axes, options and defaults.

use anyhow::Result;
use clap::Args;
use serde_json::{Value, json};

use super::args::FormatArgs;
use super::write_stdout;
use crate::output::Format;
use crate::rules::axis::AxisSpec;
use crate::rules::{RuleOptions, Ruleset, RulesetId, Visit};

#[derive(Debug, Args)]
pub struct RulesetsArgs {
    /// Only this ruleset
    #[arg(value_name = "NAME")]
    pub name: Option<RulesetId>,
    #[command(flatten)]
    pub format: FormatArgs,
}

fn axis_json(a: &AxisSpec) -> Value {
    json!({
        "name": a.name, "flag": format!("--{}", a.flag), "kind": a.kind_name(), "values": a.names(),
        "default": a.default, "unit": a.unit, "help": a.help,
    })
}

/// A ruleset's description as JSON.
struct Describe;

impl Visit for Describe {
    type Output = Value;
    fn visit<R: Ruleset>(self) -> Value {
        json!({
            "name": R::NAME,
            "title": R::TITLE,
            "turn": R::TURN,
            "catalogue": format!("loadouts/{}/", R::NAME),
            "sections": R::SECTIONS.toml.iter().map(|s| s.key()).collect::<Vec<_>>(),
            "listings": R::listings(),
            "policies": policies::<R>(),
            "default_policy": R::Policy::default().to_string(),
            "axes": R::axes().iter().map(axis_json).collect::<Vec<_>>(),
            "flags": R::flags().iter().map(axis_json).collect::<Vec<_>>(),
            "options": R::Options::specs().iter().map(|o| json!({ "name": o.name, "default": o.default, "values": o.values, "help": o.help })).collect::<Vec<_>>(),
            "detail_tables": R::detail_tables().iter().map(|d| d.name).collect::<Vec<_>>(),
            "battle_modes": R::BATTLE_MODES.iter().map(|m| json!({ "name": m.name, "help": m.help, "sides": [m.sides.0, m.sides.1] })).collect::<Vec<_>>(),
            "battle_policies": R::BATTLE_POLICIES,
            "build_space": (!R::SPACE.is_empty()).then_some(R::SPACE),
        })
    }
}

/// The names of a ruleset's policies.
fn policies<R: Ruleset>() -> Vec<String> {
    R::POLICIES.iter().map(|s| s.to_string()).collect()
}

fn text(v: &Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    let mut t = format!("{}  {}\n", s("name"), s("title"));
    t += &format!("  catalogue: {} (sections: {})\n", s("catalogue"), join(&v["sections"]));
    t +=
        &format!("  a turn is a {}; policies: {} (default {})\n", s("turn"), join(&v["policies"]), s("default_policy"));
    t += &format!("  detail tables: {}\n", join(&v["detail_tables"]));
    for m in v["battle_modes"].as_array().into_iter().flatten() {
        t += &format!("  battle `{}`: {}\n", m["name"].as_str().unwrap_or(""), m["help"].as_str().unwrap_or(""));
    }
    if v["battle_modes"].as_array().is_some_and(|m| !m.is_empty()) {
        t += &format!("  battle policies: {} (default first)\n", join(&v["battle_policies"]));
    }
    if let Some(space) = v["build_space"].as_str() {
        t += &format!("  build space (`search`, ad-hoc builds NAME[PART, N*PART]): {space}\n");
    }
    for (title, key) in [("axes (sweepable, one table column each)", "axes"), ("other condition flags", "flags")] {
        t += &format!("  {title}:\n");
        for a in v[key].as_array().into_iter().flatten() {
            let values = join(&a["values"]);
            let kind = if values.is_empty() { a["kind"].as_str().unwrap_or("").to_string() } else { values };
            t += &format!(
                "    {:<18} {:<20} [{kind}] default {}: {}\n",
                a["name"].as_str().unwrap_or(""),
                a["flag"].as_str().unwrap_or(""),
                a["default"].as_str().unwrap_or(""),
                a["help"].as_str().unwrap_or("")
            );
        }
    }
    let options = v["options"].as_array().map_or(&[][..], Vec::as_slice);
    t += &format!("  options (--option NAME=VALUE, scenario [options]): {}\n", options.len());
    for o in options {
        t += &format!(
            "    {}={}  {}\n",
            o["name"].as_str().unwrap_or(""),
            o["default"].as_str().unwrap_or(""),
            o["help"].as_str().unwrap_or("")
        );
    }
    t
}

fn join(v: &Value) -> String {
    v.as_array().into_iter().flatten().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")
}

pub fn run(args: &RulesetsArgs) -> Result<()> {
    let ids: Vec<RulesetId> = match args.name {
        Some(id) => vec![id],
        None => RulesetId::ALL.to_vec(),
    };
    let all: Vec<Value> = ids.iter().map(|id| id.visit(Describe)).collect();
    match args.format.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&all)? + "\n")),
        _ => write_stdout(&all.iter().map(text).collect::<Vec<_>>().join("\n")),
    }
}
