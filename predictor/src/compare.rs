//! Machine comparison (Saavedra-Barrera's sections 4.7 and 7): parameters normalized to a reference
//! system (figures 4.10-4.11), predicted relative performance per program and pair of systems
//! beside the measured one (table 7.1), and where each program's time goes on each system
//! (table 7.3).

use crate::predict::{part_counts, predict_program, PredictError, Prediction};
use model::characterization::{Characterization, Statistic};
use model::{Param, ProgramStats, Region};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    /// How often the predictions order the systems as the real times do (absent without
    /// real times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ordering: Option<OrderingAgreement>,
}

/// How often the predictions order systems as the real times do (issue 27: does compare
/// predict which build runs a program faster).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderingAgreement {
    /// Programs whose predicted fastest system is the real fastest, of those with real times.
    pub fastest_agree: usize,
    pub fastest_known: usize,
    /// (program, pair of systems) with both real times where the prediction says which of
    /// the two is faster as the real times do.
    pub pairs_agree: usize,
    pub pairs_known: usize,
}

impl OrderingAgreement {
    /// None when no program has real times on two systems.
    pub fn of(systems: &[System], comparisons: &[ProgramComparison]) -> Option<OrderingAgreement> {
        let (fastest_agree, fastest_known) = fastest_agreement(systems, comparisons);
        let (pairs_agree, pairs_known) = pair_agreement(comparisons);
        (pairs_known > 0).then_some(OrderingAgreement {
            fastest_agree,
            fastest_known,
            pairs_agree,
            pairs_known,
        })
    }
}

/// Over every program and every pair of systems with real times on both: in how many the
/// predicted faster of the two is the real faster: (agree, known).
pub fn pair_agreement(comparisons: &[ProgramComparison]) -> (usize, usize) {
    let mut agree = 0;
    let mut known = 0;
    for c in comparisons {
        for i in 0..c.measured_s.len() {
            for j in i + 1..c.measured_s.len() {
                let (Some(a), Some(b)) = (c.measured_s[i], c.measured_s[j]) else {
                    continue;
                };
                known += 1;
                if (a < b) == (c.predicted_s[i] < c.predicted_s[j]) {
                    agree += 1;
                }
            }
        }
    }
    (agree, known)
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

/// What can go wrong comparing systems.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error(transparent)]
    Load(#[from] model::LoadError),
    #[error("--reference {name} is none of the systems: {}", systems.join(", "))]
    UnknownReference { name: String, systems: Vec<String> },
    #[error(transparent)]
    Stats(#[from] crate::stats::StatsError),
    #[error(transparent)]
    Predict(#[from] PredictError),
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A system's name: its file's stem.
pub fn system_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

impl System {
    /// A characterization file as a system named by its file's stem.
    pub fn load(path: &Path) -> Result<System, model::LoadError> {
        Ok(System {
            name: system_name(path),
            machine: Characterization::load(path)?,
        })
    }
}

/// Measured times from the validation CSV beside a characterization
/// (`validation-<stem>.csv`, written by `opcost validate`), by program; none without one.
pub fn measured_times(path: &Path) -> Vec<(String, f64)> {
    let csv = path
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("validation-{}.csv", system_name(path)));
    std::fs::read_to_string(csv)
        .ok()
        .and_then(|t| crate::validate::read_validation_csv(&t).ok())
        .unwrap_or_default()
}

/// Each system's name and statistic when the systems' parameters are estimated by different
/// statistics (that alone makes them differ by 10 % or more on a shared host, docs/model.md
/// refinement 15); None when they are estimated alike.
pub fn mixed_statistics(systems: &[System]) -> Option<Vec<(String, Statistic)>> {
    let statistic = |s: &System| s.machine.settings.statistic;
    let first = systems.first().map(statistic)?;
    systems.iter().any(|s| statistic(s) != first).then(|| {
        systems
            .iter()
            .map(|s| (s.name.clone(), statistic(s)))
            .collect()
    })
}

/// The index of the reference system named `name` (None: the first).
pub fn reference_index(systems: &[System], name: Option<&str>) -> Result<usize, CompareError> {
    match name {
        None => Ok(0),
        Some(r) => {
            systems
                .iter()
                .position(|s| s.name == r)
                .ok_or_else(|| CompareError::UnknownReference {
                    name: r.to_string(),
                    systems: systems.iter().map(|s| s.name.clone()).collect(),
                })
        }
    }
}

/// How far one system's parameters are from the reference's: |ratio - 1| in %.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    pub median_percent: f64,
    pub worst_percent: f64,
    pub worst: Param,
    pub parameters: usize,
}

/// The agreement of system `i` with the reference over the normalized rows (for two runs of
/// the same system, the run-to-run agreement); None when no parameter is shared.
pub fn agreement(rows: &[NormalizedRow], i: usize) -> Option<Agreement> {
    let mut diffs: Vec<(f64, Param)> = rows
        .iter()
        .filter_map(|r| r.ratios[i].map(|x| ((x - 1.0).abs() * 100.0, r.mnemonic)))
        .collect();
    if diffs.is_empty() {
        return None;
    }
    diffs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (worst_percent, worst) = diffs[diffs.len() - 1];
    Some(Agreement {
        median_percent: diffs[diffs.len() / 2].0,
        worst_percent,
        worst,
        parameters: diffs.len(),
    })
}

/// Draw the normalized parameters of every region as `dir/region-NN.svg`.
pub fn region_charts(
    systems: &[System],
    rows: &[NormalizedRow],
    dir: &Path,
) -> Result<(), CompareError> {
    std::fs::create_dir_all(dir)?;
    for region in Region::ALL {
        let params: Vec<Param> = Param::ALL
            .iter()
            .copied()
            .filter(|p| p.def().region == region)
            .collect();
        let series: Vec<(String, Vec<Option<f64>>)> = systems
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.name.clone(),
                    params
                        .iter()
                        .map(|p| {
                            rows.iter()
                                .find(|r| r.mnemonic == *p)
                                .and_then(|r| r.ratios[i])
                        })
                        .collect(),
                )
            })
            .collect();
        let names: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        let path = dir.join(format!("region-{:02}.svg", region.0));
        crate::plot::normalized_chart(
            &format!("Region {}: {}", region.0, region.title()),
            &names,
            &series,
            &path,
        )?;
    }
    Ok(())
}

/// Tables 7.1 and 7.3 for programs: each analyzed once (with the reference system's
/// compiler) and predicted on every system, beside the measured times (`measured[system]`,
/// by program). `notes` gets each program's analysis notes as they come.
pub fn compare_programs(
    systems: &[System],
    reference: usize,
    programs: &[PathBuf],
    measured: &[Vec<(String, f64)>],
    mut notes: impl FnMut(&[String]),
) -> Result<(Vec<ProgramComparison>, Vec<TimeDistribution>), CompareError> {
    let mut comparisons = Vec::new();
    let mut distributions = Vec::new();
    for prog in programs {
        let stats = crate::stats::program_stats(
            std::slice::from_ref(prog),
            &systems[reference].machine,
            &crate::stats::StatsOptions {
                keep_going: true,
                ..crate::stats::StatsOptions::default()
            },
        )?;
        notes(&stats.notes);
        let stats = stats.stats;
        let m: Vec<Option<f64>> = measured
            .iter()
            .map(|rows| {
                rows.iter()
                    .find(|(p, _)| *p == stats.program)
                    .map(|(_, t)| *t)
            })
            .collect();
        let predictions = predict_on(&stats, systems)?;
        comparisons.push(compare_program(&stats, &predictions, m));
        distributions.push(time_distribution(&stats, &predictions));
    }
    Ok((comparisons, distributions))
}

/// Of the programs with a measured fastest system, in how many the predicted fastest system
/// (by name) is the measured fastest: (agree, known).
pub fn fastest_agreement(systems: &[System], comparisons: &[ProgramComparison]) -> (usize, usize) {
    let mut agree = 0;
    let mut known = 0;
    for c in comparisons {
        if let Some(m) = c.measured_fastest() {
            known += 1;
            let predicted = c
                .predicted_fastest()
                .map(|i| systems[i].name.as_str())
                .unwrap_or_default();
            if systems[m].name == predicted {
                agree += 1;
            }
        }
    }
    (agree, known)
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
                ..Default::default()
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
                unmeasured: None,
            });
        }
        System {
            name: name.into(),
            machine: c,
        }
    }

    fn stats(c: OpCounts) -> ProgramStats {
        ProgramStats::of_counts("p", c)
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

    #[test]
    fn the_reference_is_found_by_name_and_an_unknown_one_names_the_systems() {
        let systems = [sys("a", &[]), sys("b", &[])];
        assert_eq!(reference_index(&systems, None).unwrap(), 0);
        assert_eq!(reference_index(&systems, Some("b")).unwrap(), 1);
        let e = reference_index(&systems, Some("c")).unwrap_err();
        assert_eq!(e.to_string(), "--reference c is none of the systems: a, b");
    }

    #[test]
    fn systems_estimated_differently_are_named_with_their_statistics() {
        let mut systems = vec![sys("a", &[]), sys("b", &[])];
        assert!(mixed_statistics(&systems).is_none());
        systems[1].machine.settings.statistic = Statistic::Min;
        let each = mixed_statistics(&systems).unwrap();
        assert_eq!(each[0], ("a".to_string(), Statistic::Mean));
        assert_eq!(each[1], ("b".to_string(), Statistic::Min));
    }

    #[test]
    fn agreement_gives_the_median_and_the_worst_difference() {
        let systems = [
            sys(
                "a",
                &[(Param::ARSL, 1.0), (Param::MRSL, 1.0), (Param::DRSL, 1.0)],
            ),
            sys(
                "b",
                &[(Param::ARSL, 1.1), (Param::MRSL, 1.0), (Param::DRSL, 1.5)],
            ),
        ];
        let rows = normalized(&systems, 0);
        let d = agreement(&rows, 1).unwrap();
        assert_eq!(d.parameters, 3);
        assert_eq!(d.worst, Param::DRSL);
        assert!((d.worst_percent - 50.0).abs() < 1e-9);
        assert!((d.median_percent - 10.0).abs() < 1e-9);
        assert_eq!(agreement(&rows, 0).unwrap().worst_percent, 0.0);
    }

    #[test]
    fn the_fastest_agree_by_name_where_a_real_time_is_known() {
        let systems = [sys("a", &[]), sys("b", &[])];
        let c = |p: [f64; 2], m: Vec<Option<f64>>| ProgramComparison {
            program: "p".into(),
            predicted_s: p.to_vec(),
            measured_s: m,
        };
        let comparisons = [
            c([1.0, 2.0], vec![Some(1.0), Some(2.0)]),
            c([1.0, 2.0], vec![Some(3.0), Some(2.0)]),
            c([1.0, 2.0], vec![None, None]),
        ];
        assert_eq!(fastest_agreement(&systems, &comparisons), (1, 2));
        assert_eq!(pair_agreement(&comparisons), (1, 2));
    }

    #[test]
    fn a_system_is_named_by_its_file_stem_and_measured_times_come_from_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m--gfortran-O0.json");
        assert_eq!(system_name(&m), "m--gfortran-O0");
        assert!(measured_times(&m).is_empty());
        std::fs::write(
            dir.path().join("validation-m--gfortran-O0.csv"),
            "program,real_s\nsieve,1.5\n",
        )
        .unwrap();
        assert_eq!(measured_times(&m), vec![("sieve".to_string(), 1.5)]);
    }
}
