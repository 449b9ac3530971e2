//! `opcost compare`: systems side by side (Saavedra-Barrera's figures 4.10-4.11, tables 7.1 and 7.3).

use anyhow::Result;
use export::Table;
use predictor::compare::{
    agreement, compare_programs, measured_times, mixed_statistics, normalized, reference_index,
    region_charts, ComparisonReport, NormalizedRow, OrderingAgreement, ProgramComparison, System,
    TimeDistribution,
};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost compare results/*--gfortran-O0.json results/*--gfortran-O1.json
  opcost compare A.json B.json --reference B --programs fortran-samples/*.f --plot results/compare
  opcost compare /shared/opcost --programs fortran-samples/linpack.f   # a fleet's folder

A folder stands for every complete characterization in it (files that are not
characterizations are named and skipped). A system's name is its file's stem. Measured times come from the validation CSV beside each
file (results/validation-<stem>.csv, written by `opcost validate`) where it exists.
With --json -, standard output holds only the JSON and the report goes to standard error.")]
pub struct Args {
    /// Characterizations to compare (two or more), or folders of them
    #[arg(required = true, num_args = 1.., value_name = "RESULT.json|DIR")]
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

pub fn run(a: Args) -> Result<()> {
    crate::commands::route_report(&[("--json", a.json.as_deref())])?;
    let paths = expand_folders(&a.systems)?;
    let systems = paths
        .iter()
        .map(|p| System::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(each) = mixed_statistics(&systems) {
        let each: Vec<String> = each
            .iter()
            .map(|(name, st)| format!("{name} by the {}", st.name()))
            .collect();
        eprintln!(
            "warning: the systems' parameters are estimated differently ({}); re-estimate them alike with `opcost characterize --resume FILE --statistic min`",
            each.join(", ")
        );
    }
    let reference = reference_index(&systems, a.reference.as_deref())?;
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
    print_parameters(&systems, reference, &rows);
    if let Some(dir) = &a.plot {
        region_charts(&systems, &rows, dir)?;
        eprintln!("wrote charts to {}", dir.display());
    }
    // Programs: predicted (and measured) relative performance (Saavedra-Barrera table 7.1)
    // and where the time goes (Saavedra-Barrera table 7.3).
    let (comparisons, distributions) = if a.programs.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        let measured: Vec<Vec<(String, f64)>> = paths.iter().map(|p| measured_times(p)).collect();
        let (c, d) = compare_programs(&systems, reference, &a.programs, &measured, |notes| {
            for n in notes {
                eprintln!("{n}");
            }
        })?;
        print_programs(&systems, &c);
        print_distributions(&systems, &d);
        (c, d)
    };
    if let Some(j) = &a.json {
        let doc = ComparisonReport {
            systems: systems.iter().map(|s| s.name.clone()).collect(),
            reference: systems[reference].name.clone(),
            parameters: rows,
            ordering: OrderingAgreement::of(&systems, &comparisons),
            programs: comparisons,
            time_distribution: distributions,
        };
        crate::commands::write_json(j, "the comparison", &doc)?;
    }
    Ok(())
}

/// The files to compare: each file as it is, each folder's complete characterizations
/// (its other files named and skipped); two at least.
fn expand_folders(given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in given {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let folder = fleet::folder::scan(p)?;
        for problem in &folder.problems {
            eprintln!("warning: skipping {problem}");
        }
        out.extend(folder.complete.into_iter().map(|e| e.path));
    }
    if out.len() < 2 {
        anyhow::bail!(
            "compare needs two characterizations or more; {} found in {}",
            out.len(),
            given
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(out)
}

/// A table of these columns (the systems' names make them), all left-aligned.
fn table(titles: &[String]) -> Table {
    Table::new(&titles.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The parameters relative to the reference, and each system's distance from it.
fn print_parameters(systems: &[System], reference: usize, rows: &[NormalizedRow]) {
    let mut titles = vec![
        "Param".to_string(),
        format!("{} ns", systems[reference].name),
    ];
    titles.extend(systems.iter().map(|s| format!("{} / ref", s.name)));
    let mut t = table(&titles);
    for r in rows {
        let Some(base) = r.values_ns[reference] else {
            continue;
        };
        let mut cells = vec![r.mnemonic.mnemonic().to_string(), format!("{base:.3}")];
        cells.extend(
            r.ratios
                .iter()
                .map(|x| x.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into())),
        );
        t.push(cells);
    }
    crate::say!("\nParameters relative to the reference (Saavedra-Barrera's figures 4.10-4.11):");
    crate::commands::show(&t);
    // How far each system is from the reference, parameter by parameter (for two runs of the
    // same system this is the run-to-run agreement).
    for (i, s) in systems.iter().enumerate() {
        if i == reference {
            continue;
        }
        let Some(d) = agreement(rows, i) else {
            continue;
        };
        crate::say!(
            "{} vs {}: median |difference| {:.1} %, worst {:.1} % ({}), over {} parameters",
            s.name,
            systems[reference].name,
            d.median_percent,
            d.worst_percent,
            d.worst,
            d.parameters
        );
    }
}

/// Predicted and real run times (table 7.1) and the relative performance of every pair.
fn print_programs(systems: &[System], comparisons: &[ProgramComparison]) {
    let mut titles = vec!["Program".to_string()];
    for s in systems {
        titles.push(format!("{} pred s", s.name));
        titles.push(format!("{} real s", s.name));
    }
    titles.push("fastest: predicted / real".into());
    let mut t = table(&titles);
    for c in comparisons {
        let mut cells = vec![c.program.clone()];
        for i in 0..systems.len() {
            cells.push(format!("{:.3}", c.predicted_s[i]));
            cells.push(
                c.measured_s[i]
                    .map(|v| format!("{v:.3}"))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        let pf = c
            .predicted_fastest()
            .map(|i| systems[i].name.clone())
            .unwrap_or_default();
        let mf = c.measured_fastest().map(|i| systems[i].name.clone());
        cells.push(format!("{pf} / {}", mf.unwrap_or_else(|| "-".into())));
        t.push(cells);
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
            for c in comparisons {
                let pred = c.predicted_s[i] / c.predicted_s[j];
                let real = match (c.measured_s[i], c.measured_s[j]) {
                    (Some(a), Some(b)) => format!("{:.2}", a / b),
                    _ => "-".into(),
                };
                crate::say!("  {:<12} predicted {:.2}   real {}", c.program, pred, real);
            }
        }
    }
    if let Some(o) = OrderingAgreement::of(systems, comparisons) {
        crate::say!(
            "\nThe predicted fastest system is the real fastest for {} of {} programs; the predicted faster of two systems is the real faster in {} of {} (program, pair) cases.",
            o.fastest_agree,
            o.fastest_known,
            o.pairs_agree,
            o.pairs_known
        );
    }
}

/// Where each program's predicted time goes on each system (table 7.3).
fn print_distributions(systems: &[System], distributions: &[TimeDistribution]) {
    for d in distributions {
        let mut titles = vec!["System".to_string()];
        titles.extend(d.params.iter().map(|p| p.mnemonic().to_string()));
        let mut t = table(&titles);
        for (s, sys) in systems.iter().enumerate() {
            let mut cells = vec![sys.name.clone()];
            for j in 0..d.params.len() {
                let mark = if d.flagged[s][j] { "*" } else { "" };
                cells.push(format!("{:.1}{mark}", 100.0 * d.fractions[s][j]));
            }
            t.push(cells);
        }
        crate::say!(
            "\n{}: % of predicted time in its ten most executed operations (* = 50 % above the geometric mean across systems; Saavedra-Barrera's table 7.3)",
            d.program
        );
        crate::commands::show(&t);
    }
}
