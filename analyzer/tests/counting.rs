//! Counting on a fixture whose counts were worked out by hand from the rules (comments give
//! the derivation per statement), statically and in a real run through gfortran.

use analyzer::{analyze_dynamic, analyze_static, AnalyzeOptions, RunSpec};
use harness::Compiler;
use model::{OpCounts, Param};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn counts(pairs: &[(Param, u64)], unch: &[(&str, u64)]) -> OpCounts {
    let mut c = OpCounts::new();
    for &(p, n) in pairs {
        c.add(p, n);
    }
    for &(k, n) in unch {
        c.add_uncharacterized(k, n);
    }
    c
}

/// `src` written as `name` in a fresh directory, analyzed dynamically through gfortran -O0.
fn analyzed_run(name: &str, src: &str) -> analyzer::Analysis {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, src).unwrap();
    let compiler = Compiler::find(None, &[]).expect("gfortran");
    analyze_dynamic(
        &[p],
        &AnalyzeOptions::default(),
        &compiler,
        &RunSpec::default(),
    )
    .unwrap()
}

// N = 10             TISL                     X = 1.5, Y = 0.5   TRSL x2
// G = 2.0            TRSG (target in COMMON)  D = 0.0D0          TRDL
// DO 10 I = 1, N     LOIN per entry, LOOV per iteration (10)
// A(I) = X*Y + G     ARR1, MRSL, ARSG (G global), SRSL
// DO 20 I = 1, N, 2  LOIX per entry, LOOX per iteration (5)
// D = D + A(I+1)     ARR1, IADD (subscript +), ARDL (real promoted to double), SRDL
// IF (X .GT. Y)      CRSL; consequent X = SQRT(Y): SQRS, SRSL (runs once)
// CALL S(X, N)       PROC, AGRS, AGIS         WRITE: uncharacterized I/O
// K = K ** 2         EISL, SISL               Z = Z / 2.0: DRSL, SRSL
//                    (K and Z are dummies: each of the four uses is one DUMA, rule 16)
use Param::*;

#[test]
fn static_counts_match_the_hand_count() {
    let a = analyze_static(&[fixture("counts.f")], &AnalyzeOptions::default()).unwrap();
    let expected = counts(
        &[
            (TISL, 1),
            (TRSL, 2),
            (TRSG, 1),
            (TRDL, 1),
            (LOIN, 1),
            (LOOV, 1),
            (ARR1, 2),
            (MRSL, 1),
            (ARSG, 1),
            (SRSL, 3),
            (LOIX, 1),
            (LOOX, 1),
            (IADD, 1),
            (ARDL, 1),
            (SRDL, 1),
            (CRSL, 1),
            (SQRS, 1),
            (PROC, 1),
            (AGRS, 1),
            (AGIS, 1),
            (EISL, 1),
            (SISL, 1),
            (DRSL, 1),
            (DUMA, 4),
        ],
        &[("I/O statement WRITE", 1)],
    );
    assert_eq!(a.stats.total.static_counts, expected);
    assert_eq!(a.stats.units.len(), 2);
    assert_eq!(a.stats.units[0].name, "COUNTS");
    assert_eq!(
        a.stats.units[1].static_counts,
        counts(
            &[(EISL, 1), (SISL, 1), (DRSL, 1), (SRSL, 1), (DUMA, 4)],
            &[]
        )
    );
    assert_eq!(a.stats.regions.len(), 1);
    assert_eq!(
        a.stats.regions[0].static_counts,
        counts(
            &[
                (LOIX, 1),
                (LOOX, 1),
                (ARR1, 1),
                (IADD, 1),
                (ARDL, 1),
                (SRDL, 1)
            ],
            &[]
        )
    );
    assert!(a.stats.total.dynamic_counts.is_none());
    assert_eq!(a.stats.skipped_statements, 0);
}

#[test]
fn dynamic_counts_match_the_hand_count() {
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    let a = analyze_dynamic(
        &[fixture("counts.f")],
        &AnalyzeOptions::default(),
        &compiler,
        &RunSpec::default(),
    )
    .unwrap();
    let expected = counts(
        &[
            (TISL, 1),
            (TRSL, 2),
            (TRSG, 1),
            (TRDL, 1),
            (LOIN, 1),
            (LOOV, 10),
            (ARR1, 15),
            (MRSL, 10),
            (ARSG, 10),
            (SRSL, 12),
            (LOIX, 1),
            (LOOX, 5),
            (IADD, 5),
            (ARDL, 5),
            (SRDL, 5),
            (CRSL, 1),
            (SQRS, 1),
            (PROC, 1),
            (AGRS, 1),
            (AGIS, 1),
            (EISL, 1),
            (SISL, 1),
            (DRSL, 1),
            (DUMA, 4),
        ],
        &[("I/O statement WRITE", 1)],
    );
    assert_eq!(a.stats.total.dynamic_counts.as_ref(), Some(&expected));
    assert_eq!(
        a.stats.regions[0].dynamic_counts.as_ref(),
        Some(&counts(
            &[
                (LOIX, 1),
                (LOOX, 5),
                (ARR1, 5),
                (IADD, 5),
                (ARDL, 5),
                (SRDL, 5)
            ],
            &[]
        ))
    );
    // Static counts are unchanged by the run.
    assert_eq!(a.stats.total.static_counts.get(LOOV), 1);
}

#[test]
fn else_if_conditions_are_counted_per_test() {
    // K takes 2, 4, 6, 8: the IF condition is tested 4 times, the first ELSE IF 3 times
    // (not when K = 4), the second 2 times; each test is one CISL.
    let src = "      K = 0\n      DO 10 I = 1, 4\n         K = K + 2\n         IF (K .EQ. 4) THEN\n            M = 1\n         ELSE IF (K .EQ. 6) THEN\n            M = 2\n         ELSE IF (K .EQ. 100) THEN\n            M = 3\n         END IF\n   10 CONTINUE\n      END\n";
    let a = analyzed_run("elseif.f", src);
    let d = a.stats.total.dynamic_counts.unwrap();
    assert_eq!(d.get(CISL), 4 + 3 + 2);
    // K = K + 2 four times, M = 1 and M = 2 once each (transfers).
    assert_eq!(d.get(AISL), 4);
    assert_eq!(d.get(TISL), 1 + 2);
}

#[test]
fn constant_streams_into_large_arrays_are_counted_per_store() {
    // Rule 18, in a real run: ISPRIM (240,000 bytes) is large and streamed by DO 10 I with
    // step 1 (20 CSTA); the GO TO loop crossing out multiples stores the same constant by K
    // (none); the small array, the REAL one and the step-2 loop have none either; the logical
    // IF's consequent counts as often as it ran (5 of the 10 iterations).
    let src = "      PROGRAM CSTAT
      INTEGER NMAX
      PARAMETER (NMAX = 60000)
      LOGICAL ISPRIM(NMAX), SMALL(100)
      REAL R(NMAX)
      INTEGER I, K
      DO 10 I = 1, 20
         ISPRIM(I) = .TRUE.
         SMALL(I) = .TRUE.
         R(I) = 0.0
   10 CONTINUE
      K = 4
   20 IF (K .GT. 20) GO TO 30
      ISPRIM(K) = .FALSE.
      K = K + 2
      GO TO 20
   30 DO 40 I = 1, 10
         IF (MOD(I, 2) .EQ. 0) ISPRIM(I) = .FALSE.
   40 CONTINUE
      DO 50 I = 1, 9, 2
         ISPRIM(I) = .TRUE.
   50 CONTINUE
      WRITE (*, *) ISPRIM(3), SMALL(2), R(1), K
      END
";
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("csta.f");
    std::fs::write(&p, src).unwrap();
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    let a = analyze_dynamic(
        std::slice::from_ref(&p),
        &AnalyzeOptions::default(),
        &compiler,
        &RunSpec::default(),
    )
    .unwrap();
    let d = a.stats.total.dynamic_counts.unwrap();
    assert_eq!(d.get(CSTA), 20 + 5);
    let s = analyze_static(&[p], &AnalyzeOptions::default()).unwrap();
    assert_eq!(s.stats.total.static_counts.get(CSTA), 2);
}

#[test]
fn complex_arithmetic_is_counted_as_its_real_operations_in_a_real_run() {
    // Rule 13a through gfortran: COMPLEX work is its parts' real operations, in the parts'
    // precision (DOUBLE COMPLEX and COMPLEX*16 are double); CABS and ABS of a double complex
    // are the library's hypot (CABS, CABD). Per statement:
    // Z = (1.0, 2.0), W = ...          TRSL x2 each        DZ = ..., DW = ...  TRDL x2 each
    // Z = Z * W      (4 iterations)    MRSL 4, ARSL 2, SRSL 2
    // DZ = DZ / DW   (4 iterations)    Smith: DRDL 3, MRDL 3, ARDL 3, CRDL 1; SRDL 2
    // R = CABS(Z) + ABS(DZ)            CABS, CABD, ARDL (real + double), SRSL
    let src = "      PROGRAM CPLX
      DOUBLE COMPLEX DZ
      COMPLEX*16 DW
      COMPLEX Z, W
      REAL R
      INTEGER I
      Z = (1.0, 2.0)
      W = (0.5, 0.25)
      DZ = (1.0D0, 0.0D0)
      DW = (0.5D0, 0.5D0)
      DO 10 I = 1, 4
         Z = Z * W
         DZ = DZ / DW
   10 CONTINUE
      R = CABS(Z) + ABS(DZ)
      WRITE (*, *) R
      END
";
    let a = analyzed_run("cplx.f", src);
    let expected = counts(
        &[
            (TRSL, 4),
            (TRDL, 4),
            (LOIN, 1),
            (LOOV, 4),
            (MRSL, 16),
            (ARSL, 8),
            (SRSL, 9),
            (DRDL, 12),
            (MRDL, 12),
            (ARDL, 13),
            (CRDL, 4),
            (SRDL, 8),
            (CABS, 1),
            (CABD, 1),
        ],
        &[("I/O statement WRITE", 1)],
    );
    assert_eq!(a.stats.total.dynamic_counts.as_ref(), Some(&expected));
}

#[test]
fn a_name_declared_intrinsic_is_not_a_call_of_the_program() {
    // DTAND is a compiler's extension the table does not know: declared INTRINSIC, it is an
    // uncharacterized intrinsic, not a PROC with an argument; DIMAG (double complex, in the
    // table) is an intrinsic without the declaration, free (it only takes a part, rule 13a).
    let src = "      DOUBLE PRECISION X, Y
      DOUBLE COMPLEX Z
      INTRINSIC DTAND
      Y = 1.0D0
      Z = (1.0D0, 2.0D0)
      X = DTAND(Y) + DIMAG(Z)
      END
";
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("ext.f");
    std::fs::write(&p, src).unwrap();
    let a = analyze_static(&[p], &AnalyzeOptions::default()).unwrap();
    let c = &a.stats.total.static_counts;
    assert_eq!(c.get(PROC), 0);
    assert_eq!(c.uncharacterized["intrinsic DTAND"], 1);
    assert!(!c.uncharacterized.contains_key("intrinsic DIMAG"));
    assert_eq!((c.get(ARDL), c.get(SRDL)), (1, 1));
}

#[test]
fn bit_intrinsics_are_one_integer_addition_each_not_calls() {
    // MIL-STD-1753's IAND, IEOR, ISHFT and BTEST and gfortran's XOR compile to one ALU
    // instruction inline: each counts one integer addition (AISL), never a PROC with
    // arguments, so the loop holding them has no calls (rule 17 charges it by its
    // instructions). A function of the program named like one (EXTERNAL) stays a call.
    let src = "      INTEGER K, I, N
      LOGICAL B
      K = 1
      N = 0
      DO 10 I = 1, 1000
         K = IAND(K * 69069 + 1, 1073741823)
         K = IEOR(K, ISHFT(K, -3))
         B = BTEST(K, 5)
         IF (B) N = XOR(N, 1)
   10 CONTINUE
      PRINT *, K, N
      END
";
    let a = analyzed_run("bits.f", src);
    let c = a.stats.total.dynamic_counts.as_ref().unwrap();
    assert_eq!(c.get(PROC), 0);
    assert_eq!(c.get(AGIS), 0);
    let l = a.stats.loops.iter().find(|l| l.first_line == 5).unwrap();
    let body = l.body_counts.as_ref().unwrap();
    assert_eq!(body.get(PROC), 0);
    // Per iteration: the addition of line 6 and IAND; IEOR and ISHFT; BTEST; XOR where B.
    let xors = c.get(AISL) - 1000 * 5;
    assert!(xors > 0 && xors < 1000, "{xors} XORs of 1000 iterations");
    assert!(!c.uncharacterized.keys().any(|k| k.contains("IAND")));

    let external = "      INTEGER K, IAND
      EXTERNAL IAND
      K = IAND(3, 5)
      PRINT *, K
      END
      INTEGER FUNCTION IAND(I, J)
      INTEGER I, J
      IAND = I + J
      END
";
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("own.f");
    std::fs::write(&p, external).unwrap();
    let a = analyze_static(&[p], &AnalyzeOptions::default()).unwrap();
    assert_eq!(a.stats.total.static_counts.get(PROC), 1);
}

#[test]
fn rounding_intrinsics_are_library_calls_in_a_real_run() {
    // Rule 32: NINT, IDNINT, ANINT and DNINT are calls of lround and round, one RNDS or RNDD
    // by the argument's precision, and no longer uncharacterized.
    let src = "      PROGRAM RND
      INTEGER I, K
      REAL X
      DOUBLE PRECISION D
      K = 0
      X = 0.3
      D = 0.7D0
      DO 10 I = 1, 5
         K = K + NINT(X) + IDNINT(D)
   10 CONTINUE
      D = DNINT(D) + ANINT(D)
      WRITE (*, *) K, D
      END
";
    let a = analyzed_run("rnd.f", src);
    let d = a.stats.total.dynamic_counts.unwrap();
    assert_eq!(d.get(RNDS), 5);
    assert_eq!(d.get(RNDD), 5 + 2);
    assert!(
        d.uncharacterized.keys().all(|k| !k.contains("NINT")),
        "{:?}",
        d.uncharacterized
    );
}
