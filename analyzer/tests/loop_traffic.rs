//! Each innermost loop's memory traffic (issue 27, item 4: the memory bound): its distinct
//! array references, how far each moves from one iteration to the next, and the bytes of the
//! arrays the moving ones can touch, read from real Fortran through the static analysis.

use model::program_stats::{ArrayReference, LoopStats, LoopTraffic};

/// The static statistics' loops of `source`.
fn loops_of(source: &str) -> Vec<LoopStats> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.f");
    std::fs::write(&file, source).unwrap();
    analyzer::analyze_static(&[file], &analyzer::AnalyzeOptions::default())
        .unwrap()
        .stats
        .loops
}

/// The traffic of the loop starting at `first_line`.
fn traffic_at(source: &str, first_line: u32) -> LoopTraffic {
    let loops = loops_of(source);
    let l = loops
        .iter()
        .find(|l| l.first_line == first_line)
        .unwrap_or_else(|| panic!("no loop at line {first_line}: {loops:?}"));
    l.traffic.clone().expect("the loop is analysed")
}

fn reference<'a>(t: &'a LoopTraffic, array: &str) -> &'a ArrayReference {
    let mut it = t.references.iter().filter(|r| r.array == array);
    let r = it
        .next()
        .unwrap_or_else(|| panic!("no reference to {array}: {t:?}"));
    assert!(it.next().is_none(), "one reference to {array}: {t:?}");
    r
}

#[test]
fn a_unit_stride_loop_moves_each_array_by_its_element() {
    let src = "      PROGRAM P
      REAL A(1000)
      DOUBLE PRECISION B(1000), C(1000,50)
      INTEGER I, J, N
      COMMON /W/ B
      N = 1000
      J = 3
      DO 10 I = 1, N
         A(I) = B(I) + C(I,J)
   10 CONTINUE
      PRINT *, A(1)
      END
";
    let t = traffic_at(src, 8);
    assert_eq!(t.references.len(), 3, "{t:?}");
    let a = reference(&t, "A");
    assert_eq!((a.element_bytes, a.read, a.written), (4, false, true));
    assert_eq!(a.stride_bytes, Some(4));
    let b = reference(&t, "B");
    assert_eq!((b.element_bytes, b.read, b.written), (8, true, false));
    assert_eq!(b.stride_bytes, Some(8));
    let c = reference(&t, "C");
    assert_eq!((c.element_bytes, c.read, c.written), (8, true, false));
    assert_eq!(c.stride_bytes, Some(8));
    assert_eq!(t.footprint_bytes, Some(4000 + 8000 + 400_000));
}

#[test]
fn a_row_walk_moves_by_a_whole_column() {
    // J in the second subscript: each iteration skips a column of 2048 elements.
    let src = "      PROGRAM P
      INTEGER N
      PARAMETER (N=2048)
      DOUBLE PRECISION A(N,N), S
      INTEGER I, J
      S = 0.0D0
      I = 5
      DO 10 J = 1, N
         S = S + A(I,J)
   10 CONTINUE
      PRINT *, S
      END
";
    let t = traffic_at(src, 8);
    assert_eq!(t.references.len(), 1, "scalars are not references: {t:?}");
    let a = reference(&t, "A");
    assert_eq!(a.stride_bytes, Some(2048 * 8));
    assert!(a.read && !a.written);
    assert_eq!(t.footprint_bytes, Some(2048 * 2048 * 8));
}

#[test]
fn a_constant_step_multiplies_and_an_adjustable_dummy_has_no_footprint() {
    let src = "      SUBROUTINE SCALE(X, N)
      INTEGER N, I
      REAL X(N)
      DO 10 I = 1, N, 4
         X(I) = X(I) * 2.0
   10 CONTINUE
      END
";
    let t = traffic_at(src, 4);
    let x = reference(&t, "X");
    assert_eq!(x.stride_bytes, Some(16));
    assert!(x.read && x.written);
    assert_eq!(t.footprint_bytes, None);
    // A variable step: the stride is not known.
    let t = traffic_at(&src.replace("1, N, 4", "1, N, N"), 4);
    assert_eq!(reference(&t, "X").stride_bytes, None);
    // A step by a PARAMETER, and a negative one.
    let by_param = src
        .replace(
            "      REAL X(N)\n",
            "      REAL X(N)\n      INTEGER K\n      PARAMETER (K=2)\n",
        )
        .replace("1, N, 4", "N, 1, -K");
    let t = traffic_at(&by_param, 6);
    assert_eq!(reference(&t, "X").stride_bytes, Some(-8));
}

#[test]
fn an_indirect_reference_has_no_stride() {
    // Sparse matrix times vector: IX moves with K, X(IX(K)) goes wherever IX says.
    let src = "      SUBROUTINE SPMV(Y, A, X, IX, I, K1, K2)
      REAL Y(100), A(1000), X(100)
      INTEGER IX(1000), I, K, K1, K2
      DO 10 K = K1, K2
         Y(I) = Y(I) + A(K) * X(IX(K))
   10 CONTINUE
      END
";
    let t = traffic_at(src, 4);
    assert_eq!(t.references.len(), 4, "{t:?}");
    assert_eq!(reference(&t, "IX").stride_bytes, Some(4));
    assert_eq!(reference(&t, "A").stride_bytes, Some(4));
    assert_eq!(reference(&t, "X").stride_bytes, None);
    let y = reference(&t, "Y");
    assert_eq!(y.stride_bytes, Some(0), "Y(I) stays put");
    assert!(y.read && y.written);
    // IX, A and X move (X indirectly); Y does not.
    assert_eq!(t.footprint_bytes, Some(4000 + 4000 + 400));
}

#[test]
fn a_read_and_a_write_of_one_element_are_one_reference() {
    let src = "      PROGRAM P
      REAL A(100)
      INTEGER I
      DO 10 I = 1, 100
         A(I) = A(I) + 1.0
   10 CONTINUE
      PRINT *, A(1)
      END
";
    let t = traffic_at(src, 4);
    assert_eq!(t.references.len(), 1, "{t:?}");
    let a = &t.references[0];
    assert_eq!(a.array, "A");
    assert!(a.read && a.written);
    assert_eq!(a.stride_bytes, Some(4));
    assert_eq!(t.footprint_bytes, Some(400));
}

#[test]
fn leading_dimensions_bounds_and_element_sizes() {
    // A(0:N+1) by a PARAMETER, a 2-D walk along the first subscript with a coefficient,
    // DOUBLE COMPLEX and CHARACTER elements, an IF condition's read.
    let src = "      PROGRAM P
      INTEGER N
      PARAMETER (N=10)
      REAL A(0:N+1)
      DOUBLE COMPLEX Z(N, 4)
      CHARACTER*8 NAMES(N)
      INTEGER I, M
      M = 0
      DO 10 I = 1, N
         IF (NAMES(I) .EQ. 'X') M = M + 1
         A(2*I+1) = A(I-1)
         Z(1, I) = Z(1, I) * 2.0
   10 CONTINUE
      PRINT *, M, A(1), Z(1,1)
      END
";
    let t = traffic_at(src, 9);
    assert_eq!(t.references.len(), 4, "{t:?}");
    let names = reference(&t, "NAMES");
    assert_eq!((names.element_bytes, names.stride_bytes), (8, Some(8)));
    let a: Vec<_> = t.references.iter().filter(|r| r.array == "A").collect();
    assert_eq!(a.len(), 2);
    assert!(a.iter().any(|r| r.written && r.stride_bytes == Some(8)));
    assert!(a.iter().any(|r| r.read && r.stride_bytes == Some(4)));
    let z = reference(&t, "Z");
    assert_eq!((z.element_bytes, z.stride_bytes), (16, Some(16 * 10)));
    assert_eq!(t.footprint_bytes, Some(12 * 4 + 10 * 4 * 16 + 10 * 8));
}

#[test]
fn an_assumed_size_array_along_its_last_dimension_has_no_stride() {
    let src = "      SUBROUTINE COLS(A, LDA, N, V)
      INTEGER LDA, N, J
      DOUBLE PRECISION A(LDA,*), V(N), S
      S = 0.0D0
      DO 10 J = 1, N
         S = S + A(1,J) * V(J)
   10 CONTINUE
      V(1) = S
      END
";
    let t = traffic_at(src, 5);
    assert_eq!(reference(&t, "A").stride_bytes, None);
    assert_eq!(reference(&t, "V").stride_bytes, Some(8));
    assert_eq!(t.footprint_bytes, None);
}

#[test]
fn what_a_callee_references_is_not_the_loops() {
    let src = "      PROGRAM P
      REAL A(100), B(100)
      INTEGER I
      DO 10 I = 1, 100
         CALL SET(A(I), B)
         B(I) = SQRT(A(I))
   10 CONTINUE
      PRINT *, B(1)
      END
      SUBROUTINE SET(X, C)
      REAL X, C(100)
      X = C(3)
      END
";
    let t = traffic_at(src, 4);
    // A(I) read by SQRT; B(I) written; nothing of SET's C(3), nor A(I) passed to SET.
    assert_eq!(t.references.len(), 2, "{t:?}");
    assert!(reference(&t, "A").read);
    assert!(reference(&t, "B").written);
}

#[test]
fn a_loop_closed_by_go_to_moves_by_its_induction_variable() {
    // No DO variable: I steps by 1 each iteration, so A(I) moves by an element; B(3) stays.
    let src = "      PROGRAM P
      REAL A(100), B(5)
      INTEGER I
      I = 1
   20 A(I) = B(3)
      I = I + 1
      IF (I .LE. 100) GO TO 20
      PRINT *, A(1)
      END
";
    let t = traffic_at(src, 5);
    assert_eq!(reference(&t, "A").stride_bytes, Some(4));
    assert_eq!(reference(&t, "B").stride_bytes, Some(0));
    assert_eq!(t.footprint_bytes, Some(400));
    // Stepped only sometimes: the stride is not known.
    let t = traffic_at(
        &src.replace(
            "      I = I + 1
",
            "      IF (B(1) .GT. 0.0) I = I + 1
      I = I + 1
",
        ),
        5,
    );
    assert_eq!(reference(&t, "A").stride_bytes, None);
}

#[test]
fn an_index_computed_in_the_body_moves_with_the_do_variable() {
    // csrmv's stencil: ROW = I + (J - 1) * NX, set every iteration, moves with I.
    let src = "      PROGRAM P
      INTEGER NX
      PARAMETER (NX = 60)
      DOUBLE PRECISION XT(NX * NX), T
      INTEGER I, J, ROW
      J = 2
      T = 0.0D0
      DO 41 I = 1, NX
         ROW = I + (J - 1) * NX
         T = T + XT(ROW) - XT(ROW + NX)
         IF (I .GT. 1) T = T - XT(ROW - 1)
   41 CONTINUE
      PRINT *, T
      END
";
    let t = traffic_at(src, 8);
    assert_eq!(t.references.len(), 3, "{t:?}");
    assert!(
        t.references.iter().all(|r| r.stride_bytes == Some(8)),
        "{t:?}"
    );
    assert_eq!(t.footprint_bytes, Some(3600 * 8));
    // Set only on some iterations, it is not followed.
    let t = traffic_at(
        &src.replace("         ROW = I", "         IF (I .GT. 2) ROW = I"),
        8,
    );
    assert!(
        t.references.iter().all(|r| r.stride_bytes.is_none()),
        "{t:?}"
    );
}

/// The loops of `source` from a counting run (gfortran -O0, with the watches `predict` runs).
/// The traffic of the counted loop that starts at `line`.
fn counted_traffic_at(counted: &[LoopStats], line: u32) -> LoopTraffic {
    counted
        .iter()
        .find(|l| l.first_line == line)
        .and_then(|l| l.traffic.clone())
        .unwrap_or_else(|| panic!("no loop at line {line}: {counted:?}"))
}

fn counted_loops_of(source: &str) -> Vec<LoopStats> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.f");
    std::fs::write(&file, source).unwrap();
    let compiler = harness::Compiler::find(None, &["-O0".to_string()])
        .expect("gfortran is needed (scripts/install-deps.sh installs it)");
    analyzer::analyze_dynamic(
        &[file],
        &analyzer::AnalyzeOptions {
            simulate_branches: true,
            ..analyzer::AnalyzeOptions::default()
        },
        &compiler,
        &analyzer::RunSpec::default(),
    )
    .unwrap()
    .stats
    .loops
}

#[test]
fn a_counting_run_measures_the_extents_of_adjustable_arrays() {
    // KEEP's second extent is 50 at one call and 150 at the other: 100 on average.
    let src = "      PROGRAM P
      LOGICAL K(100, 0:149)
      DOUBLE PRECISION A(64, 8), S
      CALL ROWS(K, 100, 49)
      CALL ROWS(K, 100, 149)
      CALL WALK(A, 64, 8, S)
      PRINT *, K(3, 1), S
      END
      SUBROUTINE ROWS(KEEP, LDK, CAP)
      INTEGER LDK, CAP, C
      LOGICAL KEEP(LDK, 0:CAP)
      DO 10 C = CAP, 0, -1
         KEEP(3, C) = C .GT. 5
   10 CONTINUE
      END
      SUBROUTINE WALK(A, LDA, N, S)
      INTEGER LDA, N, J
      DOUBLE PRECISION A(LDA, *), S
      S = 0.0D0
      DO 10 J = 1, N
         A(2, J) = DBLE(J)
         S = S + A(2, J)
   10 CONTINUE
      END
";
    let counted = counted_loops_of(src);
    let at = |line: u32| counted_traffic_at(&counted, line);
    let rows = at(12);
    assert_eq!(reference(&rows, "KEEP").stride_bytes, Some(-400));
    assert_eq!(rows.footprint_bytes, Some(100 * 100 * 4));
    // An assumed-size array: its leading extent gives the stride, its bytes stay unknown.
    let walk = at(20);
    assert_eq!(reference(&walk, "A").stride_bytes, Some(64 * 8));
    assert_eq!(walk.footprint_bytes, None);
    // The source alone knows neither.
    let rows = traffic_at(src, 12);
    assert_eq!(reference(&rows, "KEEP").stride_bytes, None);
    assert_eq!(rows.footprint_bytes, None);
    assert_eq!(reference(&traffic_at(src, 20), "A").stride_bytes, None);
}

/// Rule 21b: a step the source gives as a variable is measured by the counting run. A strided
/// maximum's DO step (2, then 64: the first call 500 iterations, the second 16) and a sieve's
/// increment by the outer DO variable, in a loop closed by GO TO whose exit test comes
/// first: its references move 4 bytes per unit of the step, the histogram holds each
/// iteration's step by its power of two.
#[test]
fn a_counting_run_measures_a_variable_step() {
    let src = "      PROGRAM P
      DOUBLE PRECISION V(1000), S
      LOGICAL F(100)
      INTEGER I, K
      DO 5 I = 1, 1000
         V(I) = 1.0D0
    5 CONTINUE
      CALL EVERY(V, 1000, 2, S)
      CALL EVERY(V, 1000, 64, S)
      DO 30 I = 2, 10
         K = I * I
   20    IF (K .GT. 100) GO TO 30
         F(K) = .FALSE.
         K = K + I
         GO TO 20
   30 CONTINUE
      PRINT *, S, F(4)
      END
C     THE LARGEST OF EVERY KTH ELEMENT
      SUBROUTINE EVERY(X, N, KTH, BIG)
      INTEGER N, KTH, J
      DOUBLE PRECISION X(N), BIG
      BIG = X(1)
      DO 10 J = 1, N, KTH
         BIG = MAX(BIG, X(J))
   10 CONTINUE
      END
";
    let counted = counted_loops_of(src);
    let at = |line: u32| counted_traffic_at(&counted, line);
    let strided = at(24);
    let v = reference(&strided, "X");
    assert_eq!((v.stride_bytes, v.stride_per_step_bytes), (None, Some(8)));
    let steps = strided.measured_steps.expect("the DO step is measured");
    assert_eq!(steps.iterations.len(), analyzer::steps::STEP_BUCKETS);
    assert_eq!((steps.iterations[1], steps.magnitudes[1]), (500, 1000));
    assert_eq!((steps.iterations[6], steps.magnitudes[6]), (16, 1024));
    assert_eq!(steps.iterations.iter().sum::<u64>(), 516);
    // The sieve: steps 2..10 over K from I*I to 100.
    let sieve = at(12);
    let f = reference(&sieve, "F");
    assert_eq!((f.stride_bytes, f.stride_per_step_bytes), (None, Some(4)));
    let steps = sieve.measured_steps.expect("the increment is measured");
    let crossings = |i: u64| (100 - i * i) / i + 1;
    let expect = |lo: u64, hi: u64| (lo..=hi).map(crossings).sum::<u64>();
    assert_eq!(steps.iterations[1], expect(2, 3));
    assert_eq!(steps.iterations[2], expect(4, 7));
    assert_eq!(steps.iterations[3], expect(8, 10));
    let magnitudes: u64 = (2..=10).map(|i| i * crossings(i)).sum();
    assert_eq!(steps.magnitudes.iter().sum::<u64>(), magnitudes);
    // The source alone: per-step moves, nothing measured; a constant step needs neither.
    let alone = traffic_at(src, 24);
    assert_eq!(reference(&alone, "X").stride_per_step_bytes, Some(8));
    assert_eq!(alone.measured_steps, None);
    assert_eq!(reference(&at(5), "V").stride_per_step_bytes, None);
}

/// Rule 21: what a reference moves from one entry of its loop to the next, the loop around
/// stepping and the inner one's variable held: a row walked by J moves a column's bytes an
/// iteration and one element an entry of the row loop; a pivot row held by K does not move;
/// a loop with no DO loop around says nothing.
#[test]
fn a_reference_moves_by_the_loop_around_from_one_entry_to_the_next() {
    let src = "      PROGRAM P
      DOUBLE PRECISION A(100,100), X(100)
      INTEGER I, J, K
      K = 1
      DO 20 I = 2, 100
         DO 10 J = 2, 100
            A(I,J) = A(I,J) - A(K,J) * X(I)
   10    CONTINUE
   20 CONTINUE
      DO 30 J = 1, 100
         X(J) = A(J,J)
   30 CONTINUE
      PRINT *, A(2,2), X(3)
      END
";
    let t = traffic_at(src, 6);
    let row = t
        .references
        .iter()
        .find(|r| r.array == "A" && r.written)
        .unwrap();
    assert_eq!(
        (row.stride_bytes, row.outer_stride_bytes),
        (Some(800), Some(8))
    );
    let pivot = t
        .references
        .iter()
        .find(|r| r.array == "A" && !r.written)
        .unwrap();
    assert_eq!(
        (pivot.stride_bytes, pivot.outer_stride_bytes),
        (Some(800), Some(0))
    );
    let x = reference(&t, "X");
    assert_eq!((x.stride_bytes, x.outer_stride_bytes), (Some(0), Some(8)));
    let alone = traffic_at(src, 10);
    let d = reference(&alone, "A");
    assert_eq!((d.stride_bytes, d.outer_stride_bytes), (Some(808), None));
}

#[test]
fn a_subscript_loaded_from_data_is_indirect_and_its_array_is_sized() {
    // Rule 33: X(ICOL(K)) directly; PRES(J) through a scalar set (in a branch) from an
    // element and from a function; Y(K) and Z(M) move by known steps or from no data.
    // Z(M) starts where a call before the loop left M: not a random start either.
    let src = "      PROGRAM P
      INTEGER ICOL(1000), T(500), K, J, M, NEXTR, ISEED
      LOGICAL PRES(0:99999)
      DOUBLE PRECISION X(20000), Y(1000), Z(1000), S
      EXTERNAL NEXTR
      S = 0.0D0
      M = 0
      CALL SETUP(M)
      ISEED = 7
      DO 10 K = 1, 1000
         IF (MOD(K, 2) .EQ. 0) THEN
            J = T(K / 2)
         ELSE
            J = NEXTR(ISEED)
         END IF
         M = M + 1
         IF (PRES(J)) S = S + X(ICOL(K)) * Y(K) + Z(M)
   10 CONTINUE
      PRINT *, S
      END
      INTEGER FUNCTION NEXTR(K)
      INTEGER K
      K = MOD(K * 7, 1000)
      NEXTR = K
      END
      SUBROUTINE SETUP(M)
      INTEGER M
      M = 3
      END
";
    let t = traffic_at(src, 10);
    let x = reference(&t, "X");
    assert!(x.indirect && x.stride_bytes.is_none(), "{x:?}");
    assert_eq!(x.array_bytes, Some(160_000));
    let pres = reference(&t, "PRES");
    assert!(pres.indirect && pres.stride_bytes.is_none(), "{pres:?}");
    assert_eq!(pres.array_bytes, Some(400_000));
    for name in ["ICOL", "Y"] {
        let r = reference(&t, name);
        assert!(!r.indirect, "{r:?}");
        assert_eq!(r.stride_bytes, Some(if name == "Y" { 8 } else { 4 }));
    }
    // M's start was passed to a call before the loop: a size or a flag, not data.
    let z = reference(&t, "Z");
    assert!(!z.indirect && !z.random_start, "{z:?}");
}

#[test]
fn a_probe_loop_closed_by_goto_counts_its_entries_and_extents() {
    // Rule 33: each call starts a linear probe at a hashed place of an adjustable table; the
    // loop closed by GO TO is entered once a call (its iterations jump back past the
    // counters), and the table's extent comes from the run.
    let src = "      PROGRAM P
      INTEGER T(5000), K, S, HFIND
      EXTERNAL HFIND
      DO 5 K = 1, 5000
         T(K) = MOD(K, 4)
    5 CONTINUE
      S = 0
      DO 10 K = 1, 300
         S = S + HFIND(T, 5000, K)
   10 CONTINUE
      PRINT *, S
      END
      INTEGER FUNCTION HFIND(T, N, KEY)
      INTEGER N, T(N), KEY, I, HOME
      EXTERNAL HOME
      I = HOME(KEY, N)
      HFIND = 0
   20 CONTINUE
      HFIND = HFIND + 1
      IF (T(I) .EQ. 0) RETURN
      I = I + 1
      IF (I .GT. N) I = 1
      GO TO 20
      END
      INTEGER FUNCTION HOME(KEY, N)
      INTEGER KEY, N
      HOME = 1 + MOD(KEY * 37, N)
      END
";
    let counted = counted_loops_of(src);
    let probe = counted
        .iter()
        .find(|l| l.first_line == 18)
        .unwrap_or_else(|| panic!("no loop at line 18: {counted:?}"));
    assert_eq!(probe.entries_counted, Some(300), "{probe:?}");
    assert!(probe.iterations.unwrap() > 300, "{probe:?}");
    let t = reference(probe.traffic.as_ref().unwrap(), "T");
    assert!(t.random_start && !t.indirect, "{t:?}");
    assert_eq!(t.array_bytes, Some(20_000));
}

/// Rule 21c: the counting run sorts a DO loop's iterations by its entries' trip counts. A sum
/// called 40 times over 100 elements and once over 5000: the mean entry (about 220 trips)
/// is neither; the histogram holds 4000 iterations of 100 trips and 5000 of 5000. A loop
/// whose bounds are literals keeps no histogram.
#[test]
fn a_counting_run_sorts_a_loops_iterations_by_its_entries_trip_counts() {
    let src = "      PROGRAM P
      DOUBLE PRECISION V(5000), S
      INTEGER I, K
      S = 0.0D0
      DO 5 I = 1, 5000
         V(I) = 1.0D0
    5 CONTINUE
      DO 6 K = 1, 40
         CALL VSUM(V, 100, S)
    6 CONTINUE
      CALL VSUM(V, 5000, S)
      PRINT *, S
      END
C     ADDS X(1..N) TO S
      SUBROUTINE VSUM(X, N, S)
      INTEGER N, J
      DOUBLE PRECISION X(N), S
      DO 10 J = 1, N
         S = S + X(J)
   10 CONTINUE
      END
";
    let counted = counted_loops_of(src);
    let sum = counted_traffic_at(&counted, 18);
    let trips = sum.measured_trips.expect("the trip counts are measured");
    assert_eq!(trips.iterations.len(), analyzer::steps::STEP_BUCKETS);
    // 100 trips fall in [64, 128), 5000 in [4096, 8192).
    assert_eq!(
        (trips.iterations[6], trips.magnitudes[6]),
        (4000, 40 * 100 * 100)
    );
    assert_eq!(
        (trips.iterations[12], trips.magnitudes[12]),
        (5000, 5000 * 5000)
    );
    assert_eq!(trips.iterations.iter().sum::<u64>(), 9000);
    let groups: Vec<(u64, f64)> = trips.groups().collect();
    assert_eq!(groups, vec![(4000, 100.0), (5000, 5000.0)]);
    // Literal bounds: one trip count, nothing to sort.
    assert_eq!(counted_traffic_at(&counted, 5).measured_trips, None);
    // The source alone measures nothing.
    assert_eq!(traffic_at(src, 18).measured_trips, None);
}
