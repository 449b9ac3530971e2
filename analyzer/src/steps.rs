//! Rule 21b: a loop's variable step, measured by the counting run. Where a loop steps through
//! an array by an amount the source gives as a variable (`DO 10 I = 1, NV, K` with K an
//! argument; a sieve's `K = K + I` in a loop closed by GO TO), the source alone gives no
//! stride: rule 21 then charges an element an iteration, though a step of a line or more
//! fetches a line every iteration. The counted copy counts the step's iterations by its power
//! of two, with its magnitudes summed (`model::program_stats::StepHistogram`): a DO loop's once
//! an entry, weighted by the entry's trips (the support subroutine `entry` of [`support`]);
//! an increment's every iteration, after the loop's first statement (`histogram`). The
//! predictor caps each group's bytes at a line (`model::rules::stepped_bytes`).

use crate::analysis::Program;
use crate::extents::MeasuredExtents;
use crate::traffic::VariableStep;
use model::program_stats::StepHistogram;

/// The powers of two the counted copy tells apart (the last open above): 2^15 elements is
/// beyond a line for any element, 2^31 trips beyond any cache for a loop's entry (rule 21c
/// counts trip counts in the same histograms).
pub const STEP_BUCKETS: usize = 32;

/// The counter slots one loop's step takes: iterations and summed magnitudes per bucket.
pub const STEP_SLOTS: usize = 2 * STEP_BUCKETS;

/// One innermost loop whose variable step the counted copy measures.
#[derive(Debug, Clone, PartialEq)]
pub struct StepWatch {
    /// The loop's first statement: its DO statement, or the one its GO TO jumps back to.
    pub first_stmt: usize,
    pub step: VariableStep,
    /// The first of its [`STEP_SLOTS`] slots.
    pub slot: usize,
}

/// The innermost loops with a variable step that some reference moves by, with their slots
/// from `base` on.
pub fn step_slots(prog: &Program, base: usize) -> Vec<StepWatch> {
    let mut out = Vec::new();
    let none = MeasuredExtents::new();
    for l in crate::recurrence::innermost_loops(prog) {
        // A reference moves per unit of a step only where the loop has a variable one.
        let moves_by_a_step = crate::traffic::loop_traffic(prog, l.unit, l.first, l.last, &none)
            .is_some_and(|t| {
                t.references
                    .iter()
                    .any(|r| r.stride_per_step_bytes.is_some())
            });
        if !moves_by_a_step {
            continue;
        }
        if let Some(step) = crate::traffic::loop_variable_step(prog, l.unit, l.first, l.last) {
            out.push(StepWatch {
                first_stmt: l.first,
                step,
                slot: base + STEP_SLOTS * out.len(),
            });
        }
    }
    out
}

impl StepWatch {
    /// Whether [`StepWatch::statements`] go before the loop's DO statement (once an entry)
    /// rather than after its first statement (every iteration).
    pub fn before_entry(&self) -> bool {
        matches!(self.step, VariableStep::Do { .. })
    }

    /// The statement adding the step to its slots of `counters`: a DO loop's with its
    /// entry's trips through `entry`, an increment's every iteration through `histogram`.
    pub fn statements(&self, counters: &str, histogram: &str, entry: &str) -> Vec<String> {
        let slots = format!("{counters}({})", self.slot + 1);
        vec![match &self.step {
            VariableStep::Do { start, end, step } => {
                format!("CALL {entry}({slots}, INT({start}, 8), INT({end}, 8), INT({step}, 8))")
            }
            VariableStep::Increment(by) => format!("CALL {histogram}({slots}, INT({by}, 8), 1_8)"),
        }]
    }

    /// The steps a run's `counters` measured; None when the loop never stepped.
    pub fn measured(&self, counters: &[u64]) -> Option<StepHistogram> {
        histogram_at(counters, self.slot)
    }
}

/// The histogram `histogram` (of [`support`]) filled in a run's `counters` from slot `first`
/// on; None when it counted no iteration. Rule 21c's trip counts use the same slots.
pub fn histogram_at(counters: &[u64], first: usize) -> Option<StepHistogram> {
    let slots = counters.get(first..first + STEP_SLOTS)?;
    let (iterations, magnitudes) = slots.split_at(STEP_BUCKETS);
    iterations.iter().any(|&n| n > 0).then(|| StepHistogram {
        iterations: iterations.to_vec(),
        magnitudes: magnitudes.to_vec(),
    })
}

/// The counted copy's support subroutines: `histogram(H, N, W)` adds W iterations of step N
/// to the buckets at H, and `entry(H, A, B, N)` the trips of a DO loop from A to B by N.
pub fn support(histogram: &str, entry: &str) -> Vec<String> {
    let b = STEP_BUCKETS;
    [
        format!("SUBROUTINE {histogram}(H, N, W)"),
        format!("INTEGER*8 H({}), N, W, M", 2 * b),
        "INTEGER K".into(),
        "M = ABS(N)".into(),
        // EXPONENT of a REAL is its base-2 logarithm's floor plus one.
        format!(
            "K = MIN({}, MAX(0, EXPONENT(REAL(MAX(1_8, M))) - 1))",
            b - 1
        ),
        "H(K + 1) = H(K + 1) + W".into(),
        format!("H(K + {}) = H(K + {}) + W * M", b + 1, b + 1),
        "END".into(),
        format!("SUBROUTINE {entry}(H, A, B, N)"),
        format!("INTEGER*8 H({}), A, B, N", 2 * b),
        "IF (N .EQ. 0) RETURN".into(),
        format!("CALL {histogram}(H, N, MAX(0_8, (B - A + N) / N))"),
        "END".into(),
    ]
    .iter()
    .map(|l| crate::instrument::fixed_line(None, l))
    .collect()
}
