//! One side of an engagement compiled for the hot loop: per weapon system and fire-control
//! state, the exact action and its sampler, the policy's ranking, and starting rounds.

use super::action::ActionSpec;
use super::conditions::{AttackMode, Conditions};
use super::odds::system_action;
use super::options::Options;
use super::policy::{Policy, UNLIMITED};
use super::profile::{Attacker, Target};
use super::sampler::ActionSampler;

/// Fire control as the conditions give it.
pub const FC_NORMAL: usize = 0;
/// Fire control lost (a failed jury-rig roll).
pub const FC_LOST: usize = 1;
/// Most weapon systems one unit may have in an engagement (a bit mask tracks use).
pub const MAX_SYSTEMS: usize = 16;

/// An attacker compiled against one target under fixed conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledSide {
    pub name: String,
    pub actions_per_turn: u32,
    /// Starting rounds per system ([`UNLIMITED`] for "NA"), padded to [`MAX_SYSTEMS`].
    pub rounds: [u16; MAX_SYSTEMS],
    /// `specs[fc][system]`: what the system rolls, `None` when it cannot fire.
    pub specs: [Vec<Option<ActionSpec>>; 2],
    pub samplers: [Vec<Option<ActionSampler>>; 2],
    /// `ranking[fc]`: systems in the policy's order of preference.
    pub ranking: [Vec<u8>; 2],
}

impl CompiledSide {
    /// Compile `attacker` firing at `target` under `cond`, played by the options `o`,
    /// with `policy`.
    ///
    /// # Errors
    /// Options out of range, an Omega Override, or more than [`MAX_SYSTEMS`] systems.
    pub fn new(
        attacker: &Attacker,
        target: &Target,
        cond: &Conditions,
        o: &Options,
        policy: Policy,
    ) -> Result<CompiledSide, String> {
        o.validate()?;
        if cond.mode == AttackMode::OmegaOverride {
            return Err("omega-override is an odds-only mode; engagements fire one weapon system per action".into());
        }
        if attacker.systems.len() > MAX_SYSTEMS {
            return Err(format!(
                "build `{}` has {} weapon systems; engagements handle at most {MAX_SYSTEMS}",
                attacker.name,
                attacker.systems.len()
            ));
        }
        let lost = Conditions { jury_rig_failed: true, ..*cond };
        let states = [*cond, lost];
        let specs = states.map(|c| {
            (0..attacker.systems.len())
                .map(|i| system_action(attacker, i, target, &c, o).ok().map(|(_, spec)| spec))
                .collect::<Vec<_>>()
        });
        let samplers = specs
            .clone()
            .map(|v: Vec<Option<ActionSpec>>| v.iter().map(|s| s.as_ref().map(ActionSampler::new)).collect::<Vec<_>>());
        let ranking = specs.clone().map(|v| {
            let scores: Vec<Option<(f64, f64)>> = v
                .iter()
                .map(|s| {
                    s.as_ref().map(|spec| {
                        let o = spec.odds();
                        (o.expected_life_loss, o.p_one_action_kill)
                    })
                })
                .collect();
            policy.rank(&scores)
        });
        let mut rounds = [0u16; MAX_SYSTEMS];
        for (r, s) in rounds.iter_mut().zip(&attacker.systems) {
            *r = s.rounds().map_or(UNLIMITED, |n| n.min(UNLIMITED as u32 - 1) as u16);
        }
        Ok(CompiledSide {
            name: attacker.name.clone(),
            actions_per_turn: attacker.actions_per_turn(cond.under_crewed),
            rounds,
            specs,
            samplers,
            ranking,
        })
    }
}
