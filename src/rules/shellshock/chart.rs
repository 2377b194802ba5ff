//! The 100-line Internal Damage Chart's marking (§3 step 9): from the rolled line, mark
//! the next `count` unmarked lines going up, skipping marked ones (`CHART_WRAPS`: after
//! line 100 comes line 01), and the hits each item takes (`HITS_ONCE_PER_RANGE`).

/// Lines on an Internal Damage Chart.
pub const CHART_LINES: u32 = 100;

/// Mark `count` unmarked lines starting at line `from` (1..=100); returns the lines
/// marked (1-based, in order). Fewer when the chart fills up.
pub fn mark(marked: &mut [bool; 100], from: usize, count: u32) -> Vec<usize> {
    let mut out = Vec::new();
    let mut line = from - 1;
    for _ in 0..100 {
        if out.len() as u32 == count {
            break;
        }
        if !marked[line] {
            marked[line] = true;
            out.push(line + 1);
        }
        line = (line + 1) % 100;
    }
    out
}

/// Hits per item letter for an Internal hit of `hits` Hits over `lines` (each item once
/// per range, however many of its lines the range covers).
pub fn hits_by_item(chart: &[char], lines: &[usize], hits: u32) -> Vec<(char, u32)> {
    let mut out: Vec<(char, u32)> = Vec::new();
    for &l in lines {
        let c = chart[l - 1];
        if !out.iter().any(|(x, _)| *x == c) {
            out.push((c, hits));
        }
    }
    out
}

/// P(the attacker's d10 + `attacker_mod` beats the defender's d10 + `defender_mod`
/// strictly): a sympathetic explosion (§3 step 10; ties go to the defender).
pub fn p_sympathetic(attacker_mod: i32, defender_mod: i32) -> f64 {
    let mut wins = 0;
    for a in 1..=10 {
        for d in 1..=10 {
            if a + attacker_mod > d + defender_mod {
                wins += 1;
            }
        }
    }
    f64::from(wins) / 100.0
}
