//! The loop classifier on real gfortran output: small Fortran 77 fixtures compiled at -O2 and
//! -O3 (for the generic x86-64, so the code is the same on every x86-64 host), their source
//! loops' machine loops checked for structure rather than exact counts.

use harness::{loops_of_source_loop, Compiler, MachineLoop};

const SAXPY: &str = "      SUBROUTINE SAXPY(N, A, X, Y)
      INTEGER N, I
      REAL A, X(N), Y(N)
      DO 10 I = 1, N
         Y(I) = Y(I) + A*X(I)
   10 CONTINUE
      END
";

const DSUM: &str = "      DOUBLE PRECISION FUNCTION DSUM(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)
   10 CONTINUE
      DSUM = S
      END
";

/// Two source loops in one routine: a division (lines 4-6) and a call to SIN (lines 7-9).
const DIVSIN: &str = "      SUBROUTINE DIVSIN(N, X, Y, Z)
      INTEGER N, I
      REAL X(N), Y(N), Z(N)
      DO 10 I = 1, N
         Z(I) = X(I) / Y(I)
   10 CONTINUE
      DO 20 I = 1, N
         Y(I) = SIN(X(I))
   20 CONTINUE
      END
";

/// A loop GCC versions at -O3: Y(I+K) may overlap Y(I) within a vector for a small K, so a
/// run-time test picks a vector loop or a scalar one.
const SHIFT: &str = "      SUBROUTINE SHIFT(N, K, A, Y)
      INTEGER N, K, I
      REAL A, Y(*)
      DO 10 I = 1, N
         Y(I) = Y(I+K) + A
   10 CONTINUE
      END
";

/// The machine loops of lines `lines` of `text` compiled as `name` with `flags`; None (the
/// test skipped) without gfortran or off x86-64.
fn source_loop(
    name: &str,
    text: &str,
    flags: &[&str],
    lines: std::ops::RangeInclusive<u32>,
) -> Option<Vec<MachineLoop>> {
    if !cfg!(target_arch = "x86_64") {
        eprintln!("skipping: the loop classifier reads x86-64 assembly");
        return None;
    }
    let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    let Ok(c) = Compiler::find(None, &flags) else {
        eprintln!("skipping: gfortran is not installed");
        return None;
    };
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join(name);
    std::fs::write(&src, text).unwrap();
    let all = c.machine_loops(&src, d.path()).unwrap();
    let mine: Vec<MachineLoop> = loops_of_source_loop(&all, name, lines)
        .into_iter()
        .cloned()
        .collect();
    for l in &mine {
        eprintln!("{name} {flags:?}: {}", summary(l));
    }
    assert!(
        !mine.is_empty(),
        "no machine loop for the source loop: {all:#?}"
    );
    Some(mine)
}

/// One line per machine loop, for `--nocapture` runs.
fn summary(l: &MachineLoop) -> String {
    let p = &l.pass;
    format!(
        "{} {}: {} instructions, {} loads, {} stores, FP scalar {} packed {:?} (FMA {}, div {}), \
         int {} / mul {} / div {}, {} branches, calls {:?}, step {:?} bytes",
        l.function,
        l.head,
        p.instructions,
        p.loads,
        p.stores,
        p.fp.scalar,
        p.fp.packed,
        p.fma.total(),
        p.div.total(),
        p.int_alu,
        p.int_mul,
        p.int_div,
        p.branches,
        p.calls,
        l.step
    )
}

const O3: [&str; 2] = ["-O3", "-march=x86-64"];

#[test]
fn saxpy_is_vectorized_at_o3() {
    let Some(loops) = source_loop("saxpy.f", SAXPY, &O3, 4..=6) else {
        return;
    };
    let vector = loops.iter().find(|l| l.pass.fp.widest() >= Some(16));
    let v = vector.unwrap_or_else(|| panic!("no packed loop: {loops:#?}"));
    assert!(v.pass.loads >= 2 && v.pass.stores >= 1, "{v:#?}");
    assert!(v.iterations_per_pass(&[4]) > Some(1), "{v:#?}");
}

#[test]
fn saxpy_with_avx2_and_fma_uses_ymm_fmas() {
    let flags = ["-O3", "-march=x86-64", "-mavx2", "-mfma"];
    let Some(loops) = source_loop("saxpy.f", SAXPY, &flags, 4..=6) else {
        return;
    };
    // The vector body: the widest step, 32-byte ymm registers, 8 REALs a pass.
    let v = loops.iter().max_by_key(|l| l.step).unwrap();
    assert_eq!(v.pass.fp.widest(), Some(32), "{v:#?}");
    assert!(v.pass.fma.total() >= 1, "{v:#?}");
    assert_eq!(v.iterations_per_pass(&[4]), Some(8), "{v:#?}");
}

#[test]
fn saxpy_stays_scalar_at_o2() {
    // -O2's very cheap cost model vectorizes only when the vector code replaces the scalar
    // code entirely; an unknown N needs a scalar remainder, so the loop stays scalar.
    let Some(loops) = source_loop("saxpy.f", SAXPY, &["-O2"], 4..=6) else {
        return;
    };
    for l in &loops {
        assert_eq!(l.pass.fp.widest(), None, "{l:#?}");
        assert!(l.pass.fp.scalar >= 2, "{l:#?}");
        assert_eq!(l.iterations_per_pass(&[4]), Some(1), "{l:#?}");
    }
}

#[test]
fn a_double_precision_sum_stays_scalar() {
    // Without -ffast-math the additions may not be reassociated: one scalar add after
    // another, whatever the optimization level.
    for flags in [&["-O2"][..], &O3[..]] {
        let Some(loops) = source_loop("dsum.f", DSUM, flags, 5..=7) else {
            return;
        };
        for l in &loops {
            assert!(l.pass.fp.scalar >= 1 && l.pass.loads >= 1, "{l:#?}");
            assert_eq!(l.pass.fp.widest(), None, "{l:#?}");
        }
    }
}

#[test]
fn a_division_is_counted() {
    for flags in [&["-O2"][..], &O3[..]] {
        let Some(loops) = source_loop("divsin.f", DIVSIN, flags, 4..=6) else {
            return;
        };
        assert!(loops.iter().all(|l| l.pass.div.total() >= 1), "{loops:#?}");
        // The other source loop's call is not this one's.
        assert!(loops.iter().all(|l| l.pass.calls.is_empty()), "{loops:#?}");
    }
}

#[test]
fn a_call_to_sin_is_counted_with_its_callee() {
    for flags in [&["-O2"][..], &O3[..]] {
        let Some(loops) = source_loop("divsin.f", DIVSIN, flags, 7..=9) else {
            return;
        };
        // sinf, or at -O3 a vector variant of it (glibc's _ZGVbN4v_sinf) where the C
        // library declares one.
        for l in &loops {
            assert!(l.pass.calls.iter().any(|c| c.contains("sinf")), "{l:#?}");
            assert_eq!(l.pass.div.total(), 0, "{l:#?}");
        }
    }
}

#[test]
fn a_versioned_loop_has_a_vector_and_a_scalar_machine_loop() {
    let Some(loops) = source_loop("shift.f", SHIFT, &O3, 4..=6) else {
        return;
    };
    assert!(loops.len() >= 2, "{loops:#?}");
    // The widest step is the vector body's; a scalar version covers one element a pass.
    let widest = loops.iter().max_by_key(|l| l.step).unwrap();
    assert_eq!(widest.pass.fp.widest(), Some(16), "{widest:#?}");
    assert!(widest.iterations_per_pass(&[4]) > Some(1), "{widest:#?}");
    let scalar = loops.iter().find(|l| l.pass.fp.widest().is_none());
    let scalar = scalar.unwrap_or_else(|| panic!("no scalar version: {loops:#?}"));
    assert_eq!(scalar.iterations_per_pass(&[4]), Some(1), "{scalar:#?}");
}

/// The first minimum's index (lines 5-7) kept in a local M, and again (lines 9-11) in a dummy
/// argument L, which GCC may not store to unless the IF says so.
const ARGMIN: &str = "      INTEGER FUNCTION ARGMIN(N, X, L)
      INTEGER N, M, L, K
      REAL X(N)
      M = 1
      DO 10 K = 2, N
         IF (X(K) .LT. X(M)) M = K
   10 CONTINUE
      L = 1
      DO 20 K = 2, N
         IF (X(K) .LT. X(L)) L = K
   20 CONTINUE
      ARGMIN = M
      END
";

/// Rule 14g: at -O2 GCC makes the IF on a local a conditional move (no conditional jump on
/// its line, the loop's own jump elsewhere); the IF storing to a dummy argument stays a jump.
#[test]
fn an_if_made_a_conditional_move_has_no_jump_on_its_line() {
    let Some(local) = source_loop("argmin.f", ARGMIN, &["-O2"], 5..=7) else {
        return;
    };
    let body = local.first().expect("a machine loop for the local argmin");
    assert!(!body.jumps_on("argmin.f", &(6..=6)), "{body:?}");
    assert!(!body.jump_lines.is_empty(), "the loop's own jump: {body:?}");
    let dummy = source_loop("argmin.f", ARGMIN, &["-O2"], 9..=11).unwrap();
    let body = dummy
        .first()
        .expect("a machine loop for the dummy's argmin");
    assert!(body.jumps_on("argmin.f", &(10..=10)), "{body:?}");
}

/// A mixed-precision update: REAL elements converted and combined with DOUBLE PRECISION ones.
const MIXED: &str = "      SUBROUTINE MIXED(N, A, X, R)
      INTEGER N, I
      REAL A(N)
      DOUBLE PRECISION X, R(N)
      DO 10 I = 1, N
         R(I) = R(I) - DBLE(A(I)) * X
   10 CONTINUE
      END
";

#[test]
fn a_mixed_precision_vector_body_covers_its_elements_of_both_sizes() {
    // Vectorized, the REAL array's addresses step half as far as the DOUBLE PRECISION one's;
    // both steps agree on the iterations a pass covers, which the widest step's body gives.
    let Some(loops) = source_loop("mixed.f", MIXED, &O3, 5..=7) else {
        return;
    };
    let v = loops.iter().max_by_key(|l| l.widest_step()).unwrap();
    assert_eq!(v.step, None, "{v:#?}");
    // One iteration moves the REAL array 4 bytes and the DOUBLE PRECISION one 8.
    let n = v
        .iterations_per_pass(&[4, 8])
        .unwrap_or_else(|| panic!("{v:#?}"));
    assert!(n >= 2, "{v:#?}");
    assert_eq!(v.widest_step(), 8 * n, "{v:#?}");
}
