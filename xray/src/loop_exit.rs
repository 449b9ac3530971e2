//! The longest DO loop whose exit the branch predictor foresees (opcost's refinement, rule
//! 29b). A loop's closing branch is taken on every iteration but the last; a predictor that
//! keys on the recent branches learns where a loop of a few trips ends, entered again with
//! the same trips, but not where a longer one does, and that one then misses its exit at
//! every entry. An empty DO loop of T trips, compiled at -O0 as a program's loops are, is
//! entered again and again for T = 1, 2, ...: each entry takes about T iterations while the
//! exit is foreseen, and a branch miss more from the first T whose exit is not.

use crate::bench::{self, Workshop};
use crate::XrayError;
use std::time::Duration;

/// Trip counts tried: 1 to this.
const MAX_TRIPS: u32 = 40;

/// Smallest jump, ns, of an entry's time from one trip count to the next that counts as a
/// missed exit: a miss costs several ns on every CPU opcost has run on, an iteration of the
/// empty loop well under one.
const MIN_JUMP_NS: f64 = 2.0;

/// The longest trip count whose exit is foreseen, from the time of an entry at each trip
/// count (`(trips, ns)`, trips 1, 2, ... in order): the count before the first whose entry
/// takes at least [`MIN_JUMP_NS`] (and three ordinary steps) more than an ordinary step over
/// the one before, and still does one count further. None when no such jump is seen.
pub fn limit(times: &[(u32, f64)]) -> Option<u32> {
    if times.len() < 4 {
        return None;
    }
    let steps: Vec<f64> = times.windows(2).map(|w| w[1].1 - w[0].1).collect();
    let mut ordinary = steps.clone();
    ordinary.sort_by(f64::total_cmp);
    let step = ordinary[ordinary.len() / 2].max(0.0);
    let jump = MIN_JUMP_NS.max(3.0 * step);
    (1..times.len().saturating_sub(1))
        .find(|&i| {
            let here = times[i].1 - times[i - 1].1 - step;
            let after = times[i + 1].1 - times[i - 1].1 - 2.0 * step;
            here >= jump && after >= jump
        })
        .map(|i| times[i - 1].0)
}

/// Measure the longest DO loop whose exit the predictor foresees; Ok(Err(reason)) when no
/// limit shows up to [`MAX_TRIPS`].
pub fn measure(shop: &Workshop, quick: bool) -> Result<Result<u32, String>, XrayError> {
    let exe = shop.build(
        "loop_exit",
        &[(
            "loop_exit.f90",
            include_str!("fortran/loop_exit.f90"),
            &["-O0"][..],
        )],
    )?;
    let (work, samples) = if quick { (400_000, 3) } else { (2_000_000, 5) };
    let input = format!("{MAX_TRIPS} {work} {samples}\n");
    let out = bench::run(&exe, &[], &input, Duration::from_secs(60))?;
    let times = bench::tagged_pairs(&out, "E", 1);
    if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
        eprintln!("  loop exits (trips, ns an entry): {times:?}");
    }
    Ok(limit(&times).ok_or_else(|| {
        format!("no entry of up to {MAX_TRIPS} trips took a branch miss more than the one before")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(limit: u32, miss: f64) -> Vec<(u32, f64)> {
        (1..=MAX_TRIPS)
            .map(|t| {
                let base = 1.0 + 0.4 * f64::from(t);
                (t, if t > limit { base + miss } else { base })
            })
            .collect()
    }

    #[test]
    fn the_limit_is_the_last_count_before_an_entry_takes_a_miss_more() {
        assert_eq!(limit(&entries(13, 4.8)), Some(13));
        assert_eq!(limit(&entries(3, 9.0)), Some(3));
        // A lone slow sample before the limit does not move it.
        let mut noisy = entries(13, 4.8);
        noisy[6].1 += 5.0;
        assert_eq!(limit(&noisy), Some(13));
        // Every exit foreseen, or the jump too small to be a miss: none.
        assert_eq!(limit(&entries(MAX_TRIPS, 4.8)), None);
        assert_eq!(limit(&entries(13, 0.8)), None);
    }
}
