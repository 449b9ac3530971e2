//! Registers the compiler can really use (X-Ray section 7): the n-variable sequence of
//! figure 11, r1 = r1 + rn; r2 = r2 + r1; ... rn = rn + r(n-1), every operation depending on
//! the previous one. While all n variables live in registers each operation is one add; once
//! the compiler spills, loads and stores join the chain and the time per operation rises. n
//! doubles until it rises, then binary search finds the last n that did not. Compiled with
//! optimization (-O2) by the system's compiler; integer and double in Fortran, the SIMD type
//! (two doubles, the SSE2 vector every x86-64 has) in C with GCC vector extensions, since
//! Fortran cannot name a vector register type.

use crate::bench::{self, Workshop};
use crate::decide::robust_cv;
use crate::XrayError;
use std::fmt::Write;
use std::time::Duration;

/// The register types X-Ray counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegisterKind {
    Integer,
    Double,
    Simd,
}

impl RegisterKind {
    pub fn name(self) -> &'static str {
        match self {
            RegisterKind::Integer => "integer",
            RegisterKind::Double => "double",
            RegisterKind::Simd => "SIMD (2 x double)",
        }
    }
}

/// The largest n the doubling tries; past it spills are taken as invisible.
const MAX_VARIABLES: u32 = 128;

/// Fortran source of figure 11 with `n` variables of `ty` plus a driver that prints
/// "T ns_per_op" for each of `reps` timed runs.
pub fn fortran_sequence(n: u32, ty: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "! opcost xray: X-Ray figure 11 with {n} variables of {ty}"
    );
    let _ = writeln!(s, "subroutine seq(iters, a, out)");
    let _ = writeln!(s, "  integer(8), intent(in) :: iters");
    let _ = writeln!(s, "  {ty}, intent(in) :: a({n})");
    let _ = writeln!(s, "  {ty}, intent(out) :: out");
    let _ = writeln!(s, "  integer(8) :: k");
    for i in 1..=n {
        let _ = writeln!(s, "  {ty} :: r{i}");
    }
    for i in 1..=n {
        let _ = writeln!(s, "  r{i} = a({i})");
    }
    let _ = writeln!(s, "  do k = 1, iters");
    let _ = writeln!(s, "    r1 = r1 + r{n}");
    for i in 2..=n {
        let _ = writeln!(s, "    r{i} = r{i} + r{}", i - 1);
    }
    let _ = writeln!(s, "  end do");
    let _ = writeln!(s, "  out = 0");
    for i in 1..=n {
        let _ = writeln!(s, "  out = out + r{i}");
    }
    let _ = writeln!(s, "end subroutine seq");
    let _ = writeln!(
        s,
        "program regs
  integer(8) :: t0, t1, iters, reps, k
  {ty} :: a({n}), out, zero
  ! The start value comes from the input (0): the compiler cannot fold the sequence, and the
  ! values stay 0 (no overflow, no denormals).
  read (*, *) iters, reps, zero
  a = zero
  do k = 1, reps
    call system_clock(t0)
    call seq(iters, a, out)
    call system_clock(t1)
    write (*, '(a,1x,f0.5,1x,g0)') 'T', dble(t1 - t0) / dble(iters * {n}), out
  end do
end program regs"
    );
    s
}

/// C source of figure 11 on the SIMD type.
pub fn c_simd_sequence(n: u32) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* opcost xray: X-Ray figure 11 with {n} SIMD variables (GCC vector extension) */
#include <stdio.h>
#include <time.h>
typedef double v2d __attribute__((vector_size(16)));
static double now_ns(void) {{
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}}
__attribute__((noinline)) void seq(long iters, const v2d *a, v2d *out) {{"
    );
    for i in 1..=n {
        let _ = writeln!(s, "  v2d r{i} = a[{}];", i - 1);
    }
    let _ = writeln!(s, "  for (long k = 0; k < iters; k++) {{");
    let _ = writeln!(s, "    r1 = r1 + r{n};");
    for i in 2..=n {
        let _ = writeln!(s, "    r{i} = r{i} + r{};", i - 1);
    }
    let _ = writeln!(s, "  }}\n  v2d o = r1;");
    for i in 2..=n {
        let _ = writeln!(s, "  o = o + r{i};");
    }
    let _ = writeln!(
        s,
        "  *out = o;
}}
int main(void) {{
  long iters, reps;
  double zero;
  if (scanf(\"%ld %ld %lf\", &iters, &reps, &zero) != 3) return 1;
  v2d a[{n}], out;
  for (int i = 0; i < {n}; i++) a[i] = (v2d){{zero, zero}};
  for (long k = 0; k < reps; k++) {{
    double t0 = now_ns();
    seq(iters, a, &out);
    double t1 = now_ns();
    printf(\"T %.5f %g\\n\", (t1 - t0) / ((double)iters * {n}), out[0] + out[1]);
  }}
  return 0;
}}"
    );
    s
}

/// Minimum time per operation of the n-variable sequence, with the relative spread.
fn time_sequence(
    shop: &Workshop,
    kind: RegisterKind,
    n: u32,
    quick: bool,
) -> Result<(f64, f64), XrayError> {
    let tag = format!("regs_{kind:?}_{n}").to_lowercase();
    let exe = match kind {
        RegisterKind::Integer | RegisterKind::Double => {
            let ty = if kind == RegisterKind::Integer {
                "integer(8)"
            } else {
                "real(8)"
            };
            let src = fortran_sequence(n, ty);
            shop.build(
                &tag,
                &[(
                    &format!("{tag}.f90"),
                    &src,
                    &["-O2", "-fno-tree-vectorize", "-ffree-line-length-none"],
                )],
            )?
        }
        RegisterKind::Simd => {
            let src = c_simd_sequence(n);
            shop.build(
                &tag,
                &[(&format!("{tag}.c"), &src, &["-O2", "-fno-tree-vectorize"])],
            )?
        }
    };
    // About 0.3 ms per run at one cycle per operation: many short runs, of which the fastest
    // fit between two preemptions of a busy machine.
    let iters = 1_000_000 / u64::from(n) + 1;
    let reps = if quick { 15 } else { 31 };
    let out = bench::run(
        &exe,
        &[],
        &format!("{iters} {reps} 0\n"),
        Duration::from_secs(60),
    )?;
    let t: Vec<f64> = bench::tagged_numbers(&out, "T")
        .into_iter()
        .filter_map(|v| v.first().copied())
        .collect();
    if t.is_empty() {
        return Err(XrayError::Run(format!("{tag} printed no time")));
    }
    Ok((
        t.iter().copied().fold(f64::INFINITY, f64::min),
        robust_cv(&t),
    ))
}

/// The number of usable registers of `kind`, or None when no spill cost shows up to
/// [`MAX_VARIABLES`] variables (an out-of-order core with memory renaming can hide spills).
pub fn count(shop: &Workshop, kind: RegisterKind, quick: bool) -> Result<Option<u32>, XrayError> {
    let (base, cv) = time_sequence(shop, kind, 2, quick)?;
    // A rise is more than the larger of 8 % and four times the baseline's relative spread.
    let limit = base * (1.0 + (4.0 * cv).max(0.08));
    // A rise must survive a second measurement (noise only ever adds time).
    let rises = |n: u32| -> Result<bool, XrayError> {
        let (mut t, _) = time_sequence(shop, kind, n, quick)?;
        if t > limit {
            t = t.min(time_sequence(shop, kind, n, quick)?.0);
        }
        if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
            eprintln!(
                "  {} registers, n = {n}: {t:.3} ns/op (limit {limit:.3})",
                kind.name()
            );
        }
        Ok(t > limit)
    };
    let mut n = 4;
    while !rises(n)? {
        n *= 2;
        if n > MAX_VARIABLES {
            return Ok(None);
        }
    }
    // The last n without a rise lies in [n/2, n).
    let (mut lo, mut hi) = (n / 2, n);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if rises(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_sequence_chains_every_variable() {
        let s = fortran_sequence(3, "real(8)");
        assert!(s.contains("r1 = r1 + r3"));
        assert!(s.contains("r2 = r2 + r1"));
        assert!(s.contains("r3 = r3 + r2"));
    }

    #[test]
    fn c_sequence_chains_every_variable() {
        let s = c_simd_sequence(4);
        assert!(s.contains("r1 = r1 + r4;"));
        assert!(s.contains("r4 = r4 + r3;"));
    }
}
