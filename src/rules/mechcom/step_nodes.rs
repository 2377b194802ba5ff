//! The attack run as a chain of sampling nodes, for the hot loop: one draw per *step*
//! (a group of consecutive attacks of one round, with the round's end if it is the
//! round's last group) instead of one per attack.
//!
//! A node is (kind of step, Integrity, tracked state). Its law is the exact convolution
//! of the step's per-attack laws (each attack's law depends on the state the earlier
//! attacks left), built from the attacks' own integer sampling tables: outcome "killed
//! by the j-th attack of the step", "killed by the round's end" (Burned), or "alive with
//! this Integrity and state", which names the next node. A kill in the middle of a step
//! therefore still counts on the right attack. The weights are integers over
//! `range = R_1(state) · M_2 · … · M_k` elementary events (R_1: the first attack's table
//! range in the node's state; M_j: the least common multiple of attack j's ranges over
//! every state), so one unbiased draw in `[0, range)` samples exactly the law that k
//! separate draws from the per-attack tables would. A step holds as many attacks as keep
//! that range within a u64.
//!
//! Steps whose per-attack laws and successors repeat share their nodes: the plan's tail
//! is periodic (from some step on, step s+p uses the laws of step s), so the node count
//! does not grow with the round cap.

use std::collections::HashMap;

use num_integer::Integer;

use crate::dice::SamplingTable;

use super::tracked::{BURNED, SHOCKED, STATES};

/// Most attacks one step holds.
const MAX_STEP_ATTACKS: usize = 8;
/// Longest period of the plan's tail that is looked for.
const MAX_PERIOD: usize = 8;

/// One attack's law in one state, reduced to coprime integer counts.
#[derive(Debug, Clone)]
struct AttackLaw {
    range: u64,
    /// Per outcome: (count, Integrity lost, condition bits added).
    outcomes: Vec<(u64, u32, u8)>,
}

impl AttackLaw {
    fn new(table: &SamplingTable, slots: &[(u32, u8)]) -> AttackLaw {
        let counts: Vec<u64> = (0..slots.len())
            .map(|i| {
                let hi = table.cumulative.get(i).copied().unwrap_or(table.range);
                let lo = if i == 0 { 0 } else { table.cumulative[i - 1] };
                hi - lo
            })
            .collect();
        let g = counts.iter().fold(0u64, |g, &c| g.gcd(&c)).max(1);
        AttackLaw {
            range: table.range / g,
            outcomes: counts.iter().zip(slots).map(|(&c, &(loss, adds))| (c / g, loss, adds)).collect(),
        }
    }
}

/// The outcome of one node's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeOutcome {
    /// Alive: the next step starts at this node.
    Next(u32),
    /// Destroyed: kill code 1..=k is the k-th attack of the step, k+1 the round's end.
    Kill(u8),
}

/// One node: integer weights of its outcomes (their sum is the draw's range).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub range: u64,
    pub slots: Vec<(u64, NodeOutcome)>,
}

/// One step of the plan: its round and, per kill code, the attack a kill counts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub round: u16,
    /// Index = kill code − 1; `None`: no attack made yet (a kill by Burned in a round
    /// with no attack before any attack).
    pub attack_of_kill: Vec<Option<u16>>,
}

/// The compiled chain: nodes, the start node and the plan's steps in order.
#[derive(Debug, Clone, PartialEq)]
pub struct StepNodes {
    pub nodes: Vec<Node>,
    pub start: u32,
    pub steps: Vec<Step>,
    /// Largest kill code + 1.
    pub codes: usize,
}

/// A step's laws: per attack, the law index; and whether the round ends with it.
type Group = (Vec<usize>, bool);

impl StepNodes {
    /// Builds the chain. `tables` yields, per law and tracked state (index = law ·
    /// STATES + state), the law's sampling table and each slot's (Integrity lost,
    /// condition bits added); `rounds` are the (start, end) plan steps of each round;
    /// `plan` is (law index, attack number) per plan step. `None` when some node would
    /// have more than `max_slots` outcomes or there would be more than `max_nodes` nodes.
    pub fn new<'a>(
        tables: impl Iterator<Item = (&'a SamplingTable, &'a [(u32, u8)])>,
        rounds: &[(usize, usize)],
        plan: &[(usize, u16)],
        full: u32,
        start_state: u8,
        max_slots: usize,
        max_nodes: usize,
    ) -> Option<StepNodes> {
        let laws: Vec<AttackLaw> = tables.map(|(t, s)| AttackLaw::new(t, s)).collect();
        // M of each law: the lcm of its ranges over every state (None: beyond a u64).
        let lcm: Vec<Option<u64>> =
            laws.chunks(STATES).map(|states| states.iter().try_fold(1u64, |m, l| checked_lcm(m, l.range))).collect();
        let (groups, steps) = split(rounds, plan, &lcm);
        let kinds = kinds(&groups);
        let codes = groups.iter().map(|g| g.0.len() + 2).max().unwrap_or(2);
        let mut b = Builder { laws: &laws, lcm: &lcm, full, index: HashMap::new(), queue: Vec::new() };
        let start = b.node(kinds.of_step[0], full, start_state);
        let mut nodes = Vec::new();
        while let Some(&(kind, life, state)) = b.queue.get(nodes.len()) {
            if b.queue.len() > max_nodes {
                return None;
            }
            let (group, next_kind) = (&groups[kinds.group[kind]], kinds.next[kind]);
            let node = b.law(group, next_kind, life, state);
            if node.slots.len() > max_slots {
                return None;
            }
            nodes.push(node);
        }
        Some(StepNodes { nodes, start, steps, codes })
    }
}

fn checked_lcm(a: u64, b: u64) -> Option<u64> {
    (a / a.gcd(&b)).checked_mul(b)
}

/// Cuts each round into groups of consecutive attacks whose ranges multiply within a
/// u64; returns the distinct groups by step and the steps.
fn split(rounds: &[(usize, usize)], plan: &[(usize, u16)], lcm: &[Option<u64>]) -> (Vec<Group>, Vec<Step>) {
    let mut groups = Vec::new();
    let mut steps = Vec::new();
    for (round, &(start, end)) in rounds.iter().enumerate() {
        let last_attack = (end > 0).then(|| plan[end - 1].1);
        if start == end {
            groups.push((Vec::new(), true));
            steps.push(Step { round: round as u16, attack_of_kill: vec![last_attack] });
            continue;
        }
        let mut i = start;
        while i < end {
            let mut laws = vec![plan[i].0];
            let mut product = lcm[plan[i].0].map(u128::from);
            let mut j = i + 1;
            while j < end && laws.len() < MAX_STEP_ATTACKS {
                let next = match (product, lcm[plan[j].0]) {
                    (Some(p), Some(m)) => p.checked_mul(m as u128).filter(|&q| q <= u64::MAX as u128),
                    _ => None,
                };
                let Some(q) = next else { break };
                product = Some(q);
                laws.push(plan[j].0);
                j += 1;
            }
            let ends_round = j == end;
            let mut attack_of_kill: Vec<Option<u16>> = plan[i..j].iter().map(|s| Some(s.1)).collect();
            if ends_round {
                attack_of_kill.push(last_attack);
            }
            groups.push((laws, ends_round));
            steps.push(Step { round: round as u16, attack_of_kill });
            i = j;
        }
    }
    (groups, steps)
}

/// Kinds of steps: steps of one kind share their nodes (same laws, same successor kind).
struct Kinds {
    of_step: Vec<usize>,
    /// Per kind: the index of its group (a step of that kind) and its successor kind.
    group: Vec<usize>,
    next: Vec<usize>,
}

/// A prefix of steps with kinds of their own, then a periodic tail: the (prefix, period)
/// with the fewest kinds such that step s and s+period have the same laws for every s
/// from the prefix on. The last step's successor (never used: the run ends there) is
/// its place in the period.
fn kinds(groups: &[Group]) -> Kinds {
    let n = groups.len();
    let (t, p) = (1..=MAX_PERIOD.min(n))
        .map(|p| {
            let mut t = n - p;
            while t > 0 && groups[t - 1] == groups[t - 1 + p] {
                t -= 1;
            }
            (t, p)
        })
        .min_by_key(|&(t, p)| t + p)
        .expect("at least one step");
    let of_step: Vec<usize> = (0..n).map(|s| if s < t { s } else { t + (s - t) % p }).collect();
    let group = (0..t + p).collect();
    let next = (0..t + p).map(|k| if k + 1 < t + p { k + 1 } else { t }).collect();
    Kinds { of_step, group, next }
}

struct Builder<'a> {
    laws: &'a [AttackLaw],
    lcm: &'a [Option<u64>],
    full: u32,
    index: HashMap<(usize, u32, u8), u32>,
    /// Nodes in order of creation: (kind, Integrity, state).
    queue: Vec<(usize, u32, u8)>,
}

impl Builder<'_> {
    fn node(&mut self, kind: usize, life: u32, state: u8) -> u32 {
        let queue = &mut self.queue;
        *self.index.entry((kind, life, state)).or_insert_with(|| {
            queue.push((kind, life, state));
            queue.len() as u32 - 1
        })
    }

    /// The exact law of one step from (life, state).
    fn law(&mut self, group: &Group, next_kind: usize, life: u32, state: u8) -> Node {
        let (laws, ends_round) = group;
        let cell = |l: u32, s: u8| l as usize * STATES + s as usize;
        let mut alive = vec![0u128; (self.full as usize + 1) * STATES];
        alive[cell(life, state)] = 1;
        let mut kills = vec![0u128; laws.len() + 1];
        for (j, &law) in laws.iter().enumerate() {
            // Elementary events of the attacks after this one (not drawn after a kill).
            let rest: u128 = laws[j + 1..].iter().map(|&l| self.lcm[l].expect("grouped laws fit") as u128).product();
            let mut next = vec![0u128; alive.len()];
            for l in 1..=self.full {
                for s in 0..STATES as u8 {
                    let w = alive[cell(l, s)];
                    if w == 0 {
                        continue;
                    }
                    let a = &self.laws[law * STATES + s as usize];
                    let scale = if j == 0 { 1 } else { (self.lcm[law].expect("grouped laws fit") / a.range) as u128 };
                    for &(c, loss, adds) in &a.outcomes {
                        let w = w * c as u128 * scale;
                        if loss >= l {
                            kills[j] += w * rest;
                        } else {
                            next[cell(l - loss, s | adds)] += w;
                        }
                    }
                }
            }
            alive = next;
        }
        // The round's end: Burned costs 1 (a kill: code k + 1), Shocked ends.
        let mut after = vec![0u128; alive.len()];
        for l in 1..=self.full {
            for s in 0..STATES as u8 {
                let w = alive[cell(l, s)];
                let (l, s) = if *ends_round { (l - (s & BURNED != 0) as u32, s & !SHOCKED) } else { (l, s) };
                if l == 0 {
                    kills[laws.len()] += w;
                } else {
                    after[cell(l, s)] += w;
                }
            }
        }
        let mut slots: Vec<(u128, NodeOutcome)> = Vec::new();
        for (j, &w) in kills.iter().enumerate() {
            if w > 0 {
                slots.push((w, NodeOutcome::Kill(j as u8 + 1)));
            }
        }
        for l in 1..=self.full {
            for s in 0..STATES as u8 {
                let w = after[cell(l, s)];
                if w > 0 {
                    let id = self.node(next_kind, l, s);
                    slots.push((w, NodeOutcome::Next(id)));
                }
            }
        }
        let g = slots.iter().fold(0u128, |g, &(w, _)| g.gcd(&w));
        let range = slots.iter().map(|&(w, _)| w / g).sum::<u128>();
        Node {
            range: u64::try_from(range).expect("a step's events fit a u64"),
            slots: slots.into_iter().map(|(w, o)| ((w / g) as u64, o)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::monte_carlo_tests::{ROUNDS, cells};
    use super::super::{AttackRun, Options, RunPolicy};
    use super::*;

    /// The chain of `run` with no limit on slots or nodes.
    fn chain(run: &AttackRun) -> StepNodes {
        let plan: Vec<(usize, u16)> = run.plan.iter().map(|s| (run.law_index(s), s.attack)).collect();
        StepNodes::new(run.tables(), &run.rounds, &plan, run.integrity, run.start_state, usize::MAX, 1 << 20)
            .expect("no limits")
    }

    /// P(killed in round r) and P(killed on attack a) of the node chain, by carrying the
    /// probability of every node through the steps.
    fn propagate(chain: &StepNodes, rounds: usize, attacks: usize) -> (Vec<f64>, Vec<f64>) {
        let mut mass = vec![0.0; chain.nodes.len()];
        mass[chain.start as usize] = 1.0;
        let (mut by_round, mut by_attack) = (vec![0.0; rounds], vec![0.0; attacks]);
        for step in &chain.steps {
            let mut next = vec![0.0; mass.len()];
            for (node, &m) in chain.nodes.iter().zip(&mass).filter(|(_, m)| **m > 0.0) {
                for &(w, o) in &node.slots {
                    let p = m * w as f64 / node.range as f64;
                    match o {
                        NodeOutcome::Next(id) => next[id as usize] += p,
                        NodeOutcome::Kill(code) => {
                            by_round[step.round as usize] += p;
                            if let Some(a) = step.attack_of_kill[code as usize - 1] {
                                by_attack[a as usize] += p;
                            }
                        }
                    }
                }
            }
            mass = next;
        }
        (by_round, by_attack)
    }

    #[test]
    fn the_node_chain_has_the_exact_chains_law() {
        let mut grouped = false;
        for (name, a, t, sit) in cells() {
            for policy in RunPolicy::ALL {
                let run = AttackRun::new(&a, &t, &sit, &Options::default(), policy, ROUNDS).unwrap();
                let c = chain(&run);
                grouped |= c.steps.len() < run.plan.len();
                let exact = run.exact();
                let (by_round, by_attack) = propagate(&c, ROUNDS as usize, run.plan.len());
                for (k, (p, e)) in by_round.iter().zip(&exact.kill_by_round).enumerate() {
                    assert!((p - e).abs() < 1e-12, "{name}, {policy}: round {}: {p} vs {e}", k + 1);
                }
                for (k, (p, e)) in by_attack.iter().zip(&exact.kill_by_attack).enumerate() {
                    assert!((p - e).abs() < 1e-12, "{name}, {policy}: attack {}: {p} vs {e}", k + 1);
                }
            }
        }
        assert!(grouped, "some step holds several attacks");
    }

    #[test]
    fn the_reference_run_draws_once_a_round_and_its_nodes_do_not_grow_with_the_round_cap() {
        let (_, a, t, sit) = cells().remove(0);
        let run = |rounds| AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), rounds).unwrap();
        let (short, long) = (chain(&run(12)), chain(&run(1000)));
        assert_eq!(short.steps.len(), 12);
        assert_eq!(long.steps.len(), 1000);
        assert_eq!(short.nodes.len(), long.nodes.len());
        // Two kinds of round (the first, then the rest) × Integrity 1..=10 × Burned or not.
        assert!(long.nodes.len() <= 40, "{}", long.nodes.len());
    }
}
