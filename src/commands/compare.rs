//! `opcost compare`: systems side by side (Saavedra-Barrera's figures 4.10-4.11, tables 7.1 and 7.3).

use anyhow::{bail, Result};
use model::{Param, Region};
use predictor::compare::{
    compare_program, normalized, predict_on, time_distribution, ComparisonReport, System,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost compare results/*--gfortran-O0.json results/*--gfortran-O1.json
  opcost compare A.json B.json --reference B --programs fortran-samples/*.f --plot results/compare

A system's name is its file's stem. Measured times come from the validation CSV beside each
file (results/validation-<stem>.csv, written by `opcost validate`) where it exists.
With --json -, standard output holds only the JSON and the report goes to standard error.")]
pub struct Args {
    /// Characterizations to compare (two or more)
    #[arg(required = true, num_args = 2.., value_name = "RESULT.json")]
    systems: Vec<PathBuf>,
    /// The system the others are normalized to (a file stem) [default: the first]
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    /// Programs (sources or ProgramStats JSON) to predict on every system
    #[arg(long, value_name = "PROGRAM", num_args = 1..)]
    programs: Vec<PathBuf>,
    /// Directory for SVG charts (normalized parameters by region)
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Everything as JSON ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// Measured times from the validation CSV beside a characterization, by program.
fn measured_times(path: &Path) -> Vec<(String, f64)> {
    let csv = path
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("validation-{}.csv", stem(path)));
    std::fs::read_to_string(csv)
        .ok()
        .and_then(|t| predictor::validate::read_validation_csv(&t).ok())
        .unwrap_or_default()
}

pub fn run(a: Args) -> Result<()> {
    use prettytable::{format, Cell, Row, Table};
    crate::commands::route_report(&[("--json", a.json.as_deref())])?;
    let mut systems = Vec::new();
    for p in &a.systems {
        systems.push(System {
            name: stem(p),
            machine: crate::commands::characterize::load(p)?,
        });
    }
    // Parameters by the mean and by the minimum differ by 10 % or more on a shared host
    // (docs/model.md, refinement 15): that would read as a difference between the systems.
    let statistic = |s: &System| s.machine.settings.statistic;
    if systems
        .iter()
        .any(|s| statistic(s) != statistic(&systems[0]))
    {
        let each: Vec<String> = systems
            .iter()
            .map(|s| format!("{} by the {}", s.name, statistic(s).name()))
            .collect();
        eprintln!(
            "warning: the systems' parameters are estimated differently ({}); re-estimate them alike with `opcost characterize --resume FILE --statistic min`",
            each.join(", ")
        );
    }
    let reference = match &a.reference {
        None => 0,
        Some(r) => match systems.iter().position(|s| &s.name == r) {
            Some(i) => i,
            None => bail!(
                "--reference {r} is none of the systems: {}",
                systems
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    };
    crate::say!("Systems (reference: {}):", systems[reference].name);
    for (i, s) in systems.iter().enumerate() {
        crate::say!(
            "  [{i}] {}: {} {} ({})",
            s.name,
            s.machine.compiler.path,
            s.machine.compiler.flags.join(" "),
            s.machine.machine.cpu_model
        );
    }

    // Parameters normalized to the reference (Saavedra-Barrera figures 4.10-4.11).
    let rows = normalized(&systems, reference);
    let mut t = Table::new();
    t.set_format(*format::consts::FORMAT_NO_BORDER_LINE_SEPARATOR);
    let mut titles = vec![
        Cell::new("Param"),
        Cell::new(&format!("{} ns", systems[reference].name)),
    ];
    titles.extend(
        systems
            .iter()
            .map(|s| Cell::new(&format!("{} / ref", s.name))),
    );
    t.set_titles(Row::new(titles));
    for r in &rows {
        let Some(base) = r.values_ns[reference] else {
            continue;
        };
        let mut cells = vec![
            Cell::new(r.mnemonic.mnemonic()),
            Cell::new(&format!("{base:.3}")),
        ];
        cells.extend(
            r.ratios
                .iter()
                .map(|x| Cell::new(&x.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into()))),
        );
        t.add_row(Row::new(cells));
    }
    crate::say!("\nParameters relative to the reference (Saavedra-Barrera's figures 4.10-4.11):");
    crate::commands::show(&t);
    // How far each system is from the reference, parameter by parameter (for two runs of the
    // same system this is the run-to-run agreement).
    for (i, s) in systems.iter().enumerate() {
        if i == reference {
            continue;
        }
        let mut diffs: Vec<(f64, Param)> = rows
            .iter()
            .filter_map(|r| r.ratios[i].map(|x| ((x - 1.0).abs() * 100.0, r.mnemonic)))
            .collect();
        if diffs.is_empty() {
            continue;
        }
        diffs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (worst, wp) = diffs[diffs.len() - 1];
        crate::say!(
            "{} vs {}: median |difference| {:.1} %, worst {:.1} % ({}), over {} parameters",
            s.name,
            systems[reference].name,
            diffs[diffs.len() / 2].0,
            worst,
            wp,
            diffs.len()
        );
    }
    if let Some(dir) = &a.plot {
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
            predictor::plot::normalized_chart(
                &format!("Region {}: {}", region.0, region.title()),
                &names,
                &series,
                &path,
            )?;
        }
        eprintln!("wrote charts to {}", dir.display());
    }

    // Programs: predicted (and measured) relative performance (Saavedra-Barrera table 7.1) and where the
    // time goes (Saavedra-Barrera table 7.3).
    let mut comparisons = Vec::new();
    let mut distributions = Vec::new();
    if !a.programs.is_empty() {
        let measured: Vec<Vec<(String, f64)>> =
            a.systems.iter().map(|p| measured_times(p)).collect();
        for prog in &a.programs {
            let stats = crate::commands::predict::program_stats(
                std::slice::from_ref(prog),
                &systems[reference].machine,
                &[],
                None,
                Duration::from_secs(600),
                &[],
                true,
            )?;
            let m: Vec<Option<f64>> = measured
                .iter()
                .map(|rows| {
                    rows.iter()
                        .find(|(p, _)| *p == stats.program)
                        .map(|(_, t)| *t)
                })
                .collect();
            let predictions = predict_on(&stats, &systems)?;
            comparisons.push(compare_program(&stats, &predictions, m));
            distributions.push(time_distribution(&stats, &predictions));
        }
        let mut t = Table::new();
        t.set_format(*format::consts::FORMAT_NO_BORDER_LINE_SEPARATOR);
        let mut titles = vec![Cell::new("Program")];
        for s in &systems {
            titles.push(Cell::new(&format!("{} pred s", s.name)));
            titles.push(Cell::new(&format!("{} real s", s.name)));
        }
        titles.push(Cell::new("fastest: predicted / real"));
        t.set_titles(Row::new(titles));
        let mut agree = 0;
        let mut known = 0;
        for c in &comparisons {
            let mut cells = vec![Cell::new(&c.program)];
            for i in 0..systems.len() {
                cells.push(Cell::new(&format!("{:.3}", c.predicted_s[i])));
                cells.push(Cell::new(
                    &c.measured_s[i]
                        .map(|v| format!("{v:.3}"))
                        .unwrap_or_else(|| "-".into()),
                ));
            }
            let pf = c
                .predicted_fastest()
                .map(|i| systems[i].name.clone())
                .unwrap_or_default();
            let mf = c.measured_fastest().map(|i| systems[i].name.clone());
            if let Some(m) = &mf {
                known += 1;
                if *m == pf {
                    agree += 1;
                }
            }
            cells.push(Cell::new(&format!(
                "{pf} / {}",
                mf.unwrap_or_else(|| "-".into())
            )));
            t.add_row(Row::new(cells));
        }
        crate::say!("\nPredicted and real run times (Saavedra-Barrera's table 7.1):");
        crate::commands::show(&t);
        // Relative performance of every pair.
        for i in 0..systems.len() {
            for j in (i + 1)..systems.len() {
                crate::say!(
                    "\nRelative performance {} vs {} (time ratio {} / {}, > 1: {} faster):",
                    systems[j].name,
                    systems[i].name,
                    systems[i].name,
                    systems[j].name,
                    systems[j].name
                );
                for c in &comparisons {
                    let pred = c.predicted_s[i] / c.predicted_s[j];
                    let real = match (c.measured_s[i], c.measured_s[j]) {
                        (Some(a), Some(b)) => format!("{:.2}", a / b),
                        _ => "-".into(),
                    };
                    crate::say!("  {:<12} predicted {:.2}   real {}", c.program, pred, real);
                }
            }
        }
        if known > 0 {
            crate::say!("\nThe predicted fastest system is the real fastest for {agree} of {known} programs.");
        }
        for d in &distributions {
            let mut t = Table::new();
            t.set_format(*format::consts::FORMAT_NO_BORDER_LINE_SEPARATOR);
            let mut titles = vec![Cell::new("System")];
            titles.extend(d.params.iter().map(|p| Cell::new(p.mnemonic())));
            t.set_titles(Row::new(titles));
            for (s, sys) in systems.iter().enumerate() {
                let mut cells = vec![Cell::new(&sys.name)];
                for j in 0..d.params.len() {
                    let mark = if d.flagged[s][j] { "*" } else { "" };
                    cells.push(Cell::new(&format!(
                        "{:.1}{mark}",
                        100.0 * d.fractions[s][j]
                    )));
                }
                t.add_row(Row::new(cells));
            }
            crate::say!(
                "\n{}: % of predicted time in its ten most executed operations (* = 50 % above the geometric mean across systems; Saavedra-Barrera's table 7.3)",
                d.program
            );
            crate::commands::show(&t);
        }
    }
    if let Some(j) = &a.json {
        let doc = ComparisonReport {
            systems: systems.iter().map(|s| s.name.clone()).collect(),
            reference: systems[reference].name.clone(),
            parameters: rows,
            programs: comparisons,
            time_distribution: distributions,
        };
        crate::commands::write_json(j, "the comparison", &doc)?;
    }
    Ok(())
}
