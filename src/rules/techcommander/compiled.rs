//! One side of an engagement compiled for the hot loop: per weapon system and fire-control
//! state (with or without Moneyshot), the exact action and its sampler, the policy's
//! ranking, and starting rounds.

use super::action::ActionSpec;
use super::conditions::{AttackMode, Conditions};
use super::odds::{self, system_action_with};
use super::options::Options;
use super::policy::{Policy, UNLIMITED};
use super::profile::{Attacker, Target};
use super::rulings::STARTING_LIFE;
use super::sampler::ActionSampler;

/// Fire control as the conditions give it.
pub const FC_NORMAL: usize = 0;
/// Fire control lost (a failed jury-rig roll).
pub const FC_LOST: usize = 1;
/// Added to a fire-control state: the same action with the Moneyshot bonus (the target's
/// life is at most the system's [`CompiledSide::moneyshot_life`]).
pub const MONEYSHOT: usize = 2;
/// Action tables per system: fire control as given or lost, each plain or with Moneyshot.
pub const TABLES: usize = 4;
/// [`CompiledSide::moneyshot_life`] of a system Moneyshot never helps: below any life.
pub const NO_MONEYSHOT: i32 = i32::MIN;
/// Most weapon systems one unit may have in an engagement (a bit mask tracks use).
pub const MAX_SYSTEMS: usize = 16;

/// An attacker compiled against one target under fixed conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledSide {
    pub name: String,
    pub actions_per_turn: u32,
    /// Starting rounds per system ([`UNLIMITED`] for "NA"), padded to [`MAX_SYSTEMS`].
    pub rounds: [u16; MAX_SYSTEMS],
    /// `specs[table][system]`, table = fire-control state (+ [`MONEYSHOT`]): what the
    /// system rolls, `None` when it cannot fire (or Moneyshot never applies to it).
    pub specs: [Vec<Option<ActionSpec>>; TABLES],
    pub samplers: [Vec<Option<ActionSampler>>; TABLES],
    /// Per system (padded to [`MAX_SYSTEMS`]): the target life at or below which the
    /// Moneyshot table applies ([`super::odds::moneyshot_life`]); [`NO_MONEYSHOT`] when
    /// never.
    pub moneyshot_life: [i32; MAX_SYSTEMS],
    /// `ranking[fc]`: systems in the policy's order of preference, ranked by their
    /// actions against the target at full life (Moneyshot included where it applies
    /// there).
    pub ranking: [Vec<u8>; 2],
}

impl CompiledSide {
    /// Compile `attacker` firing at `target` under `cond`, played by the options `o`,
    /// with `policy`. Every fire-control state and the Moneyshot tables are compiled
    /// here, so the hot loops only compare the target's life with
    /// [`CompiledSide::moneyshot_life`].
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
        let n = attacker.systems.len();
        let plain = |c: &Conditions, i: usize| system_action_with(attacker, i, target, c, o, false).ok().map(|a| a.1);
        let mut moneyshot_life = [NO_MONEYSHOT; MAX_SYSTEMS];
        for (i, life) in moneyshot_life.iter_mut().enumerate().take(n) {
            if let Some(l) = plain(cond, i).and_then(|spec| odds::moneyshot_life(attacker, &spec, cond, o)) {
                *life = l.min(i32::MAX as u32) as i32;
            }
        }
        let table = |c: &Conditions, moneyshot: bool| -> Vec<Option<ActionSpec>> {
            (0..n)
                .map(|i| {
                    if moneyshot && moneyshot_life[i] == NO_MONEYSHOT {
                        return None;
                    }
                    system_action_with(attacker, i, target, c, o, moneyshot).ok().map(|a| a.1)
                })
                .collect()
        };
        let specs = [table(cond, false), table(&lost, false), table(cond, true), table(&lost, true)];
        let samplers = specs
            .clone()
            .map(|v: Vec<Option<ActionSpec>>| v.iter().map(|s| s.as_ref().map(ActionSampler::new)).collect::<Vec<_>>());
        // What each system rolls at a target at full life, per fire-control state.
        let at_full_life = [FC_NORMAL, FC_LOST].map(|fc| {
            (0..n)
                .map(|i| {
                    let t = if moneyshot_life[i] >= STARTING_LIFE as i32 { fc + MONEYSHOT } else { fc };
                    specs[t][i].clone()
                })
                .collect::<Vec<_>>()
        });
        let ranking = at_full_life.map(|v| {
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
            moneyshot_life,
            ranking,
        })
    }
}
