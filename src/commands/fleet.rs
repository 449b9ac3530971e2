//! `opcost fleet`: a cluster's node types characterized through Slurm into a shared folder,
//! their progress, and (from `predict --machines DIR`) a program ranked across them.

use anyhow::{bail, Context, Result};
use export::{Format, Table};
use fleet::folder::Folder;
use fleet::slurm::JobState;
use fleet::state::FleetState;
use fleet::submit::{Action, Plan, Request, RunRequest};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Submit a Slurm job array: one characterization per node type into a shared folder
    Submit(Box<SubmitArgs>),
    /// Per node type: done, running, pending or failed, and how old its characterization is
    Status(StatusArgs),
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost fleet submit --dir /shared/opcost --partition cpu,bigmem,gpu
  opcost fleet submit --dir /shared/opcost --constraint zen4 --constraint icelake --flags=-O2
  opcost fleet submit --dir /shared/opcost --nodes n001,n101 --time 2:00:00 --sbatch-arg=--account=perf
  opcost fleet submit --dir /shared/opcost --partition cpu,gpu --dry-run > fleet.sbatch

One array task per node type runs `opcost characterize` on a whole node (--exclusive) and
writes DIR/<node type>--<compiler tag>.json (atomically; X.partial.json while it runs).
The tasks of one array share its options, so with several node types the array is submitted
held, each task is moved to its partition, constraint or node (scontrol update), and the
array is released. Submitting again skips the node types already characterized with the
same compiler, flags and parameters, and those whose task is still queued or running;
a partial file is resumed (--resume). DIR/fleet-state.json records each task's job; task
logs go to DIR/logs/. DIR must be on a file system the nodes share. --dry-run prints the
batch script (standard output) and the plan (standard error), and submits nothing.
Details: docs/fleet.md.")]
pub struct SubmitArgs {
    /// The shared results folder (made if missing)
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Partitions to characterize, one node type each (repeat or comma-separate)
    #[arg(long, value_name = "P", value_delimiter = ',')]
    partition: Vec<String>,
    /// Node feature constraints, one node type each (repeat for several)
    #[arg(long, value_name = "C")]
    constraint: Vec<String>,
    /// Nodes to characterize, one node type each (repeat or comma-separate)
    #[arg(long, value_name = "NODE", value_delimiter = ',')]
    nodes: Vec<String>,
    /// Fortran compiler to characterize, as found on the nodes
    #[arg(long, value_name = "PATH", default_value = "gfortran")]
    compiler: String,
    /// Compiler flags
    #[arg(
        long,
        value_name = "FLAGS",
        default_value = "-O0",
        allow_hyphen_values = true
    )]
    flags: String,
    /// Quick characterizations (see `opcost characterize --help`)
    #[arg(long)]
    quick: bool,
    /// Measure only these parameters (comma-separated mnemonics)
    #[arg(long, value_name = "MNEMONIC,...")]
    only: Option<String>,
    /// Minimum duration of one observation, seconds (characterize's --tmax)
    #[arg(long, value_name = "S")]
    tmax: Option<f64>,
    /// Observations per experiment (characterize's --repeat)
    #[arg(long, value_name = "N")]
    repeat: Option<usize>,
    /// Processes per experiment (characterize's --rounds)
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    /// Skip X-Ray (caches, TLB, CPU parameters)
    #[arg(long)]
    no_xray: bool,
    /// Time limit of each task, in Slurm's form (minutes, HH:MM:SS, D-HH:MM:SS)
    #[arg(long, value_name = "TIME", default_value = "1:00:00")]
    time: String,
    /// Another sbatch option for the job, e.g. --sbatch-arg=--account=proj (repeatable)
    #[arg(long, value_name = "OPTION", allow_hyphen_values = true)]
    sbatch_arg: Vec<String>,
    /// The opcost binary the nodes run [default: this one]
    #[arg(long, value_name = "PATH")]
    opcost: Option<PathBuf>,
    /// Print the batch script and the plan; submit nothing, write nothing
    #[arg(long)]
    dry_run: bool,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost fleet status --dir /shared/opcost
  opcost fleet status --dir /shared/opcost --json -

A node type is done when its file is complete; running or pending while Slurm (squeue, or
sacct where accounting is kept) says so; failed when its task ended without a complete file
(the note names the task's log). Without Slurm's commands the files speak alone: partial or
missing. Files in the folder that are not characterizations are named and skipped.")]
pub struct StatusArgs {
    /// The shared results folder
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Write the status as JSON ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    match a.command {
        Sub::Submit(a) => submit(*a),
        Sub::Status(a) => status(a),
    }
}

/// An absolute path without requiring it to exist (the job runs in another directory).
fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))
}

fn request(a: &SubmitArgs) -> Result<Request> {
    let opcost = match &a.opcost {
        Some(p) => absolute(p)?,
        None => std::env::current_exe().context("cannot tell where this opcost binary is")?,
    };
    let req = Request {
        dir: absolute(&a.dir)?,
        nodes: fleet::node::node_types(&a.partition, &a.constraint, &a.nodes)?,
        run: RunRequest {
            compiler: a.compiler.clone(),
            flags: a.flags.clone(),
            quick: a.quick,
            only: a.only.clone(),
            tmax_s: a.tmax,
            repeat: a.repeat,
            rounds: a.rounds,
            no_xray: a.no_xray,
        },
        time: a.time.clone(),
        opcost,
        sbatch_args: a.sbatch_arg.clone(),
    };
    req.check()?;
    Ok(req)
}

/// Slurm's state of each recorded task, each array job asked once (None: not asked).
fn live_states(ask: bool) -> impl FnMut(&fleet::state::TaskRecord) -> Option<JobState> {
    let mut jobs: BTreeMap<String, BTreeMap<u32, JobState>> = BTreeMap::new();
    move |rec| {
        if !ask {
            return None;
        }
        jobs.entry(rec.job_id.clone())
            .or_insert_with(|| fleet::slurm::task_states(&rec.job_id).unwrap_or_default())
            .get(&rec.array_task)
            .cloned()
    }
}

fn submit(a: SubmitArgs) -> Result<()> {
    let req = request(&a)?;
    let folder = if req.dir.is_dir() {
        fleet::folder::scan(&req.dir)?
    } else {
        Folder::default()
    };
    let state = FleetState::load(&req.dir)?;
    let ask = !a.dry_run && fleet::slurm::installed("squeue");
    let plan = fleet::submit::plan(&req, &folder, &state, &mut live_states(ask));
    for p in &plan.problems {
        eprintln!("warning: skipping {p}");
    }
    // With --dry-run the script alone goes to standard output.
    print_plan(&plan, a.dry_run);
    let Some(job) = fleet::submit::job(&req, &plan) else {
        crate::say!("Nothing to submit: every node type is characterized or queued.");
        return Ok(());
    };
    if a.dry_run {
        print!("{}", fleet::script::batch_script(&job));
        print_placements(&job);
        return Ok(());
    }
    let s = fleet::submit::submit(&req, &plan, &job)?;
    crate::say!(
        "\nSubmitted job {} ({} task{}; script {}).\nFollow it with: opcost fleet status --dir {}",
        s.job_id,
        s.tasks.len(),
        if s.tasks.len() == 1 { "" } else { "s" },
        s.script.display(),
        req.dir.display()
    );
    Ok(())
}

/// What each node type's task does, as a table (on standard error for a dry run).
fn print_plan(plan: &Plan, to_stderr: bool) {
    let mut t = Table::new(&["Node type", "Result file", "Action"]);
    for p in &plan.tasks {
        let action = match &p.action {
            Action::Done => "skip: characterized already".to_string(),
            Action::Queued { task, state } => format!("skip: task {task} is {}", state.name()),
            Action::Resume { partial } => format!("resume {}", file_name(partial)),
            Action::Fresh { replaces: None } => "characterize".into(),
            Action::Fresh {
                replaces: Some(why),
            } => {
                format!("characterize (the existing file was {why}; it is kept as a backup)")
            }
        };
        t.push(vec![p.node.value.clone(), file_name(&p.result), action]);
    }
    if to_stderr {
        eprint!("{}", t.to_text());
    } else {
        crate::commands::show(&t);
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// How a dry run's script is submitted by hand when its tasks must be placed.
fn print_placements(job: &fleet::script::Job) {
    if !fleet::submit::needs_placing(job) {
        eprintln!("\nSubmit it with: sbatch SCRIPT");
        return;
    }
    eprintln!(
        "\nSubmit it held, place each task, release it (what submitting without --dry-run does):"
    );
    eprintln!("  J=$(sbatch --parsable --hold SCRIPT)");
    for (task, field, value) in fleet::submit::placements(job, "${J}") {
        eprintln!("  scontrol update JobId={task} {field}={value}");
    }
    eprintln!("  scontrol release $J");
}

fn status(a: StatusArgs) -> Result<()> {
    crate::commands::route_report(&[("--json", a.json.as_deref())])?;
    let dir = absolute(&a.dir)?;
    if !dir.is_dir() {
        bail!(
            "{} is not a folder: give the --dir of `opcost fleet submit`",
            dir.display()
        );
    }
    let r = fleet::status::status(&dir)?;
    for p in &r.problems {
        eprintln!("warning: skipping {p}");
    }
    if let Some(why) = &r.slurm_note {
        eprintln!("note: {why}: the status comes from the files alone");
    }
    print_status(&r);
    if let Some(j) = &a.json {
        crate::commands::write_json(j, "the fleet status", &r)?;
    }
    Ok(())
}

fn print_status(r: &fleet::status::Report) {
    let mut t = Table::new(&[
        "Node type",
        "Status",
        "File",
        "Task",
        "Slurm",
        "Age",
        "Partition",
        "CPU",
        "Host",
    ]);
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    for n in &r.nodes {
        t.push(vec![
            n.node_type.clone(),
            n.progress.name().into(),
            format!("{:?}", n.file).to_lowercase(),
            dash(&n.task),
            dash(&n.slurm_state),
            n.age_s.map_or("-".into(), fleet::status::age_text),
            dash(&n.partition),
            dash(&n.cpu),
            dash(&n.host),
        ]);
    }
    if r.nodes.is_empty() {
        crate::say!("No node type submitted or characterized in {} yet.", r.dir);
        return;
    }
    crate::commands::show(&t);
    for n in r.nodes.iter().filter(|n| !n.note.is_empty()) {
        crate::say!("{} ({}): {}", n.node_type, n.result, n.note);
    }
}

/// `opcost predict --machines DIR`: the program analyzed once, predicted on every complete
/// characterization of the folder, ranked fastest first.
pub fn rank(
    dir: &Path,
    program: &[PathBuf],
    opts: &predictor::stats::StatsOptions,
    exports: &[(Format, &str, Option<&str>)],
) -> Result<()> {
    let folder = fleet::folder::scan(dir)?;
    for p in &folder.problems {
        eprintln!("warning: skipping {p}");
    }
    for e in &folder.partial {
        eprintln!(
            "note: {} is not complete yet (a run under way or interrupted): not ranked; see `opcost fleet status --dir {}`",
            file_name(&e.path),
            dir.display()
        );
    }
    let Some(first) = folder.complete.first() else {
        bail!(
            "{} holds no complete characterization to rank ({} partial, {} unreadable); `opcost fleet status --dir {}` tells why",
            dir.display(),
            folder.partial.len(),
            folder.problems.len(),
            dir.display()
        );
    };
    let stats = predictor::stats::program_stats(program, &first.characterization, opts)?;
    for note in &stats.notes {
        eprintln!("{note}");
    }
    let ranking = fleet::rank::rank(&stats.stats, &folder.complete);
    for f in &ranking.failed {
        eprintln!("warning: not ranked: {f}");
    }
    print_ranking(&ranking, &first.name());
    for (format, _, target) in exports {
        if let Some(t) = target {
            export::emit(&ranking, *format, t)?;
        }
    }
    Ok(())
}

fn print_ranking(r: &fleet::rank::Ranking, analyzed_on: &str) {
    let mut t = Table::new(&[
        "Rank",
        "Machine",
        "Partition",
        "CPU",
        "Host",
        "Predicted (s)",
        "90 % interval (s)",
        "vs fastest",
    ])
    .right(&["Rank", "Predicted (s)", "90 % interval (s)", "vs fastest"]);
    for m in &r.machines {
        t.push(vec![
            m.rank.to_string(),
            m.machine.clone(),
            m.partition.clone().unwrap_or_else(|| "-".into()),
            m.cpu.clone(),
            m.host.clone(),
            format!("{:.4}", m.predicted_s),
            format!("{:.4} .. {:.4}", m.ci_low_s, m.ci_high_s),
            format!(
                "{:.2}{}",
                m.relative_to_fastest,
                if m.overlaps_fastest { " ~" } else { "" }
            ),
        ]);
    }
    crate::say!(
        "{}: predicted run time on {} machines, fastest first (counted once, built for {analyzed_on})",
        r.program,
        r.machines.len()
    );
    crate::commands::show(&t);
    if r.machines.iter().any(|m| m.overlaps_fastest) {
        crate::say!("~ its interval overlaps the fastest's: the two are not told apart at 90 %");
    }
    for m in &r.machines {
        for w in &m.warnings {
            eprintln!("warning: {}: {w}", m.machine);
        }
    }
}
