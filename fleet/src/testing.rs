//! Characterizations made up for the unit tests.

use model::characterization::{
    Characterization, CompilerInfo, MachineInfo, ParameterResult, RunSettings, Statistic, TestKind,
};
use model::{Estimate, Param};
use std::path::{Path, PathBuf};

/// A characterization of a node in `partition`, gfortran -O0, quick, of `only`.
pub fn characterization(partition: &str, only: Option<Vec<Param>>) -> Characterization {
    let mut c = Characterization::new(
        MachineInfo {
            cpu_model: format!("CPU of {partition}"),
            cores: 2,
            hostname: format!("{partition}-node1"),
            slurm_partition: Some(partition.into()),
            ..Default::default()
        },
        CompilerInfo {
            path: "/usr/bin/gfortran".into(),
            version: "12".into(),
            flags: vec!["-O0".into()],
        },
        "2026-11-25T15:04:05Z".into(),
        RunSettings {
            tmax_s: 0.01,
            repeat: 5,
            statistic: Statistic::Min,
            quick: true,
            only,
            rounds: 1,
        },
    );
    c.complete = true;
    c
}

/// The same with every parameter costing `ns` (± 1 %).
pub fn costing(partition: &str, ns: f64) -> Characterization {
    let mut c = characterization(partition, None);
    c.parameters = Param::measured()
        .map(|p| ParameterResult {
            mnemonic: p,
            number: p.def().number,
            estimate: Estimate {
                mean_ns: ns,
                std_dev_ns: 0.006 * ns,
                ci_low_ns: 0.99 * ns,
                ci_high_ns: 1.01 * ns,
                observations: 5,
            },
            test_kind: TestKind::Direct,
            experiments: Vec::new(),
            unmeasured: None,
        })
        .collect();
    c
}

/// Write a characterization as `dir/name`.
pub fn write(dir: &Path, name: &str, c: &Characterization) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, export::json("test", c).unwrap()).unwrap();
    path
}
