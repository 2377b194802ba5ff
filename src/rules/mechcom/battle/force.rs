//! Forces resolved for a squad battle (§3 "Building a force"): every member a model
//! (`Mech`, `Mech+Pilot` or a `[[build]]`, as duels take), the force within its budget, one faction,
//! and each Ace or Mercenary card at most once (`ACES_MERCS_UNIQUE`).

use crate::catalogue::force::{ForceSpec, Member};
use crate::rules::mechcom::catalogue::squad::DEFAULT_BUDGET;
use crate::rules::mechcom::catalogue::{Catalogue, split_model_name};
use crate::rules::mechcom::mech::{Faction, Model, PilotKind};
use crate::rules::mechcom::options::Options;

/// One model of a resolved force.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceModel {
    /// The model name as written (`Mech` or `Mech+Pilot`), trimmed.
    pub name: String,
    /// The mech with its pilot's bonuses, no conditions.
    pub model: Model,
    /// Mech cost + pilot cost (+ profile cost for a `[[build]]`), in points (`COST_IS_PRINTED`).
    pub cost: u32,
}

/// A force ready for a battle: its models in the order written (copies expanded).
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedForce {
    pub name: String,
    pub models: Vec<ForceModel>,
    /// Sum of the models' costs.
    pub points: u32,
    /// The budget it was checked against: its own, else the book's 1000 points.
    pub budget: f64,
}

/// The members with every pilot joined to its mech. A force written as text is split at
/// every `+` ([`ForceSpec::parse`]), which also joins a mech to its pilot in MECHCOM
/// model names, so a member that names a pilot (and no mech) flies the member before
/// it: `Kerberos+Steady Hand+2*Pythia` is one `Kerberos+Steady Hand` and two Pythias,
/// and `2*Wasp+Rook` is two `Wasp+Rook`.
fn join_pilots(cat: &Catalogue, force: &ForceSpec) -> Result<Vec<Member>, String> {
    let who = &force.name;
    let mut out: Vec<Member> = Vec::with_capacity(force.members.len());
    for m in &force.members {
        if !m.passengers.is_empty() {
            return Err(format!("force `{who}`: `{}` carries passengers; MECHCOM forces have none", m.build));
        }
        let name = m.build.trim();
        if cat.mech(name).is_some() || cat.pilot(name).is_none() {
            out.push(m.clone());
            continue;
        }
        let Some(prev) = out.last_mut().filter(|p| split_model_name(&p.build).1.is_none()) else {
            return Err(format!("force `{who}`: pilot `{name}` follows no unpiloted mech (write MECH+PILOT)"));
        };
        if m.count != 1 {
            return Err(format!("force `{who}`: pilot `{name}` has a count; write N*MECH+PILOT"));
        }
        prev.build = format!("{}+{name}", prev.build.trim());
    }
    Ok(out)
}

/// Resolve `force` against the catalogue. In a force written as text, a member that
/// names a pilot (and no mech) flies the member before it: `Kerberos+Steady
/// Hand+2*Pythia` is one `Kerberos+Steady Hand` and two Pythias.
///
/// # Errors
/// A message naming the force for: an unknown mech or pilot (with the nearest name), a
/// pilot that may not fly its mech, neutral terrain, mixed factions, an Ace or Mercenary
/// card taken twice (when `ACES_MERCS_UNIQUE`), or a total over the budget (the message
/// gives the excess).
pub fn resolve_force(cat: &Catalogue, force: &ForceSpec, o: &Options) -> Result<ResolvedForce, String> {
    let who = &force.name;
    let members = join_pilots(cat, force)?;
    let mut models = Vec::new();
    let mut faction: Option<(Faction, String)> = None;
    let mut unique: Vec<(String, u32)> = Vec::new();
    for m in &members {
        let name = m.build.trim();
        let model = cat.model_named(name).map_err(|e| format!("force `{who}`: {e}"))?;
        let Some(f) = model.mech.faction else {
            return Err(format!(
                "force `{who}`: mech `{}` is neutral terrain: it cannot join a force",
                model.mech.name
            ));
        };
        match &faction {
            Some((first, first_name)) if *first != f => {
                return Err(format!(
                    "force `{who}`: mixed factions: `{name}` is {}, `{first_name}` is {} (a squad shares one faction)",
                    f.name(),
                    first.name()
                ));
            }
            Some(_) => {}
            None => faction = Some((f, name.to_string())),
        }
        if let Some(pilot) = cat.pilot_of(name)
            && pilot.kind != PilotKind::Regular
        {
            match unique.iter_mut().find(|(p, _)| *p == pilot.name) {
                Some((_, n)) => *n += m.count,
                None => unique.push((pilot.name.clone(), m.count)),
            }
        }
        let cost = cat.model_cost(name) as u32;
        for _ in 0..m.count {
            models.push(ForceModel { name: name.to_string(), model: model.clone(), cost });
        }
    }
    if o.aces_mercs_unique
        && let Some((pilot, n)) = unique.iter().find(|(_, n)| *n > 1)
    {
        return Err(format!(
            "force `{who}`: pilot `{pilot}` is taken {n} times: each Ace or Mercenary card is taken at most once (`ACES_MERCS_UNIQUE`)"
        ));
    }
    let points: u32 = models.iter().map(|m| m.cost).sum();
    let budget = force.budget.unwrap_or(DEFAULT_BUDGET as f64);
    if points as f64 > budget {
        return Err(format!(
            "force `{who}` is over budget by {}: it costs {points} points and its budget is {}",
            points as f64 - budget,
            budget
        ));
    }
    Ok(ResolvedForce { name: who.clone(), models, points, budget })
}
