//! `meta --search DIR --top N`: the players of a meta are the leaders of a search
//! (`volley search ... --out DIR`), read from its `search_leaderboard` table.

use std::path::Path;

use anyhow::{Context, Result};

use super::usage::usage;
use crate::output::read::read_table;

/// The first `top` candidates of the search report `dir`, by rank: ad-hoc build names
/// (`BASE[PART, ...]`) that every command taking a build accepts, or forces
/// (`BUILD+N*BUILD`) of a force search, which a meta plays with `battle`.
///
/// # Errors
/// `dir` is not a search report (no manifest, another kind, no leaderboard); a usage
/// error when the search was of another ruleset than `ruleset`, or of forces without
/// `battle` (or of builds with it).
pub fn leaders(dir: &Path, top: usize, ruleset: &str, battle: bool) -> Result<Vec<String>> {
    let manifest_path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("--search {}: not a search report (cannot read its manifest.json)", dir.display()))?;
    let manifest: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", manifest_path.display()))?;
    if manifest["kind"] != "search" {
        anyhow::bail!(
            "--search {}: a {} report, not a search report (written by `volley search ... --out DIR`)",
            dir.display(),
            manifest["kind"].as_str().unwrap_or("volley")
        );
    }
    let searched = manifest["ruleset"].as_str().unwrap_or("");
    if searched != ruleset {
        return Err(usage(format!(
            "--search {}: the search was of {searched}; play its meta with --ruleset {searched} (this command line plays {ruleset})",
            dir.display()
        )));
    }
    let forces = manifest["candidates"] == "forces";
    if forces != battle {
        return Err(usage(if forces {
            format!("--search {}: a search of forces: play its meta with --battle", dir.display())
        } else {
            format!(
                "--search {}: a search of builds: play its meta without --battle (players are builds)",
                dir.display()
            )
        }));
    }
    let Some((table, file)) = read_table(dir, "search_leaderboard")? else {
        anyhow::bail!("--search {}: the report has no search_leaderboard table", dir.display());
    };
    let mut ranked: Vec<(f64, String)> = Vec::with_capacity(table.rows.len());
    for row in 0..table.rows.len() {
        let (Some(rank), Some(candidate)) = (table.float(row, "rank"), table.text(row, "candidate")) else {
            anyhow::bail!("{}: row {} has no rank or candidate", dir.join(&file).display(), row + 1);
        };
        ranked.push((rank, candidate.to_string()));
    }
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(ranked.into_iter().take(top).map(|(_, c)| c).collect())
}
