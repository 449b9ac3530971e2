//! A program's predicted run time on every characterization of a fleet, fastest first, with
//! the 90 % intervals: the table a user reads to pick a partition. The program's counts are
//! made once; each machine only multiplies them by its costs (N + M runs, not N · M).

use crate::folder::{Entry, Problem};
use model::ProgramStats;
use serde::Serialize;

/// One machine's place in the ranking.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedMachine {
    pub rank: usize,
    /// The result file's stem (`alpha--gfortran-O0`).
    pub machine: String,
    pub partition: Option<String>,
    pub cpu: String,
    pub cores: usize,
    pub host: String,
    /// Compiler and flags (`gfortran-O0`).
    pub compiler: String,
    /// When the machine was characterized, RFC 3339.
    pub characterized: String,
    pub predicted_s: f64,
    pub ci_low_s: f64,
    pub ci_high_s: f64,
    /// Predicted time over the fastest machine's.
    pub relative_to_fastest: f64,
    /// Whether its interval reaches into the fastest machine's: the two cannot be told apart.
    pub overlaps_fastest: bool,
    /// The prediction's own warnings (parameters the file lacks, uncharacterized operations).
    pub warnings: Vec<String>,
}

/// The ranking (format `opcost-fleet-ranking`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranking {
    pub format: String,
    pub format_version: u32,
    pub program: String,
    pub source_sha256: String,
    pub machines: Vec<RankedMachine>,
    /// Machines whose prediction failed, and why.
    pub failed: Vec<Problem>,
}

/// Predict the program on every machine and rank them, fastest first. A machine whose
/// prediction fails is listed in `failed`; the others are ranked.
pub fn rank(stats: &ProgramStats, machines: &[Entry]) -> Ranking {
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    for e in machines {
        match predictor::predict_program(stats, &e.characterization) {
            Ok(p) => rows.push(row(e, &p)),
            Err(err) => failed.push(Problem {
                path: e.path.clone(),
                message: crate::chain(&err),
            }),
        }
    }
    rows.sort_by(|a, b| a.predicted_s.total_cmp(&b.predicted_s));
    if let Some(fastest) = rows.first().cloned() {
        for (i, r) in rows.iter_mut().enumerate() {
            r.rank = i + 1;
            // A zero prediction (no parameter for any counted operation) has no ratio.
            r.relative_to_fastest = if fastest.predicted_s > 0.0 {
                r.predicted_s / fastest.predicted_s
            } else {
                1.0
            };
            r.overlaps_fastest = i > 0 && r.ci_low_s <= fastest.ci_high_s;
        }
    }
    Ranking {
        format: "opcost-fleet-ranking".into(),
        format_version: 1,
        program: stats.program.clone(),
        source_sha256: stats.source_sha256.clone(),
        machines: rows,
        failed,
    }
}

fn row(e: &Entry, p: &predictor::Prediction) -> RankedMachine {
    let c = &e.characterization;
    RankedMachine {
        rank: 0,
        machine: e.name(),
        partition: c.machine.slurm_partition.clone(),
        cpu: c.machine.cpu_model.clone(),
        cores: c.machine.cores,
        host: c.machine.hostname.clone(),
        compiler: c.compiler.tag(),
        characterized: c.date.clone(),
        predicted_s: p.total.seconds(),
        ci_low_s: p.total.time.ci_low_ns * 1e-9,
        ci_high_s: p.total.time.ci_high_ns * 1e-9,
        relative_to_fastest: 1.0,
        overlaps_fastest: false,
        warnings: p.warnings.clone(),
    }
}

/// The ranking as one table: CSV and Markdown exports (JSON is the struct itself).
impl export::Export for Ranking {
    fn what(&self) -> String {
        format!("the fleet ranking of {}", self.program)
    }

    fn table(&self) -> export::Table {
        let numbers = [
            "rank",
            "cores",
            "predicted_s",
            "ci_low_s",
            "ci_high_s",
            "relative_to_fastest",
        ];
        let mut t = export::Table::new(&[
            export::columns::PROGRAM,
            "rank",
            "machine",
            "partition",
            "cpu",
            "cores",
            "host",
            "compiler",
            "characterized",
            "predicted_s",
            "ci_low_s",
            "ci_high_s",
            "relative_to_fastest",
            "overlaps_fastest",
        ])
        .right(&numbers);
        for m in &self.machines {
            t.push(vec![
                self.program.clone(),
                m.rank.to_string(),
                m.machine.clone(),
                m.partition.clone().unwrap_or_default(),
                m.cpu.clone(),
                m.cores.to_string(),
                m.host.clone(),
                m.compiler.clone(),
                m.characterized.clone(),
                format!("{:.6e}", m.predicted_s),
                format!("{:.6e}", m.ci_low_s),
                format!("{:.6e}", m.ci_high_s),
                format!("{:.4}", m.relative_to_fastest),
                m.overlaps_fastest.to_string(),
            ]);
        }
        t
    }

    fn markdown(&self) -> String {
        format!(
            "# {}: predicted run time on each machine, fastest first\n\n{}",
            self.program,
            self.table().to_markdown()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{costing, write};

    fn stats(dir: &std::path::Path) -> ProgramStats {
        let src = dir.join("t.f");
        std::fs::write(
            &src,
            "      PROGRAM T\n      X = 1.0\n      Y = X + 2.0\n      END\n",
        )
        .unwrap();
        let opts = analyzer::AnalyzeOptions::default();
        let mut s = analyzer::analyze_static(&[src], &opts).unwrap().stats;
        s.total.dynamic_counts = Some(s.total.static_counts.clone());
        s
    }

    #[test]
    fn machines_are_ranked_fastest_first_with_their_identity() {
        let d = tempfile::tempdir().unwrap();
        let entries: Vec<Entry> = [("slow", 3.0), ("fast", 1.0), ("close", 1.005)]
            .iter()
            .map(|(p, ns)| {
                let c = costing(p, *ns);
                Entry {
                    path: write(d.path(), &format!("{p}--gfortran-O0.json"), &c),
                    characterization: c,
                }
            })
            .collect();
        let r = rank(&stats(d.path()), &entries);
        let order: Vec<(usize, &str)> = r
            .machines
            .iter()
            .map(|m| (m.rank, m.machine.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                (1, "fast--gfortran-O0"),
                (2, "close--gfortran-O0"),
                (3, "slow--gfortran-O0")
            ]
        );
        assert!(r.machines[1].overlaps_fastest, "1 % intervals, 0.5 % apart");
        assert!(!r.machines[2].overlaps_fastest);
        assert!((r.machines[2].relative_to_fastest - 3.0).abs() < 0.01);
        assert_eq!(r.machines[0].partition.as_deref(), Some("fast"));
        assert_eq!(r.machines[0].host, "fast-node1");
        let csv = export::render(&r, export::Format::Csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        assert!(csv.starts_with("program,rank,machine,partition,cpu"));
        assert_eq!(csv.lines().count(), 4);
    }
}
