//! Statistics of the characterizer: estimators over observations (Saavedra-Barrera's section 4.6),
//! Student's t confidence intervals (eq. 4.13), and the solution of direct, composite and
//! indirect tests with their variances (eqs. 4.5-4.12), written once as least squares over
//! the experiments' count vectors, with the variances propagated linearly.

use model::characterization::{Statistic, TestKind};
use model::stats::{median, t_factor};
use model::{Estimate, OpCounts, Param};
use std::collections::BTreeMap;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum SolveError {
    #[error("the experiments {experiments:?} cannot separate {unknowns:?} (singular system)")]
    Singular {
        unknowns: Vec<Param>,
        experiments: Vec<String>,
    },
    #[error("experiment {experiment} needs {param}, which is not measured yet")]
    MissingKnown { experiment: String, param: Param },
}

/// A value with its standard error and the sample size behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    pub value: f64,
    pub std_error: f64,
    pub n: usize,
}

/// Summarize a sample with the chosen estimator. The standard error is s/sqrt(n) for the mean,
/// 1.2533 s/sqrt(n) for the median (its asymptotic efficiency under normal noise), and s/sqrt(n)
/// for the minimum, a conservative stand-in where theory gives no simple form. `rounds` is the
/// number of processes the observations came from, in order, each an equal share (as
/// `characterize --rounds` takes them); only [`Statistic::RoundMedian`] uses it, with the
/// median's error over the rounds' minima.
pub fn summarize(values: &[f64], stat: Statistic, rounds: usize) -> Measured {
    let n = values.len();
    if n == 0 {
        return Measured {
            value: f64::NAN,
            std_error: f64::INFINITY,
            n: 0,
        };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    // One observation has no spread to tell its error by: it is taken as large as the value
    // itself, a finite bound a file can hold (the first round of an odd `--repeat` over two
    // rounds, saved as the partial file).
    let var = if n > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        mean * mean
    };
    let se = (var / n as f64).sqrt();
    let minimum = |v: &[f64]| v.iter().cloned().fold(f64::INFINITY, f64::min);
    match stat {
        Statistic::Mean => Measured {
            value: mean,
            std_error: se,
            n,
        },
        Statistic::Median => Measured {
            value: median(values),
            std_error: 1.2533 * se,
            n,
        },
        Statistic::Min => Measured {
            value: minimum(values),
            std_error: se,
            n,
        },
        Statistic::RoundMedian if rounds.min(n) <= 1 => summarize(values, Statistic::Min, 1),
        Statistic::RoundMedian => {
            let k = rounds.min(n);
            let minima: Vec<f64> = (0..k)
                .map(|i| minimum(&values[i * n / k..(i + 1) * n / k]))
                .collect();
            let spread = summarize(&minima, Statistic::Median, 1);
            Measured {
                value: spread.value,
                std_error: spread.std_error,
                n,
            }
        }
    }
}

/// An [`Estimate`] with a 90 % interval from a measured value.
pub fn to_estimate(m: Measured) -> Estimate {
    let half = t_factor(m.n) * m.std_error;
    Estimate {
        mean_ns: m.value,
        std_dev_ns: m.std_error,
        ci_low_ns: m.value - half,
        ci_high_ns: m.value + half,
        observations: m.n,
    }
}

/// One experiment's body time per pass and its counts.
pub struct BodyTime<'a> {
    pub name: &'a str,
    pub counts: &'a OpCounts,
    pub body: Measured,
}

/// Solve `unknowns` from `bodies`, given already `known` parameters (Saavedra-Barrera's eqs. 4.7-4.12).
///
/// For each experiment k: `y_k = B_k - sum_known c_kj P_j`, with variance
/// `var_k = se(B_k)^2 + sum_known c_kj^2 se(P_j)^2`. The unknowns are the least-squares
/// solution `P = (C^T C)^-1 C^T y` (exact when there are as many experiments as unknowns) and
/// `var(P_i) = sum_k A_ik^2 var_k` with `A = (C^T C)^-1 C^T`. One experiment with one unknown
/// and no known terms is the direct test `P = B / N`, `var = var(B) / N^2` (eq. 4.7).
pub fn solve(
    unknowns: &[Param],
    bodies: &[BodyTime],
    known: &BTreeMap<Param, Measured>,
) -> Result<(Vec<Measured>, TestKind), SolveError> {
    let u = unknowns.len();
    let mut c = Vec::new();
    let mut y = Vec::new();
    let mut var = Vec::new();
    let mut uses_known = false;
    for b in bodies {
        let mut yk = b.body.value;
        let mut vk = b.body.std_error.powi(2);
        for (&p, &n) in &b.counts.params {
            if unknowns.contains(&p) {
                continue;
            }
            let k = known.get(&p).ok_or(SolveError::MissingKnown {
                experiment: b.name.to_string(),
                param: p,
            })?;
            uses_known = true;
            yk -= n as f64 * k.value;
            vk += (n as f64 * k.std_error).powi(2);
        }
        c.push(
            unknowns
                .iter()
                .map(|&p| b.counts.get(p) as f64)
                .collect::<Vec<_>>(),
        );
        y.push(yk);
        var.push(vk);
    }
    // Normal equations: M = C^T C (u x u), then A = M^-1 C^T.
    let mut m = vec![vec![0.0; u]; u];
    for row in &c {
        for i in 0..u {
            for j in 0..u {
                m[i][j] += row[i] * row[j];
            }
        }
    }
    let inv = invert(m).ok_or_else(|| SolveError::Singular {
        unknowns: unknowns.to_vec(),
        experiments: bodies.iter().map(|b| b.name.to_string()).collect(),
    })?;
    let n_min = bodies.iter().map(|b| b.body.n).min().unwrap_or(0);
    let mut out = Vec::with_capacity(u);
    for inv_row in &inv {
        let a: Vec<f64> = c
            .iter()
            .map(|row| inv_row.iter().zip(row).map(|(x, r)| x * r).sum::<f64>())
            .collect();
        let value = a.iter().zip(&y).map(|(a, y)| a * y).sum();
        let variance: f64 = a.iter().zip(&var).map(|(a, v)| a * a * v).sum();
        out.push(Measured {
            value,
            std_error: variance.sqrt(),
            n: n_min,
        });
    }
    let kind = if bodies.len() > 1 {
        TestKind::Indirect
    } else if uses_known {
        TestKind::Composite
    } else {
        TestKind::Direct
    };
    Ok((out, kind))
}

/// Gauss-Jordan inverse of a small matrix; None when singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..n {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for r in 0..n {
            if r != col {
                let f = m[r][col];
                for j in 0..n {
                    m[r][j] -= f * m[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic normal generator (xorshift + Box-Muller) for simulations.
    struct Noise(u64);
    impl Noise {
        fn uniform(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn normal(&mut self, mean: f64, sd: f64) -> f64 {
            let (u1, u2) = (self.uniform().max(1e-300), self.uniform());
            mean + sd * (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
        }
        fn sample(&mut self, n: usize, mean: f64, sd: f64) -> Vec<f64> {
            (0..n).map(|_| self.normal(mean, sd)).collect()
        }
    }

    fn counts(pairs: &[(Param, u64)]) -> OpCounts {
        let mut c = OpCounts::new();
        for &(p, n) in pairs {
            c.add(p, n);
        }
        c
    }

    #[test]
    fn estimators() {
        let v = [3.0, 1.0, 2.0, 10.0];
        assert_eq!(summarize(&v, Statistic::Mean, 1).value, 4.0);
        assert_eq!(summarize(&v, Statistic::Median, 1).value, 2.5);
        assert_eq!(summarize(&v, Statistic::Min, 1).value, 1.0);
        // Two rounds: [3, 1] and [2, 10], minima 1 and 2.
        assert_eq!(summarize(&v, Statistic::RoundMedian, 2).value, 1.5);
        assert_eq!(summarize(&v, Statistic::RoundMedian, 1).value, 1.0);
        // One observation: an error as large as the value, finite, so a file can hold it.
        for stat in [Statistic::Mean, Statistic::Median, Statistic::Min] {
            let one = summarize(&[2.0], stat, 1);
            assert_eq!(one.value, 2.0);
            assert!(
                one.std_error.is_finite() && one.std_error >= 2.0,
                "{stat:?}"
            );
        }
    }

    #[test]
    fn the_round_median_takes_the_typical_process_not_the_fastest() {
        // Five processes, two observations each; one process ran in a fast phase (0.8) and
        // the others near 1.0 with an interruption each (1.3): the minimum picks the fast
        // process, the round median the typical one.
        let v = [1.3, 1.0, 0.8, 0.85, 1.02, 1.3, 1.3, 0.98, 1.01, 1.3];
        assert_eq!(summarize(&v, Statistic::Min, 5).value, 0.8);
        let m = summarize(&v, Statistic::RoundMedian, 5);
        assert_eq!(m.value, 1.0);
        assert!(m.std_error > 0.0 && m.std_error < 0.2);
        // More rounds than observations: one observation a round.
        assert_eq!(summarize(&v[..3], Statistic::RoundMedian, 5).value, 1.0);
    }

    #[test]
    fn direct_test_divides_by_n() {
        let c = counts(&[(Param::ARSL, 16)]);
        let body = Measured {
            value: 8.0,
            std_error: 0.16,
            n: 10,
        };
        let (p, kind) = solve(
            &[Param::ARSL],
            &[BodyTime {
                name: "e",
                counts: &c,
                body,
            }],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(kind, TestKind::Direct);
        assert!((p[0].value - 0.5).abs() < 1e-12);
        assert!((p[0].std_error - 0.01).abs() < 1e-12); // eq. 4.7: sigma_B / N
    }

    #[test]
    fn composite_test_adds_the_known_variance() {
        let c = counts(&[(Param::SRSL, 4), (Param::MRSL, 4)]);
        let known = BTreeMap::from([(
            Param::SRSL,
            Measured {
                value: 1.0,
                std_error: 0.1,
                n: 10,
            },
        )]);
        let body = Measured {
            value: 12.0,
            std_error: 0.3,
            n: 10,
        };
        let (p, kind) = solve(
            &[Param::MRSL],
            &[BodyTime {
                name: "e",
                counts: &c,
                body,
            }],
            &known,
        )
        .unwrap();
        assert_eq!(kind, TestKind::Composite);
        assert!((p[0].value - 2.0).abs() < 1e-12);
        // eq. 4.8: var = (var_B + N_s^2 var_S) / N^2 = (0.09 + 0.16) / 16
        assert!((p[0].std_error - (0.25f64 / 16.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn indirect_test_separates_coupled_parameters() {
        // B1 = LOIN + 1 LOOV, B2 = LOIN + 16 LOOV (Saavedra-Barrera eq. 4.12).
        let c1 = counts(&[(Param::LOIN, 1), (Param::LOOV, 1)]);
        let c2 = counts(&[(Param::LOIN, 1), (Param::LOOV, 16)]);
        let m = |v| Measured {
            value: v,
            std_error: 0.15,
            n: 10,
        };
        let (p, kind) = solve(
            &[Param::LOIN, Param::LOOV],
            &[
                BodyTime {
                    name: "a",
                    counts: &c1,
                    body: m(3.0 + 1.0),
                },
                BodyTime {
                    name: "b",
                    counts: &c2,
                    body: m(3.0 + 16.0),
                },
            ],
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(kind, TestKind::Indirect);
        assert!((p[0].value - 3.0).abs() < 1e-9);
        assert!((p[1].value - 1.0).abs() < 1e-9);
        // LOOV = (B2 - B1) / 15: sigma = sqrt(2) 0.15 / 15.
        assert!((p[1].std_error - 0.15 * 2f64.sqrt() / 15.0).abs() < 1e-12);
        // LOIN = (16 B1 - B2) / 15: sigma = sqrt(257) 0.15 / 15.
        assert!((p[0].std_error - 0.15 * 257f64.sqrt() / 15.0).abs() < 1e-12);
    }

    #[test]
    fn singular_system_is_reported() {
        let c = counts(&[(Param::SRSL, 1), (Param::ARSL, 1)]);
        let m = Measured {
            value: 1.0,
            std_error: 0.1,
            n: 10,
        };
        let e = solve(
            &[Param::SRSL, Param::ARSL],
            &[
                BodyTime {
                    name: "a",
                    counts: &c,
                    body: m,
                },
                BodyTime {
                    name: "b",
                    counts: &c,
                    body: m,
                },
            ],
            &BTreeMap::new(),
        )
        .unwrap_err();
        assert!(matches!(e, SolveError::Singular { .. }));
    }

    /// Simulated observations: the 90 % intervals of an indirect test built from noisy
    /// samples must contain the true value about 90 % of the time.
    #[test]
    fn simulated_intervals_cover_the_truth() {
        let mut noise = Noise(0x9e3779b97f4a7c15);
        let (s_true, a_true) = (0.2, 0.4);
        let c1 = counts(&[(Param::SRSL, 16), (Param::ARSL, 16)]);
        let c2 = counts(&[(Param::SRSL, 16), (Param::ARSL, 32)]);
        let trials = 2000;
        let mut covered = [0usize; 2];
        for _ in 0..trials {
            let b1 = summarize(
                &noise.sample(10, 16.0 * (s_true + a_true), 0.3),
                Statistic::Mean,
                1,
            );
            let b2 = summarize(
                &noise.sample(10, 16.0 * s_true + 32.0 * a_true, 0.3),
                Statistic::Mean,
                1,
            );
            let (p, _) = solve(
                &[Param::SRSL, Param::ARSL],
                &[
                    BodyTime {
                        name: "1",
                        counts: &c1,
                        body: b1,
                    },
                    BodyTime {
                        name: "2",
                        counts: &c2,
                        body: b2,
                    },
                ],
                &BTreeMap::new(),
            )
            .unwrap();
            for (i, truth) in [s_true, a_true].iter().enumerate() {
                if to_estimate(p[i]).contains(*truth) {
                    covered[i] += 1;
                }
            }
        }
        for c in covered {
            let rate = c as f64 / trials as f64;
            assert!((0.85..=0.95).contains(&rate), "coverage {rate}");
        }
    }
}
