//! The out-of-order window: how many instructions the core keeps in flight (issue 27; the
//! restarted chains of rule 27 overlap as far as it reaches). Two independent pointer chases
//! through memory, every load a miss, each load followed by N filler instructions that wait on
//! nothing (Wong's reorder-buffer test): while a load of one chase and the next load of the other,
//! N + 1 instructions apart, fit in the window together, their misses overlap and an iteration
//! takes about one miss; past the window it takes two. The fillers alternate integer and vector
//! register writes, as a loop's instructions do, so neither register file alone runs out before
//! the window does.
//!
//! The loops are assembly (x86-64, written here): a compiler would move the second load up past
//! the fillers. On other architectures the window is not measured.

use crate::bench::{self, Workshop};
use crate::XrayError;
use std::fmt::Write;
use std::time::Duration;

/// Filler counts tried: `FILLER_STEP`, 2 `FILLER_STEP`, ... `KINDS` × `FILLER_STEP`.
const FILLER_STEP: u32 = 16;
const KINDS: u32 = 64;
/// Lines of the two chases (64 bytes each): 128 MiB, beyond any last-level cache here.
const LINES: u64 = 1 << 21;
/// Runs of the whole sweep before the window is given up as not measurable here.
const ATTEMPTS: usize = 3;

/// The assembly of `xray_window(p, q, iters, k)`: `iters` iterations of the loop with
/// `k × FILLER_STEP` fillers after each of the two loads; `p` and `q` (by reference) hold each
/// chase's position and are left at the next one. System V AMD64 calling convention.
pub fn assembly() -> String {
    let mut s = String::from("\t.text\n\t.globl\txray_window\n\t.type\txray_window, @function\n");
    s.push_str("xray_window:\n\tleaq\txray_window_table(%rip), %rax\n");
    s.push_str("\tjmp\t*-8(%rax,%rcx,8)\n\t.size\txray_window, .-xray_window\n");
    let ints = ["%rax", "%rcx", "%rdx", "%r11"];
    for k in 1..=KINDS {
        let n = k * FILLER_STEP;
        let _ = write!(
            s,
            "\t.p2align 5\nxray_window_{k}:\n\tmovq\t(%rdi), %r8\n\tmovq\t(%rsi), %r9\n\
             \tmovq\t%rdx, %r10\n\t.p2align 4\n.Lwindow_{k}:\n\tmovq\t(%r8), %r8\n"
        );
        let fillers = |s: &mut String| {
            for i in 0..n {
                let j = (i / 2) as usize;
                if i % 2 == 0 {
                    let _ = writeln!(s, "\tleaq\t{}(%rsi), {}", i + 1, ints[j % ints.len()]);
                } else {
                    let _ = writeln!(s, "\tpshufd\t$0, %xmm15, %xmm{}", j % 8);
                }
            }
        };
        fillers(&mut s);
        s.push_str("\tmovq\t(%r9), %r9\n");
        fillers(&mut s);
        let _ = write!(
            s,
            "\tdecq\t%r10\n\tjnz\t.Lwindow_{k}\n\tmovq\t%r8, (%rdi)\n\tmovq\t%r9, (%rsi)\n\tret\n"
        );
    }
    s.push_str("\t.section\t.data.rel.ro,\"aw\"\n\t.p2align 3\nxray_window_table:\n");
    for k in 1..=KINDS {
        let _ = writeln!(s, "\t.quad\txray_window_{k}");
    }
    s.push_str("\t.section\t.note.GNU-stack,\"\",@progbits\n");
    s
}

/// The window, instructions, from the time an iteration takes at each filler count
/// (`(fillers, ns)`, fillers increasing): the distance between the two loads, fillers + 1, at
/// the first count whose time, and the next two counts', lie past the middle between the
/// overlapped time (the least of the first four) and the serialized one (the lower middle of the
/// last four, so one slow sample there does not lift it). None when the largest counts do not
/// take at least 1.6 times the smallest (the misses never overlapped, or the window is beyond
/// the counts tried).
pub fn knee(times: &[(u32, f64)]) -> Option<u32> {
    if times.len() < 8 {
        return None;
    }
    let low = times[..4].iter().map(|t| t.1).fold(f64::INFINITY, f64::min);
    let mut last: Vec<f64> = times[times.len() - 4..].iter().map(|t| t.1).collect();
    last.sort_by(f64::total_cmp);
    let high = last[1];
    if !(low > 0.0 && high >= 1.6 * low) {
        return None;
    }
    let middle = (low + high) / 2.0;
    (0..times.len() - 2)
        .find(|&i| times[i..i + 3].iter().all(|t| t.1 >= middle))
        .map(|i| times[i].0 + 1)
}

/// Each filler count's best time over two runs (a busy moment only ever slows a run down);
/// the second run's alone where the two do not match (the first run, with none before it).
fn best_of(a: &[(u32, f64)], b: &[(u32, f64)]) -> Vec<(u32, f64)> {
    if a.len() != b.len() {
        return b.to_vec();
    }
    a.iter().zip(b).map(|(x, y)| (x.0, x.1.min(y.1))).collect()
}

/// Measure the window; None, with the reason, when it cannot be measured here.
pub fn measure(shop: &Workshop, quick: bool) -> Result<Result<u32, String>, XrayError> {
    if std::env::consts::ARCH != "x86_64" {
        return Ok(Err(format!(
            "its assembly is x86-64's, this is {}",
            std::env::consts::ARCH
        )));
    }
    let asm = assembly();
    let exe = shop.build(
        "window",
        &[
            ("window_loops.s", asm.as_str(), &[][..]),
            (
                "window.f90",
                include_str!("fortran/window.f90"),
                &["-O1"][..],
            ),
        ],
    )?;
    let (iters, samples) = if quick { (400, 3) } else { (1000, 5) };
    let input = format!("{LINES} {iters} {samples} {KINDS}\n");
    // A neighbour's memory traffic can blur the step for a whole run: up to three runs, each
    // count keeping its best time, until the step shows.
    let mut times: Vec<(u32, f64)> = Vec::new();
    for _ in 0..ATTEMPTS {
        let out = bench::run(&exe, &[], &input, Duration::from_secs(60))?;
        let run = bench::tagged_pairs(&out, "W", FILLER_STEP);
        times = best_of(&times, &run);
        if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
            eprintln!("  window (fillers, ns an iteration): {times:?}");
        }
        if let Some(window) = knee(&times) {
            return Ok(Ok(window));
        }
    }
    Ok(Err(format!(
        "the two chases' misses did not go from overlapping to serialized between \
         {FILLER_STEP} and {} fillers in {ATTEMPTS} runs",
        KINDS * FILLER_STEP
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_knee_is_where_an_iteration_goes_from_one_miss_to_two() {
        let times: Vec<(u32, f64)> = (1..=20)
            .map(|k| (k * 16, if k * 16 < 200 { 100.0 } else { 195.0 }))
            .collect();
        assert_eq!(knee(&times), Some(209));
        // A lone slow sample before the knee does not move it.
        let mut noisy = times.clone();
        noisy[3].1 = 180.0;
        assert_eq!(knee(&noisy), Some(209));
        // Nor does a lone slow sample among the largest counts.
        noisy[19].1 = 400.0;
        assert_eq!(knee(&noisy), Some(209));
        // A second run's better times replace a busy first run's.
        let busy: Vec<(u32, f64)> = times.iter().map(|t| (t.0, t.1 * 1.7)).collect();
        assert_eq!(best_of(&busy, &times), times);
        // Never serialized: no window.
        let flat: Vec<(u32, f64)> = (1..=20).map(|k| (k * 16, 100.0)).collect();
        assert_eq!(knee(&flat), None);
    }

    #[test]
    fn the_assembly_has_one_loop_per_filler_count_and_a_table_of_them() {
        let asm = assembly();
        assert_eq!(asm.matches("\tjnz\t.Lwindow_").count(), KINDS as usize);
        assert_eq!(asm.matches("\t.quad\txray_window_").count(), KINDS as usize);
        // The largest loop: two loads and twice its fillers.
        let last = asm.split(&format!("xray_window_{KINDS}:")).nth(1).unwrap();
        let body = last.split("\tret").next().unwrap();
        assert_eq!(body.matches("leaq").count(), (KINDS * FILLER_STEP) as usize);
        assert_eq!(
            body.matches("pshufd").count(),
            (KINDS * FILLER_STEP) as usize
        );
    }
}
