//! A gauntlet report's charts and page (`volley gauntlet` draws them from its tables,
//! `volley chart` from the files of the report, with this code).

use serde_json::Value;

use super::data::{Bar, Bars, Heatmap};
use super::draw::percent;
use super::page::{Finding, PageInfo};
use super::render::{Chart, ChartKind};
use crate::output::Table;
use crate::output::percent::percent_interval;

/// What [`findings`] and [`gauntlet_charts`] read of `gauntlet_summary`.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "build",
    "points",
    "weighted_p_win",
    "weighted_p_win_ci95_low",
    "weighted_p_win_ci95_high",
    "weighted_p_draw",
    "best_matchup",
    "best_p_win",
    "worst_matchup",
    "worst_p_win",
];
/// What [`gauntlet_charts`] reads of `gauntlet_matchups`.
pub const MATCHUP_COLUMNS: &[&str] = &["build", "opponent", "p_win", "p_draw"];

/// A gauntlet's field: (opponent, weight), in the order given.
pub type Field = Vec<(String, f64)>;

/// The builds and the field a gauntlet manifest records.
pub fn builds_and_field(manifest: &Value) -> Result<(Vec<String>, Field), String> {
    let builds: Option<Vec<String>> =
        manifest["builds"].as_array().map(|a| a.iter().filter_map(|b| b.as_str().map(str::to_string)).collect());
    let field: Option<Field> = manifest["field"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| Some((f["build"].as_str()?.to_string(), f["weight"].as_f64()?))).collect());
    match (builds, field) {
        (Some(b), Some(f)) if !b.is_empty() && !f.is_empty() => Ok((b, f)),
        _ => Err("manifest.json lacks the gauntlet's `builds` or `field` (a list of {build, weight})".into()),
    }
}

/// The field as given on the command line (the manifest's scenario name is "gauntlet FIELD").
fn field_name(manifest: &Value) -> &str {
    let name = manifest["scenario"]["name"].as_str().unwrap_or("?");
    name.strip_prefix("gauntlet ").unwrap_or(name)
}

/// A condition key of canonical `axis=value` pairs (`range=20|terrain=open|...|flag=false`)
/// as reading text: "range 20, terrain open, ...", flags (`=true`/`=false`) named only
/// when set.
pub fn describe_key(key: &str) -> String {
    key.split('|')
        .filter_map(|kv| match kv.split_once('=') {
            Some((_, "false")) => None,
            Some((k, "true")) => Some(k.replace('_', " ")),
            Some((k, v)) => Some(format!("{} {v}", k.replace('_', " "))),
            None => Some(kv.to_string()),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The page's "what was run" lines and files, from the manifest alone.
pub fn page_info(manifest: &Value) -> PageInfo {
    let list = |v: &Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    let field: Vec<String> = manifest["field"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    format!(
                        "{} (weight {})",
                        f["build"].as_str().unwrap_or("?"),
                        f["weight"].as_f64().unwrap_or(f64::NAN)
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    PageInfo {
        title: format!("volley gauntlet: field {}", field_name(manifest)),
        lines: vec![
            ("Builds".into(), list(&manifest["builds"]).join(", ")),
            ("Field".into(), field.join(", ")),
            (
                "Conditions".into(),
                list(&manifest["conditions"]).iter().map(|k| describe_key(k)).collect::<Vec<_>>().join("; "),
            ),
            (
                "Engagements".into(),
                format!(
                    "{} over {}, seed {}",
                    crate::output::wording::count(manifest["engagements"].as_u64().unwrap_or(0), "duel"),
                    crate::output::wording::count(manifest["cells"].as_u64().unwrap_or(0), "cell"),
                    manifest["seed"]
                ),
            ),
            (
                "Catalogue".into(),
                format!(
                    "{} (hash {})",
                    manifest["catalogue"]["origin"].as_str().unwrap_or("?"),
                    manifest["catalogue"]["hash"].as_str().unwrap_or("?")
                ),
            ),
        ],
        files: list(&manifest["files"]),
    }
}

/// One sentence per build, best weighted win rate first, each with its wins per 100
/// cost units (`unit`) where the table has them; then which build wins most per cost,
/// or that the best are tied per cost.
pub fn findings(summary: &Table, unit: &str) -> Vec<Finding> {
    let mut rows: Vec<usize> = (0..summary.rows.len()).collect();
    rows.sort_by(|&a, &b| {
        summary.float(b, "weighted_p_win").unwrap_or(0.0).total_cmp(&summary.float(a, "weighted_p_win").unwrap_or(0.0))
    });
    let per_100 = |i: usize| {
        let f = |c: &str| summary.float(i, c).filter(|x| x.is_finite()).map(|x| 100.0 * x);
        Some((f("p_win_per_point")?, f("p_win_per_point_ci95_low")?, f("p_win_per_point_ci95_high")?))
    };
    let mut out: Vec<Finding> = rows
        .iter()
        .map(|&i| {
            let f = |c: &str| summary.float(i, c).unwrap_or(f64::NAN);
            let per_cost = per_100(i).map_or(String::new(), |(v, lo, hi)| {
                let t = crate::output::number::texts_apart(&[v, lo, hi], 2);
                format!("; {} wins per 100 {unit} (95% CI {} to {})", t[0], t[1], t[2])
            });
            format!(
                "**{}** ({} {unit}) wins {} of its weighted duels (95% CI {}){per_cost}, draws {}; best against {} ({}), worst against {} ({}).",
                summary.text(i, "build").unwrap_or("?"),
                crate::output::wording::cost(f("points")),
                percent(f("weighted_p_win")),
                percent_interval(f("weighted_p_win_ci95_low"), f("weighted_p_win_ci95_high")),
                percent(f("weighted_p_draw")),
                summary.text(i, "best_matchup").unwrap_or("?"),
                percent(f("best_p_win")),
                summary.text(i, "worst_matchup").unwrap_or("?"),
                percent(f("worst_p_win"))
            )
        })
        .collect();
    let mut by_cost: Vec<usize> = (0..summary.rows.len()).filter(|&i| per_100(i).is_some()).collect();
    by_cost.sort_by(|&a, &b| per_100(b).map_or(0.0, |x| x.0).total_cmp(&per_100(a).map_or(0.0, |x| x.0)));
    if let [top, ..] = by_cost[..]
        && by_cost.len() > 1
    {
        let name = summary.text(top, "build").unwrap_or("?");
        let tied = summary.text(top, "p_win_per_point_tied_with").unwrap_or("");
        out.push(if tied.is_empty() {
            format!(
                "Most wins per 100 {unit}: **{name}**, better per cost than every other build (each difference's 95% interval excludes 0)."
            )
        } else {
            format!("Most wins per 100 {unit}: **{name}**, a statistical tie per cost with {tied} (sidegrade).")
        });
    }
    out
}

/// The conditions of a gauntlet's condition keys (the manifest's `conditions`) as a chart
/// states them: one key read as [`describe_key`] ("range 12, cover none"); several, each
/// axis once with the values it takes, e.g. "mean over 2 conditions: range 12/24, cover
/// none". Empty without keys.
pub fn describe_conditions(keys: &[String]) -> String {
    if keys.len() <= 1 {
        return keys.first().map(|k| describe_key(k)).unwrap_or_default();
    }
    // axis -> values in first-seen order, axes in key order
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for key in keys {
        for kv in key.split('|') {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            match axes.iter_mut().find(|(a, _)| a == k) {
                Some((_, vs)) if !vs.iter().any(|x| x == v) => vs.push(v.to_string()),
                Some(_) => {}
                None => axes.push((k.to_string(), vec![v.to_string()])),
            }
        }
    }
    let parts: Vec<String> = axes
        .iter()
        .filter(|(_, vs)| vs.iter().any(|v| v != "false"))
        .map(|(k, vs)| {
            let k = k.replace('_', " ");
            if vs.len() == 1 && vs[0] == "true" { k } else { format!("{k} {}", vs.join("/")) }
        })
        .collect();
    format!("mean over {} conditions: {}", keys.len(), parts.join(", "))
}

/// The gauntlet's condition keys (the manifest's `conditions`).
pub fn condition_keys(manifest: &Value) -> Vec<String> {
    manifest["conditions"]
        .as_array()
        .map(|a| a.iter().filter_map(|k| k.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// The weighted win-rate bars and the matchup matrix (averaged over conditions), their
/// titles stating the conditions played (`conditions`: the manifest's condition keys,
/// see [`describe_conditions`]).
pub fn gauntlet_charts(
    summary: &Table,
    matchups: &Table,
    builds: &[String],
    field: &[(String, f64)],
    conditions: &[String],
) -> Vec<Chart> {
    let at = describe_conditions(conditions);
    let at = if at.is_empty() { String::new() } else { format!("; {at}") };
    let mut bars: Vec<Bar> = (0..summary.rows.len())
        .map(|i| Bar {
            label: summary.text(i, "build").unwrap_or("").to_string(),
            value: summary.float(i, "weighted_p_win").unwrap_or(0.0),
            low: summary.float(i, "weighted_p_win_ci95_low"),
            high: summary.float(i, "weighted_p_win_ci95_high"),
        })
        .collect();
    bars.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.label.cmp(&b.label)));
    let mean = |b: &str, o: &str, col: &str| {
        let v: Vec<f64> = (0..matchups.rows.len())
            .filter(|&i| matchups.text(i, "build") == Some(b) && matchups.text(i, "opponent") == Some(o))
            .filter_map(|i| matchups.float(i, col))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    let wins = builds.iter().map(|b| field.iter().map(|(o, _)| mean(b, o, "p_win")).collect()).collect();
    let draws = builds
        .iter()
        .map(|b| field.iter().map(|(o, _)| mean(b, o, "p_draw").map(|d| format!("draw {}", percent(d)))).collect())
        .collect();
    vec![
        Chart {
            name: "gauntlet-win-rate".into(),
            kind: ChartKind::Bars(Bars {
                title: format!("Weighted win rate against the field (95% interval{at})"),
                value_label: "P(win), weighted by how often each opponent is met".into(),
                bars,
            }),
            exact: false,
        },
        Chart {
            name: "gauntlet-matchups".into(),
            kind: ChartKind::Heatmap(Heatmap {
                title: format!(
                    "Gauntlet: P(build beats opponent), draw rate below ({})",
                    if conditions.len() > 1 {
                        at.trim_start_matches("; ").to_string()
                    } else {
                        format!("mean over conditions{at}")
                    }
                ),
                x_label: "Opponent (field)".into(),
                y_label: "Build".into(),
                x: field.iter().map(|(o, w)| format!("{o} (w {w})")).collect(),
                y: builds.to_vec(),
                panels: vec![(String::new(), wins)],
                notes: Some(vec![draws]),
                scale_label: "P(win)".into(),
            }),
            exact: false,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_keys_read_as_text() {
        let key = "altitude=20|weather=rain|wind=none|pilot_state=calm|lit=true|jammed_gun=false";
        assert_eq!(describe_key(key), "altitude 20, weather rain, wind none, pilot state calm, lit");
    }

    #[test]
    fn several_conditions_read_as_each_axis_and_its_values() {
        let keys: Vec<String> = ["range=12|cover=none|lit=false|dug=true", "range=24|cover=none|lit=false|dug=true"]
            .iter()
            .map(|k| k.to_string())
            .collect();
        assert_eq!(describe_conditions(&keys[..1]), "range 12, cover none, dug");
        assert_eq!(describe_conditions(&keys), "mean over 2 conditions: range 12/24, cover none, dug");
        assert_eq!(describe_conditions(&[]), "");
    }
}
