//! The turn skeleton on a toy game whose actions only record who acted.

use rand::SeedableRng;

use super::*;

/// Sides with fixed initiative rolls and budgets per phase; side `passes_at` (side,
/// nth step) passes instead of acting.
struct Toy {
    rolls: Vec<u32>,
    budgets: Vec<[u32; 2]>,
    pass_at: Option<(usize, u32)>,
    pass_ends_turn: bool,
}

#[derive(Default)]
struct Log {
    steps: Vec<usize>,
    given: Vec<u32>,
}

impl BattleRules for Toy {
    type State = Log;
    type Action = ();
    fn sides(&self) -> usize {
        self.rolls.len()
    }
    fn units(&self) -> usize {
        self.rolls.len()
    }
    fn side_of(&self, unit: usize) -> usize {
        unit
    }
    fn max_turns(&self) -> u32 {
        1
    }
    fn phases(&self) -> usize {
        2
    }
    fn pass_ends_turn(&self) -> bool {
        self.pass_ends_turn
    }
    fn new_state(&self) -> Log {
        Log::default()
    }
    fn begin_battle(&self, s: &mut Log, _rng: &mut Xoshiro256PlusPlus) {
        s.steps.clear();
        s.given = vec![0; self.rolls.len()];
    }
    fn begin_turn(
        &self,
        _s: &mut Log,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize {
        let mut sides: Vec<usize> = (0..self.rolls.len()).collect();
        sides.sort_by_key(|&s| self.rolls[s]);
        for (slot, s) in order.iter_mut().zip(&sides) {
            *slot = *s as u8;
        }
        sides.len()
    }
    fn budget(&self, _s: &Log, side: usize, phase: usize) -> u32 {
        self.budgets[side][phase]
    }
    fn act(&self, s: &mut Log, side: usize, _a: (), _rng: &mut Xoshiro256PlusPlus, _out: &mut Outcome) {
        s.steps.push(side);
    }
    fn end_turn(&self, _s: &mut Log, _t: u32, _rng: &mut Xoshiro256PlusPlus, _out: &mut Outcome) -> Option<Ending> {
        None
    }
    fn time_called(&self, _s: &Log, _out: &mut Outcome) -> Ending {
        Ending::Draw
    }
}

struct Scripted;

impl BattlePolicy<Toy> for Scripted {
    fn choose(&self, game: &Toy, s: &Log, side: usize, _phase: usize, _rng: &mut Xoshiro256PlusPlus) -> Option<()> {
        let nth = s.steps.iter().filter(|&&x| x == side).count() as u32 + 1;
        (game.pass_at != Some((side, nth))).then_some(())
    }
}

fn sequence(game: &Toy) -> (String, Outcome) {
    let mut s = game.new_state();
    let mut out = Outcome::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    play_battle(game, &Scripted, &mut s, &mut rng, &mut out);
    let names = ["A", "B", "C"];
    (s.steps.iter().map(|&x| names[x]).collect::<Vec<_>>().join(" "), out)
}

#[test]
fn base_rounds_then_command_rounds_in_initiative_order() {
    // A rules vector: A rolls 7 (4 base + 1 command), B rolls 15 (4 base + 2 command).
    let game = Toy { rolls: vec![7, 15], budgets: vec![[4, 1], [4, 2]], pass_at: None, pass_ends_turn: true };
    let (seq, out) = sequence(&game);
    assert_eq!(seq, "A B A B A B A B A B B");
    assert_eq!(&out.actions[..2], &[5, 6]);
    assert_eq!(out.ending, Ending::Draw);
    assert!(!out.decided);
}

#[test]
fn a_pass_ends_the_side_s_turn_command_actions_included() {
    // Same, A passes at its 3rd action: A B A B, then B B, then B B.
    let game = Toy { rolls: vec![7, 15], budgets: vec![[4, 1], [4, 2]], pass_at: Some((0, 3)), pass_ends_turn: true };
    assert_eq!(sequence(&game).0, "A B A B B B B B");
}

#[test]
fn free_for_all_order_base_then_extra() {
    // §7: 3 players roll 4, 11, 17; the 11 has command 1.
    let game =
        Toy { rolls: vec![11, 4, 17], budgets: vec![[2, 1], [2, 0], [2, 0]], pass_at: None, pass_ends_turn: true };
    assert_eq!(sequence(&game).0, "B A C B A C A");
}

#[test]
fn tallies_merge_exactly() {
    let mut o = Outcome::new();
    o.ending = Ending::Winner(1);
    o.decided = true;
    o.turns = 2;
    o.actions[0] = 3;
    o.points_lost_milli[0] = 4000;
    o.lost[0] = 1;
    o.kills[1] = 1;
    let mut a = BattleTally::new(2, vec![0, 1], 3);
    let mut b = a.clone();
    a.add(&o);
    b.add(&o);
    b.add(&Outcome { ending: Ending::Draw, decided: false, turns: 3, ..Outcome::new() });
    let mut ab = a.clone();
    ab.merge(&b);
    let mut ba = b.clone();
    ba.merge(&a);
    assert_eq!(ab, ba);
    assert_eq!((ab.trials, ab.wins[1], ab.draws), (3, 2, 1));
    assert_eq!(ab.decided_by_turn(), vec![0, 2, 2]);
    let s = ab.summary();
    assert!((s.sides[0].mean_points_lost.unwrap().0 - 8.0 / 3.0).abs() < 1e-12);
    assert_eq!(ab.lost, vec![2, 0]);
}

#[test]
fn the_first_side_of_turn_one_is_recorded_and_split_counts_add_up() {
    // B rolls lower in `free_for_all_order_base_then_extra`: it acts first.
    let game =
        Toy { rolls: vec![11, 4, 17], budgets: vec![[2, 1], [2, 0], [2, 0]], pass_at: None, pass_ends_turn: true };
    assert_eq!(sequence(&game).1.first, 1);
    let mut t = BattleTally::new(2, vec![0, 1], 3);
    for (first, ending) in [
        (0, Ending::Winner(0)),
        (0, Ending::Winner(1)),
        (1, Ending::Winner(1)),
        (1, Ending::Draw),
        (0, Ending::Winner(0)),
    ] {
        t.add(&Outcome { ending, first, turns: 1, ..Outcome::new() });
    }
    assert_eq!((t.first.clone(), t.wins_first.clone()), (vec![3, 2], vec![2, 1]));
    assert_eq!(t.first.iter().sum::<u64>(), t.trials);
    for side in 0..2 {
        let s = t.initiative(side);
        let (own, other) = (s.own_first.unwrap(), s.other_first.unwrap());
        // Wins when first plus wins when not first are the side's wins.
        let wins = own.p * own.trials as f64 + other.p * other.trials as f64;
        assert!((wins - t.wins[side] as f64).abs() < 1e-9);
        assert_eq!(own.trials + other.trials, t.trials);
    }
    // A: 2 of 3 first, 0 of 2 second: decided by initiative.
    assert!(t.initiative(0).decided_by_initiative());
    let mut m = t.clone();
    m.merge(&t);
    assert_eq!((m.first.clone(), m.wins_first.clone()), (vec![6, 4], vec![4, 2]));
}
