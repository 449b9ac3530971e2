//! Rule 14 through a real run: a loop's summed cost, which the predictor weighs against its
//! recurrence, includes the work of the subroutines the loop calls (and only of those calls).

use model::Param;

const SOURCE: &str = "      PROGRAM P
      REAL S
      INTEGER I
      S = 0.0
      DO 10 I = 1, 100
         CALL ACC(S, 0.5)
   10 CONTINUE
      DO 20 I = 1, 50
         S = S * 0.5
   20 CONTINUE
      CALL ACC(S, 1.0)
      PRINT *, S
      END
      SUBROUTINE ACC(T, W)
      REAL T, W
      T = T + W * 2.0
      END
";

/// The dynamic statistics of `source` (saved as `name`), or None without gfortran.
fn dynamic_stats(name: &str, source: &str) -> Option<model::ProgramStats> {
    let Ok(compiler) = harness::Compiler::find(None, &["-O0".to_string()]) else {
        eprintln!("skipping: gfortran is not installed");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, source).unwrap();
    let a = analyzer::analyze_dynamic(
        std::slice::from_ref(&file),
        &analyzer::AnalyzeOptions::default(),
        &compiler,
        &analyzer::RunSpec::default(),
    )
    .unwrap();
    Some(a.stats)
}

#[test]
fn a_loop_is_charged_the_work_of_its_calls() {
    let Some(stats) = dynamic_stats("calls.f", SOURCE) else {
        return;
    };
    let body = |first_line: u32| {
        let l = stats
            .loops
            .iter()
            .find(|l| l.first_line == first_line)
            .unwrap_or_else(|| panic!("no loop at line {first_line}: {:?}", stats.loops));
        (
            l.iterations,
            l.body_counts.clone().unwrap(),
            l.recurrences.clone(),
        )
    };
    // The calling loop: 100 calls of ACC, whose one statement adds and multiplies; the call
    // after the loops is not this loop's.
    let (iterations, counts, recurrences) = body(5);
    assert_eq!(iterations, Some(100));
    assert_eq!(counts.get(Param::PROC), 100, "{counts:?}");
    assert_eq!(counts.get(Param::ARSL), 100, "{counts:?}");
    assert_eq!(counts.get(Param::MRSL), 100, "{counts:?}");
    assert_eq!(counts.get(Param::SRSL), 100, "{counts:?}");
    // The sum waits on itself from call to call: one transfer and one addition; the DO
    // variable carries its own chain (rule 27).
    assert_eq!(recurrences.len(), 2, "{recurrences:?}");
    let sum = recurrences
        .iter()
        .find(|r| r.get(Param::QDOV) == 0)
        .unwrap();
    assert_eq!(sum.get(Param::QTRS), 1);
    assert_eq!(sum.get(Param::QARS), 1);
    assert!(recurrences.contains(&model::OpCounts::one(Param::QDOV)));
    // A loop without calls keeps its own operations only.
    let (iterations, counts, _) = body(8);
    assert_eq!(iterations, Some(50));
    assert_eq!(counts.get(Param::MRSL), 50, "{counts:?}");
    assert_eq!(counts.get(Param::ARSL), 0, "{counts:?}");
}

/// Rule 17 through a real run: a logical IF's consequent in a loop has its own count, so the
/// predictor can weigh its instructions by it.
#[test]
fn a_loops_logical_ifs_carry_their_consequents_runs() {
    let source = "      PROGRAM Q
      INTEGER I, K, L
      K = 0
      L = 0
      DO 10 I = 1, 100
         IF (MOD(I, 4) .EQ. 0) K = K + 1
         L = L + I
   10 CONTINUE
      PRINT *, K, L
      END
";
    let Some(stats) = dynamic_stats("quarter.f", source) else {
        return;
    };
    let l = stats.loops.iter().find(|l| l.first_line == 5).unwrap();
    assert_eq!(l.iterations, Some(100));
    assert_eq!(l.consequent_runs, vec![(6, 25)], "{l:?}");
}

/// Rule 17, widened, through a real run: a calling loop lists the units its calls enter,
/// directly and through their own calls, each with the loop's share of its entries.
#[test]
fn a_calling_loop_lists_the_units_its_calls_enter() {
    let source = "      PROGRAM C
      REAL S, TWICE
      INTEGER I
      S = 0.0
      DO 10 I = 1, 30
         CALL ACC(S, 0.5)
   10 CONTINUE
      DO 20 I = 1, 10
         S = S + TWICE(S)
   20 CONTINUE
      PRINT *, S
      END
      SUBROUTINE ACC(T, W)
      REAL T, W, TWICE
      T = T + TWICE(W)
      END
      REAL FUNCTION TWICE(X)
      REAL X
      TWICE = X * 2.0
      END
";
    let Some(stats) = dynamic_stats("enter.f", source) else {
        return;
    };
    let callees = |first_line: u32| {
        let l = stats
            .loops
            .iter()
            .find(|l| l.first_line == first_line)
            .unwrap();
        l.callees
            .iter()
            .map(|c| (c.unit.as_str(), c.calls, c.entries))
            .collect::<Vec<_>>()
    };
    // ACC from the first loop only; TWICE 30 times through ACC and 10 times from the second.
    assert_eq!(callees(5), vec![("ACC", 30, 30), ("TWICE", 30, 40)]);
    assert_eq!(callees(8), vec![("TWICE", 10, 40)]);
}
