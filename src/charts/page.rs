//! The report page: `index.md` and a self-contained `index.html` (charts inline as SVG,
//! no network) with what was run, the headline findings, the charts and the tables.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use super::ReportTables;
use super::axes::ConditionSet;
use super::data::cost_bars;
use super::render::Chart;
use super::shape::CostChart;
use super::shape::ReportShape;
use crate::output::Table;
use crate::output::percent::{percent, percent_interval};
use crate::stats::interval::wilson95;

/// What [`findings`] reads of `time_to_kill` (besides the conditions).
pub const TTK_FINDING_COLUMNS: &[&str] = &["attacker", "target", "p_kill", "exact_p_kill", "exact_mean_turns"];

/// One headline finding: a sentence.
pub type Finding = String;

/// Mean of `col` per value of `key` over the rows `keep` accepts; sorted largest first.
fn ranked(
    t: &Table,
    key: &dyn Fn(&Table, usize) -> Option<String>,
    col: &str,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<(String, f64)> {
    let mut acc: Vec<(String, f64, usize)> = Vec::new();
    for i in 0..t.rows.len() {
        if !keep(i) {
            continue;
        }
        let (Some(k), Some(v)) = (key(t, i), t.float(i, col)) else { continue };
        match acc.iter_mut().find(|(n, _, _)| *n == k) {
            Some(e) => {
                e.1 += v;
                e.2 += 1;
            }
            None => acc.push((k, v, 1)),
        }
    }
    let mut out: Vec<(String, f64)> = acc.into_iter().map(|(k, s, n)| (k, s / n as f64)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// Row `i` of cell table `t` as "name value" per axis of `shape`: "altitude 50, weather rain".
fn row_conditions(t: &Table, i: usize, shape: &ReportShape) -> String {
    shape
        .axes
        .iter()
        .map(|a| format!("{} {}", a.name.replace('_', " "), a.cell(t, i).unwrap_or_else(|| "?".into())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The headline findings, computed from the tables. Cost rankings are those of the cost
/// charts of the first chart condition set (`at`): the same quantity, the same rows, the
/// same order, so the page never contradicts its charts. Conditions are named by the
/// axes of `shape`, turns by its word for a turn.
pub fn findings(tables: &ReportTables, shape: &ReportShape, at: &ConditionSet) -> Vec<Finding> {
    let turn = shape.turn.as_str();
    let mut out = Vec::new();
    if let Some(cost) = tables.get("cost_efficiency") {
        let mut charts = cost_bars(cost, at, turn, &shape.costs).into_iter().map(|(_, bars)| bars);
        let kill = charts.next().expect("the common cost chart");
        let ratio =
            |best: f64, worst: f64| if worst > 0.0 { format!("{:.1}× less", best / worst) } else { "none".into() };
        if let (Some(best), Some(worst)) = (kill.bars.first(), kill.bars.last())
            && kill.bars.len() > 1
        {
            out.push(format!(
                "Most efficient build per point ({}): **{}** destroys {:.3} target points per {turn} per point, mean over the targets; least efficient: **{}** ({:.3}), {}.",
                at.title_label(&[]),
                best.label,
                best.value,
                worst.label,
                worst.value,
                ratio(best.value, worst.value)
            ));
        }
        for (spec, chart) in shape.costs.iter().zip(charts) {
            let finding = CostChart::say(&spec.finding, turn);
            if !spec.weapons {
                if let (Some(best), Some(worst)) = (chart.bars.first(), chart.bars.last())
                    && chart.bars.len() > 1
                {
                    out.push(format!(
                        "{finding}: **{}** ({:.3}); least: **{}** ({:.3}).",
                        best.label, best.value, worst.label, worst.value
                    ));
                }
            } else if chart.bars.len() > 1 {
                let unit = CostChart::say(&spec.unit, turn);
                let top: Vec<String> =
                    chart.bars.iter().take(3).map(|b| format!("{} ({:.2} {unit})", b.label, b.value)).collect();
                let median = chart.bars[chart.bars.len() / 2].value;
                out.push(format!("{finding}: {}; the median weapon takes {median:.2}.", top.join(", ")));
            }
        }
    }
    out.extend(battle_findings(tables));
    out.extend(super::initiative_finding::initiative_findings(tables));
    if let Some(ttk) = tables.get("time_to_kill") {
        let mut never: Vec<String> = Vec::new();
        let mut count = 0;
        for i in 0..ttk.rows.len() {
            let p = ttk.float(i, "exact_p_kill").or_else(|| ttk.float(i, "p_kill")).unwrap_or(1.0);
            if p == 0.0 {
                count += 1;
                if never.len() < 5 {
                    never.push(format!(
                        "{} vs {} ({})",
                        ttk.text(i, "attacker").unwrap_or("?"),
                        ttk.text(i, "target").unwrap_or("?"),
                        row_conditions(ttk, i, shape),
                    ));
                }
            }
        }
        if count == 0 {
            out.push(format!("Every build can kill every target within the {turn} cap in every cell."));
        } else {
            out.push(format!(
                "In {count} of {} cells a build can never kill its target within the {turn} cap, e.g. {}.",
                ttk.rows.len(),
                never.join("; ")
            ));
        }
        let attacker = |t: &Table, i: usize| t.text(i, "attacker").map(str::to_string);
        let fastest = ranked(ttk, &attacker, "exact_mean_turns", &|_| true);
        if let (Some(slow), Some(fast)) = (fastest.first(), fastest.last())
            && fastest.len() > 1
        {
            out.push(format!(
                "Fastest killer: **{}** ({:.2} {turn}s on average when it kills); slowest: **{}** ({:.2}).",
                fast.0, fast.1, slow.0, slow.1
            ));
        }
    }
    if let Some(duels) = tables.get("duels") {
        let a = |t: &Table, i: usize| t.text(i, "a").map(str::to_string);
        let wins = ranked(duels, &a, "p_a_wins", &|_| true);
        if let (Some(best), Some(worst)) = (wins.first(), wins.last()) {
            out.push(format!(
                "Best duellist: **{}** wins {:.1}% of its duels on average; worst: **{}** ({:.1}%).",
                best.0,
                best.1 * 100.0,
                worst.0,
                worst.1 * 100.0
            ));
        }
        let draws = ranked(duels, &|_: &Table, _| Some("all".into()), "p_draw", &|_| true);
        if let Some((_, d)) = draws.first() {
            out.push(format!(
                "Draws (both destroyed in one {turn}, or both alive at the cap): {:.1}% of duels.",
                d * 100.0
            ));
        }
    }
    out
}

fn scenario_lines(manifest: &Value, shape: &ReportShape) -> Vec<(String, String)> {
    let s = &manifest["scenario"];
    let list = |v: &Value| {
        v.as_array()
            .map(|a| a.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let mut lines = vec![
        (
            "Scenario".to_string(),
            format!("{} ({})", s["name"].as_str().unwrap_or("?"), manifest["scenario_file"].as_str().unwrap_or("?")),
        ),
        ("Engagement".into(), s["engagement"].as_str().unwrap_or("?").to_string()),
        ("Attackers".into(), list(&manifest["attackers"])),
    ];
    if let Some(d) = s["description"].as_str() {
        lines.insert(1, ("Description".into(), d.to_string()));
    }
    if manifest["targets"].as_array().is_some_and(|a| !a.is_empty()) {
        lines.push(("Targets".into(), list(&manifest["targets"])));
    }
    if manifest["opponents"].as_array().is_some_and(|a| !a.is_empty()) {
        lines.push(("Opponents".into(), list(&manifest["opponents"])));
    }
    for axis in &shape.axes {
        let unit = axis.unit.as_ref().filter(|u| !u.is_empty()).map_or_else(String::new, |u| format!(" ({u})"));
        lines.push((format!("Grid: {}{unit}", axis.name), axis.values.join(", ")));
    }
    let turn = &shape.turn;
    lines.push((
        format!("Policy, {turn} cap"),
        format!("{}, {} {turn}s", s["policy"].as_str().unwrap_or("?"), s["max_turns"]),
    ));
    lines.push((
        "Engagements".into(),
        format!(
            "{} cells, {} engagements ({}), seed {}, {:.1} s at {:.1} M/s",
            manifest["cells"],
            manifest["engagements"],
            super::footer(manifest).split(" · ").nth(4).unwrap_or(""),
            manifest["seed"],
            manifest["wall_seconds"].as_f64().unwrap_or(0.0),
            manifest["engagements_per_second"].as_f64().unwrap_or(0.0) / 1e6
        ),
    ));
    lines.push((
        "Catalogue".into(),
        format!(
            "{} (hash {})",
            manifest["catalogue"]["origin"].as_str().unwrap_or("?"),
            manifest["catalogue"]["hash"].as_str().unwrap_or("?")
        ),
    ));
    lines
}

fn table_files(manifest: &Value) -> Vec<String> {
    manifest["files"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// What a report page shows besides findings and charts.
#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    pub title: String,
    /// "What was run", as (label, value) lines.
    pub lines: Vec<(String, String)>,
    /// Table files to link.
    pub files: Vec<String>,
}

impl PageInfo {
    /// A sweep report's page, from its manifest.
    pub fn of_sweep(manifest: &Value) -> PageInfo {
        PageInfo {
            title: format!("volley report: {}", manifest["scenario"]["name"].as_str().unwrap_or("?")),
            lines: scenario_lines(manifest, &ReportShape::of_manifest(manifest)),
            files: table_files(manifest),
        }
    }
}

/// A battle sweep's findings: each force's outright wins pooled over all its battles
/// (every seat, opponent and condition cell: integer counts summed, so a cell weighs by
/// its trials), with its Wilson 95% interval; the strongest and the weakest, and whether
/// their intervals overlap. Reads `battle_forces` when the sweep rotated its seats (the
/// seatings already pooled there), else `battles` (`force_a`/`p_a_wins`, and
/// `force_b`/`p_b_wins` where the table has them: two-player battles).
fn battle_findings(tables: &ReportTables) -> Vec<Finding> {
    let (b, columns): (&Table, &[(&str, &str)]) = match (tables.get("battle_forces"), tables.get("battles")) {
        (Some(f), _) => (f, &[("force", "p_wins")]),
        (None, Some(b)) => (b, &[("force_a", "p_a_wins"), ("force_b", "p_b_wins")]),
        (None, None) => return Vec::new(),
    };
    // (force, wins, trials), in first-seen order.
    let mut pooled: Vec<(String, u64, u64)> = Vec::new();
    for i in 0..b.rows.len() {
        let Some(trials) = b.float(i, "trials") else { continue };
        for &(force, col) in columns {
            let (Some(name), Some(p)) = (b.text(i, force), b.float(i, col)) else { continue };
            // p × trials is a count of battles, exact up to the float's rounding.
            let wins = (p * trials).round() as u64;
            match pooled.iter_mut().find(|r| r.0 == name) {
                Some(r) => {
                    r.1 += wins;
                    r.2 += trials as u64;
                }
                None => pooled.push((name.to_string(), wins, trials as u64)),
            }
        }
    }
    let rate = |r: &(String, u64, u64)| r.1 as f64 / r.2.max(1) as f64;
    pooled.sort_by(|x, y| rate(y).total_cmp(&rate(x)).then(x.0.cmp(&y.0)));
    match (pooled.first(), pooled.last()) {
        (Some(best), Some(worst)) if pooled.len() > 1 => {
            let (bi, wi) = (wilson95(best.1, best.2), wilson95(worst.1, worst.2));
            let say = |r: &(String, u64, u64), ci: &crate::stats::interval::Interval| {
                format!(
                    "**{}** wins {} of its battles (95% interval {})",
                    r.0,
                    percent(rate(r)),
                    percent_interval(ci.low, ci.high)
                )
            };
            let verdict = if bi.low <= wi.high {
                "their 95% intervals overlap: no force is clearly the strongest"
            } else {
                "their 95% intervals do not overlap"
            };
            vec![format!(
                "Strongest force: {}; weakest: {}. Wins pooled over seats, opponents and conditions; {verdict}.",
                say(best, &bi),
                say(worst, &wi)
            )]
        }
        _ => Vec::new(),
    }
}

/// `index.md`: summary, findings, charts (PNG), links to tables.
pub fn markdown(info: &PageInfo, findings: &[Finding], charts: &[Chart]) -> String {
    let mut md = format!("# {}\n\n", md_escape(&info.title));
    md += "## What was run\n\n| | |\n|---|---|\n";
    for (k, v) in info.lines.clone() {
        let _ = writeln!(md, "| {} | {} |", md_escape(&k), md_escape(&v));
    }
    md += "\n## Headline findings\n\n";
    for f in findings {
        let _ = writeln!(md, "- {}", md_escape(f));
    }
    md += "\n## Charts\n\n";
    for c in charts {
        let _ = writeln!(
            md,
            "### {}\n\n![{}](charts/{}.png)\n\n[SVG](charts/{}.svg) · [PNG, 300 dpi](charts/{}.png)\n",
            md_escape(c.title()),
            md_escape(c.title()),
            c.name,
            c.name,
            c.name
        );
    }
    md += "## Tables\n\nEvery column is explained in [COLUMNS.md](COLUMNS.md), beside the tables.\n\n";
    for f in &info.files {
        let _ = writeln!(md, "- [{f}]({f})");
    }
    md += "- [manifest.json](manifest.json)\n";
    md
}

/// Text for HTML: the markup characters as entities.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// Text for Markdown: HTML's markup characters as entities (Markdown passes raw HTML
/// through) and backslash, brackets and bar backslash-escaped, so a name never becomes a
/// tag, a link, an image or a table cell break (emphasis markers stay: findings bold
/// their numbers).
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '[' | ']' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Bold `**x**` markers to `<strong>`.
fn strong(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(s).split("**").enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<strong>{part}</strong>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// `index.html`: the same content, self-contained (inline CSS and SVG, no network).
pub fn html(info: &PageInfo, findings: &[Finding], charts: &[(Chart, String)]) -> String {
    let name = escape(&info.title);
    let mut h = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}</title>\n<style>\
body{{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1e1e1e;line-height:1.45}}\
table{{border-collapse:collapse}}td,th{{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:left;vertical-align:top}}\
figure{{margin:2em 0}}figure svg{{width:100%;height:auto;border:1px solid #eee}}figcaption{{font-size:.9em;color:#555}}\
</style></head><body>\n<h1>{name}</h1>\n<h2>What was run</h2>\n<table>\n"
    );
    for (k, v) in &info.lines {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    h += "</table>\n<h2>Headline findings</h2>\n<ul>\n";
    for f in findings {
        let _ = writeln!(h, "<li>{}</li>", strong(f));
    }
    h += "</ul>\n<h2>Charts</h2>\n";
    for (c, svg) in charts {
        let body = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
        let _ = writeln!(
            h,
            "<figure id=\"{}\">{body}<figcaption>{} · <a href=\"charts/{}.svg\">SVG</a> · <a href=\"charts/{}.png\">PNG, 300 dpi</a></figcaption></figure>",
            c.name,
            escape(c.title()),
            c.name,
            c.name
        );
    }
    h += "<h2>Tables</h2>\n<p>Every column is explained in <a href=\"COLUMNS.md\">COLUMNS.md</a>, beside the tables.</p>\n<ul>\n";
    for f in &info.files {
        let _ = writeln!(h, "<li><a href=\"{f}\">{f}</a></li>");
    }
    h += "<li><a href=\"manifest.json\">manifest.json</a></li>\n</ul>\n</body></html>\n";
    h
}

/// Write the column guide `guide` (the text of volley's `reports/COLUMNS.md`, rendered
/// by `sweep::column_guide`) into report directory `dir` as `COLUMNS.md`.
pub fn write_column_guide(dir: &Path, guide: &str) -> Result<()> {
    use crate::output::report_kind::COLUMN_GUIDE_FILE;
    std::fs::write(dir.join(COLUMN_GUIDE_FILE), guide).with_context(|| format!("cannot write {COLUMN_GUIDE_FILE}"))
}

/// Write `index.md` and `index.html` into `dir`, reading the SVGs from `dir/charts`. The
/// pages link the column guide, which the caller writes beside them
/// ([`write_column_guide`]).
pub fn write_page(dir: &Path, info: &PageInfo, found: &[Finding], charts: &[Chart]) -> Result<()> {
    std::fs::write(dir.join("index.md"), markdown(info, found, charts)).context("cannot write index.md")?;
    let mut with_svg = Vec::new();
    for c in charts {
        let path = dir.join("charts").join(format!("{}.svg", c.name));
        let svg = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        with_svg.push((c.clone(), svg));
    }
    std::fs::write(dir.join("index.html"), html(info, found, &with_svg)).context("cannot write index.html")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::table::Cell;

    fn battles(rows: &[(&str, &str, f64, f64, i64)]) -> Table {
        let mut t = Table::new(["force_a", "force_b", "p_a_wins", "p_b_wins", "trials"]);
        for &(a, b, pa, pb, n) in rows {
            t.push(vec![Cell::Text(a.into()), Cell::Text(b.into()), Cell::Float(pa), Cell::Float(pb), Cell::Int(n)]);
        }
        t
    }

    #[test]
    fn the_strongest_force_pools_win_counts_over_both_sides_with_intervals() {
        // X: 90 + 60 wins of 100 + 200 battles = 50%; Y: 10 + 120 of 300 = 43.3%
        // (weighted by trials: an equal-weight mean of the cells would give X 60%, Y 35%).
        let t = battles(&[("X", "Y", 0.9, 0.1, 100), ("Y", "X", 0.6, 0.3, 200)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", t)]));
        let ci = wilson95(150, 300);
        assert_eq!(f.len(), 1);
        assert!(f[0].starts_with("Strongest force: **X** wins 50.0% of its battles"), "{}", f[0]);
        assert!(f[0].contains(&percent_interval(ci.low, ci.high)), "{}", f[0]);
        assert!(f[0].contains("weakest: **Y** wins 43.3%"), "{}", f[0]);
        assert!(f[0].contains("intervals overlap"), "{}", f[0]);
        // Far apart on many battles: the intervals separate.
        let far = battles(&[("X", "Y", 0.99, 0.01, 10_000), ("Y", "X", 0.02, 0.97, 10_000)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", far)]));
        assert!(f[0].contains("do not overlap"), "{}", f[0]);
    }

    #[test]
    fn rotated_seatings_read_the_pooled_battle_forces() {
        let mut forces = Table::new(["force", "p_wins", "trials"]);
        for (name, p) in [("Red", 0.25), ("Green", 0.5), ("Blue", 0.25)] {
            forces.push(vec![Cell::Text(name.into()), Cell::Float(p), Cell::Int(6000)]);
        }
        // The seat rows of `battles` would say otherwise: they are not read.
        let seats = battles(&[("Red", "Green / Blue", 0.9, f64::NAN, 2000)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", seats), ("battle_forces", forces)]));
        assert!(f[0].starts_with("Strongest force: **Green** wins 50.0%"), "{}", f[0]);
        assert!(f[0].contains("weakest: **Red**"), "{}", f[0]);
    }

    #[test]
    fn names_are_text_in_markdown_and_html() {
        let hostile = "<script>&\"' [x](javascript:1) | <img onerror=y>";
        let md = md_escape(hostile);
        assert!(!md.contains('<') && !md.contains('>') && !md.contains("&\""), "{md}");
        assert_eq!(md, "&lt;script&gt;&amp;\"' \\[x\\](javascript:1) \\| &lt;img onerror=y&gt;");
        let html = escape(hostile);
        assert!(!html.contains(['<', '>', '"', '\'']), "{html}");
        assert_eq!(md_escape("**Dwarf** wins"), "**Dwarf** wins", "findings keep their bold");
    }
}
