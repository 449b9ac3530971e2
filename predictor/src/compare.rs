//! Machine comparison (Saavedra-Barrera's sections 4.7 and 7): parameters normalized to a reference
//! system (figures 4.10-4.11), predicted relative performance per program and pair of systems
//! beside the measured one (table 7.1), and where each program's time goes on each system
//! (table 7.3).

use crate::predict::{part_counts, predict_program, PredictError, Prediction};
use model::characterization::Characterization;
use model::{Param, ProgramStats};
use serde::{Deserialize, Serialize};

/// A characterized system with a short name (file stem).
#[derive(Debug, Clone)]
pub struct System {
    pub name: String,
    pub machine: Characterization,
}

/// One parameter across systems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NormalizedRow {
    pub mnemonic: Param,
    pub values_ns: Vec<Option<f64>>,
    /// value / reference value; None where either is missing or not positive.
    pub ratios: Vec<Option<f64>>,
}

pub fn normalized(systems: &[System], reference: usize) -> Vec<NormalizedRow> {
    Param::ALL
        .iter()
        .map(|&p| {
            let values: Vec<Option<f64>> = systems
                .iter()
                .map(|s| s.machine.parameter(p).map(|r| r.estimate.mean_ns))
                .collect();
            let base = values[reference].filter(|v| *v > 0.0);
            let ratios = values
                .iter()
                .map(|v| match (v, base) {
                    (Some(v), Some(b)) if *v > 0.0 => Some(v / b),
                    _ => None,
                })
                .collect();
            NormalizedRow {
                mnemonic: p,
                values_ns: values,
                ratios,
            }
        })
        .collect()
}

/// Predicted (and, where known, measured) time of one program on every system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramComparison {
    pub program: String,
    pub predicted_s: Vec<f64>,
    pub measured_s: Vec<Option<f64>>,
}

impl ProgramComparison {
    fn fastest(v: &[Option<f64>]) -> Option<usize> {
        v.iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
    pub fn predicted_fastest(&self) -> Option<usize> {
        Self::fastest(
            &self
                .predicted_s
                .iter()
                .map(|t| Some(*t))
                .collect::<Vec<_>>(),
        )
    }
    pub fn measured_fastest(&self) -> Option<usize> {
        if self.measured_s.iter().any(Option::is_none) {
            return None;
        }
        Self::fastest(&self.measured_s)
    }
}

/// Everything `opcost compare --json` writes: the systems, the reference, the normalized
/// parameters, and per program the predicted (and measured) times and where the time goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonReport {
    pub systems: Vec<String>,
    pub reference: String,
    pub parameters: Vec<NormalizedRow>,
    pub programs: Vec<ProgramComparison>,
    pub time_distribution: Vec<TimeDistribution>,
}

/// A program's prediction on each system, made once for both tables (each compiles the
/// program with the system's compiler for rule 17).
pub fn predict_on(
    stats: &ProgramStats,
    systems: &[System],
) -> Result<Vec<Prediction>, PredictError> {
    systems
        .iter()
        .map(|s| predict_program(stats, &s.machine))
        .collect()
}

/// Seed table 7.1 for one program, from its predictions on the systems ([`predict_on`]).
pub fn compare_program(
    stats: &ProgramStats,
    predictions: &[Prediction],
    measured: Vec<Option<f64>>,
) -> ProgramComparison {
    ProgramComparison {
        program: stats.program.clone(),
        predicted_s: predictions.iter().map(|p| p.total.seconds()).collect(),
        measured_s: measured,
    }
}

/// Seed table 7.3: for the ten most executed operations of a program, the fraction of the
/// predicted time each takes on each system; `flagged` marks values more than 50 % above the
/// geometric mean across systems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeDistribution {
    pub program: String,
    pub params: Vec<Param>,
    /// fractions[system][param]
    pub fractions: Vec<Vec<f64>>,
    pub flagged: Vec<Vec<bool>>,
}

pub fn time_distribution(stats: &ProgramStats, predictions: &[Prediction]) -> TimeDistribution {
    let c = part_counts(&stats.total);
    let mut top: Vec<(Param, u64)> = c.params.iter().map(|(p, n)| (*p, *n)).collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    top.truncate(10);
    let params: Vec<Param> = top.iter().map(|(p, _)| *p).collect();
    let fractions: Vec<Vec<f64>> = predictions
        .iter()
        .map(|pred| {
            params
                .iter()
                .map(|p| {
                    pred.total
                        .rows
                        .iter()
                        .find(|r| r.mnemonic == *p)
                        .map(|r| r.time_fraction)
                        .unwrap_or(0.0)
                })
                .collect()
        })
        .collect();
    let flagged = (0..predictions.len())
        .map(|s| {
            (0..params.len())
                .map(|j| {
                    let logs: Vec<f64> = fractions
                        .iter()
                        .map(|f| f[j])
                        .filter(|v| *v > 0.0)
                        .map(f64::ln)
                        .collect();
                    if logs.len() < 2 {
                        return false;
                    }
                    let gm = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
                    fractions[s][j] > 1.5 * gm
                })
                .collect()
        })
        .collect();
    TimeDistribution {
        program: stats.program.clone(),
        params,
        fractions,
        flagged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::characterization::*;
    use model::Estimate;
    use model::OpCounts;

    fn sys(name: &str, params: &[(Param, f64)]) -> System {
        let mut c = Characterization::new(
            MachineInfo {
                cpu_model: "cpu".into(),
                cores: 2,
                os: String::new(),
                hostname: String::new(),
                arch: String::new(),
            },
            CompilerInfo {
                path: "gfortran".into(),
                version: "12".into(),
                flags: vec![],
            },
            String::new(),
            RunSettings {
                tmax_s: 0.1,
                repeat: 10,
                statistic: Statistic::Mean,
                quick: false,
                only: None,
                rounds: 1,
            },
        );
        for &(p, v) in params {
            c.parameters.push(ParameterResult {
                mnemonic: p,
                number: p.def().number,
                estimate: Estimate {
                    mean_ns: v,
                    std_dev_ns: 0.0,
                    ci_low_ns: v,
                    ci_high_ns: v,
                    observations: 10,
                },
                test_kind: TestKind::Direct,
                experiments: vec![],
            });
        }
        System {
            name: name.into(),
            machine: c,
        }
    }

    fn stats(c: OpCounts) -> ProgramStats {
        ProgramStats {
            format: "opcost-program-stats".into(),
            format_version: 1,
            program: "p".into(),
            source_files: vec![],
            source_sha256: String::new(),
            total: model::program_stats::PartStats {
                name: "p".into(),
                static_counts: OpCounts::new(),
                dynamic_counts: Some(c),
                spans: vec![],
            },
            units: vec![],
            regions: vec![],
            skipped_statements: 0,
            blocks: vec![],
            loops: vec![],
            program_flags: vec![],
        }
    }

    #[test]
    fn ratios_against_the_reference() {
        let s = [
            sys("a", &[(Param::ARSL, 2.0)]),
            sys("b", &[(Param::ARSL, 1.0)]),
        ];
        let rows = normalized(&s, 0);
        let r = rows.iter().find(|r| r.mnemonic == Param::ARSL).unwrap();
        assert_eq!(r.ratios, vec![Some(1.0), Some(0.5)]);
        assert!(rows
            .iter()
            .find(|r| r.mnemonic == Param::DRSL)
            .unwrap()
            .ratios[1]
            .is_none());
    }

    #[test]
    fn predicted_and_measured_winner() {
        let s = [
            sys("slow", &[(Param::ARSL, 2.0)]),
            sys("fast", &[(Param::ARSL, 1.0)]),
        ];
        let mut c = OpCounts::new();
        c.add(Param::ARSL, 1_000_000_000);
        let st = stats(c);
        let pc = compare_program(
            &st,
            &predict_on(&st, &s).unwrap(),
            vec![Some(2.1), Some(0.9)],
        );
        assert_eq!(pc.predicted_s, vec![2.0, 1.0]);
        assert_eq!(pc.predicted_fastest(), Some(1));
        assert_eq!(pc.measured_fastest(), Some(1));
    }

    #[test]
    fn distribution_flags_outliers() {
        let s = [
            sys("a", &[(Param::ARSL, 1.0), (Param::DRSL, 1.0)]),
            sys("b", &[(Param::ARSL, 1.0), (Param::DRSL, 1.0)]),
            sys("c", &[(Param::ARSL, 1.0), (Param::DRSL, 20.0)]),
        ];
        let mut c = OpCounts::new();
        c.add(Param::ARSL, 100);
        c.add(Param::DRSL, 100);
        let st = stats(c);
        let d = time_distribution(&st, &predict_on(&st, &s).unwrap());
        let j = d.params.iter().position(|p| *p == Param::DRSL).unwrap();
        assert!(d.flagged[2][j]);
        assert!(!d.flagged[0][j]);
        assert!((d.fractions[0][j] - 0.5).abs() < 1e-12);
    }
}
