//! `opcost time`: time one routine in the cache context the user asks for, with a generated
//! driver (Whaley & Castaldo timers, Magee, Yi & Whaley specifications), over a sweep of sizes, or inside its
//! whole application.

use anyhow::{bail, Context, Result};
use export::Table;
use model::hardware::HardwareReport;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use timing::app::{AppTiming, CallGroup};
use timing::driver::{DriverConfig, FlushSet, Method};
use timing::plan;
use timing::run::{SweepPoint, Timing};
use timing::spec::Spec;

#[derive(clap::Args)]
#[command(
    after_help = "Spec format: see `cargo doc -p timing` (module spec) or examples/time/*.spec.\n\
Examples:\n  opcost time examples/time/ddot.spec\n  \
opcost time examples/time/ddot.spec --sweep --plot ddot.svg --machine results/m.json\n  \
opcost time examples/time/sgefa.spec --flush A --in-app"
)]
pub struct Args {
    /// The routine specification
    spec: PathBuf,
    /// Operands out of cache: none, all (those marked `flush` in the spec) or a list A,B
    /// [default: both none and all]
    #[arg(long, value_name = "none|all|OPERAND,...")]
    flush: Option<String>,
    /// Flush area in KiB [default: twice the largest cache X-Ray measured]
    #[arg(long, value_name = "N")]
    flush_kb: Option<u64>,
    /// one-call (OneCallFlushLRU) or multi-call (MultiCallFlushLRU, for kernels below timer
    /// resolution) [default: one-call; multi-call for --sweep]
    #[arg(long, value_name = "one-call|multi-call")]
    method: Option<String>,
    /// The headline statistic: wall (minimum of wall times) or cpu (median of CPU times)
    #[arg(long, default_value = "wall", value_name = "wall|cpu")]
    timer: String,
    /// Timed samples per context (Whaley & Castaldo: 3 to 7)
    #[arg(long, default_value_t = 7)]
    samples: u32,
    /// Run the contexts of a point in turn this many times and pool their samples (contexts
    /// measured side by side see the same load on a shared machine)
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Time every size flushed and unflushed (Whaley & Castaldo fig. 1)
    #[arg(long)]
    sweep: bool,
    /// Draw the sweep as SVG
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Write all timings as JSON ("-" for standard output)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Cache capacities from a characterization (opcost characterize) or X-Ray JSON file
    /// (opcost xray --json) instead of measuring them
    #[arg(long, value_name = "RESULT.json")]
    machine: Option<PathBuf>,
    /// Also time the routine inside its application (the spec's `program` line)
    #[arg(long)]
    in_app: bool,
    /// MemAlign: also time with operands aligned to B bytes and deliberately misaligned
    #[arg(long, value_name = "B")]
    memalign: Option<u64>,
    /// Shortest timed interval of the multi-call method, seconds
    #[arg(long, default_value_t = 0.02)]
    min_interval: f64,
    /// Time limit of each generated run, seconds
    #[arg(long, default_value_t = 300)]
    time_limit: u64,
    /// The Fortran compiler (default: gfortran on PATH)
    #[arg(long, value_name = "PATH")]
    compiler: Option<String>,
    /// Compiler flags for the routine and the driver
    #[arg(long, default_value = "-O2", allow_hyphen_values = true)]
    flags: String,
}

/// A characterization's X-Ray report, or an X-Ray report itself.
fn read_machine(path: &Path) -> Result<HardwareReport> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if let Ok(c) = model::parse_versioned::<model::Characterization>(&text) {
        return c.xray.with_context(|| {
            format!("{} is a characterization without X-Ray results; run `opcost xray --json FILE` and pass that", path.display())
        });
    }
    serde_json::from_str::<HardwareReport>(&text).map_err(|e| {
        anyhow::anyhow!(
            "{} is neither a characterization (opcost characterize) nor an X-Ray report (opcost xray --json): {e}",
            path.display()
        )
    })
}

/// X-Ray's report: given, cached for this host, or measured now (and cached).
fn hardware(a: &Args, compiler: &harness::Compiler) -> Result<HardwareReport> {
    if let Some(p) = &a.machine {
        return read_machine(p);
    }
    let (r, source) = xray::store::cached_or_measured(
        compiler,
        &xray::XrayOptions { quick: false },
        false,
        &mut |m| eprintln!("  x-ray: {m}"),
        &mut |m| eprintln!("{m}"),
    )
    .context("X-Ray could not measure the caches (pass --flush-kb N instead)")?;
    if let xray::store::Source::Cached { path, measured } = source {
        eprintln!(
            "cache capacities from X-Ray of {measured} ({}; `opcost xray --refresh` measures again)",
            path.display()
        );
    }
    Ok(r)
}

fn sizes_text(s: &BTreeMap<String, i64>) -> String {
    s.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A spread as a percentage; "-" where it is not defined (a zero minimum or median).
fn percent(spread: Option<f64>) -> String {
    spread.map_or("-".into(), |x| format!("{:.1} %", x * 100.0))
}

fn us(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.3}", s * 1e6)
    } else {
        format!("{:.1}", s * 1e6)
    }
}

fn context(t: &Timing) -> String {
    if t.flushed.is_empty() {
        "in cache".into()
    } else {
        format!("flushed {} ({} KiB)", t.flushed.join(","), t.flush_kb)
    }
}

pub fn run(a: Args) -> Result<()> {
    let spec = Spec::load(&a.spec)?;
    // JSON on standard output replaces the tables.
    let quiet = a.json.as_deref() == Some("-");
    let timer = plan::parse_timer(&a.timer)?;
    let method = plan::parse_method(a.method.as_deref(), a.sweep)?;
    if !(1..=100).contains(&a.rounds) {
        bail!("--rounds {}: expected 1 to 100", a.rounds);
    }
    if !(1..=1000).contains(&a.samples) {
        bail!("--samples {}: expected 1 to 1000", a.samples);
    }
    let flushes = plan::flush_sets(a.flush.as_deref(), a.sweep);
    if plan::check_flushes(&spec, &flushes)? {
        eprintln!("note: no array of the spec is marked `flush`; `--flush all` flushes nothing");
    }
    let compiler = harness::Compiler::find(
        a.compiler.as_deref(),
        &harness::Compiler::split_flags(&a.flags),
    )?;
    // Check the spec against the routine before measuring anything.
    timing::check::check_routine(&spec)?;
    let needs_flush = a.sweep || flushes.iter().any(|f| *f != FlushSet::None);
    let os_largest = harness::machine_info().largest_os_cache_bytes();
    let (hw, flush_kb) = flush_area(&a, needs_flush, &compiler, os_largest)?;
    let limit = Duration::from_secs(a.time_limit);
    let prep = timing::run::prepare(spec, compiler, limit)?;
    let cfg = |flush: FlushSet| DriverConfig {
        method,
        flush,
        flush_kb,
        samples: a.samples,
        min_interval_s: a.min_interval,
        align_override: None,
    };
    let mut timings = vec![];
    let mut sweep = None;
    let bar = super::progress_bar();
    if a.sweep {
        bar.set_length(prep.spec.points().len() as u64);
        let s = timing::run::sweep(&prep, &cfg(flushes[0].clone()), timer, a.rounds, &mut |m| {
            bar.inc(1);
            bar.set_message(m.to_string());
        })?;
        bar.finish_and_clear();
        if !quiet {
            print_sweep(&s, &prep.spec, hw.as_ref());
        }
        if let Some(p) = &a.plot {
            let title = format!(
                "{}: flushed vs in cache ({:?}, Whaley & Castaldo fig. 1)",
                prep.sig.name, method
            );
            timing::plot::sweep_chart(&s, &plan::cache_levels(hw.as_ref()), &title, p)?;
            eprintln!("plot written to {}", p.display());
        }
        sweep = Some(s);
    } else {
        let cfgs: Vec<DriverConfig> = flushes.iter().cloned().map(cfg).collect();
        timings = plan::time_points(
            &prep,
            &cfgs,
            timer,
            a.rounds,
            a.memalign,
            &mut |done, total| {
                bar.set_length(total);
                bar.set_position(done);
            },
        )?;
        bar.finish_and_clear();
        if !quiet {
            print_timings(&timings, a.memalign, flushes.len());
        }
    }
    let flush_effect = match &sweep {
        Some(s) => plan::sweep_flush_effect(s),
        None => {
            let cfgs: Vec<DriverConfig> = flushes.iter().cloned().map(cfg).collect();
            plan::checked_flush_effect(&prep, &timings, &cfgs, timer)?
        }
    };
    if let Some(e) = flush_effect.as_ref().filter(|e| !e.evident()) {
        let largest_kb = timing::largest_cache_bytes(hw.as_ref(), os_largest).unwrap_or(0) >> 10;
        eprintln!("warning: {}", e.advice(largest_kb));
    }
    let (app, matched) = if a.in_app {
        eprintln!("running the instrumented application");
        let (t, matched) = plan::in_application(&prep, limit, &cfg(FlushSet::None), a.rounds)?;
        if !quiet {
            print_app(&t, &matched, &prep.sig.name);
        }
        (Some(t), matched)
    } else {
        (None, vec![])
    };
    if let Some(target) = &a.json {
        let r = plan::TimingDocument {
            format: plan::TimingDocument::FORMAT.into(),
            spec: a.spec.display().to_string(),
            routine: prep.sig.name.clone(),
            flush_kb,
            timings,
            sweep,
            in_application: app,
            in_application_driver: matched,
            flush_effect,
        };
        super::write_json(target, "the timing", &r)?;
    }
    Ok(())
}

/// X-Ray's report where one is needed or given, and the flush area's size in KiB.
fn flush_area(
    a: &Args,
    needs_flush: bool,
    compiler: &harness::Compiler,
    os_largest: u64,
) -> Result<(Option<HardwareReport>, u64)> {
    let hw = if (needs_flush && a.flush_kb.is_none()) || a.plot.is_some() || a.machine.is_some() {
        Some(hardware(a, compiler)?)
    } else {
        None
    };
    let flush_kb = match a.flush_kb {
        Some(k) => k,
        None if needs_flush => timing::flush_kb_from(hw.as_ref(), os_largest)
            .context("neither X-Ray nor the OS reported a cache; pass --flush-kb N")?,
        None => 0,
    };
    if needs_flush && flush_kb == 0 {
        bail!("--flush-kb must be positive");
    }
    Ok((hw, flush_kb))
}

fn print_timings(ts: &[Timing], memalign: Option<u64>, per_point: usize) {
    let mut t = Table::new(&[
        "sizes",
        "context",
        "method",
        "calls/sample",
        "wall min (us)",
        "wall median (us)",
        "wall spread",
        "CPU median (us)",
        "CPU spread",
        "MFLOPS",
    ])
    .right_from(3);
    let group = per_point + if memalign.is_some() { 2 } else { 0 };
    for (i, x) in ts.iter().enumerate() {
        let mut ctx = context(x);
        if let Some(b) = memalign {
            match i % group {
                k if k == per_point => ctx.push_str(&format!(", {b}-byte aligned")),
                k if k == per_point + 1 => ctx.push_str(&format!(", misaligned to {b}")),
                _ => {}
            }
        }
        t.push(vec![
            sizes_text(&x.sizes),
            ctx,
            format!("{:?}", x.method).to_lowercase(),
            x.calls_per_sample.to_string(),
            us(x.wall_min_s),
            us(x.wall_median_s),
            percent(x.wall_spread),
            us(x.cpu_median_s),
            percent(x.cpu_spread),
            x.mflops.map_or("-".into(), |m| format!("{m:.0}")),
        ]);
    }
    crate::say_raw!("{}", t);
    if ts
        .iter()
        .any(|x| x.method == Method::OneCall && x.wall_min_s < 20e-6)
    {
        crate::say!("note: some single calls take under 20 us, near the timer's resolution; use --method multi-call");
    }
    crate::say!("wall: minimum of the samples; CPU: median (Whaley & Castaldo, section 2.1); spread = (max - min) / min (wall), / median (CPU)");
}

fn print_sweep(s: &[SweepPoint], spec: &Spec, hw: Option<&HardwareReport>) {
    let unit = if spec.flop.is_some() {
        "MFLOPS"
    } else {
        "us/call"
    };
    let (hot, cold) = (format!("in cache ({unit})"), format!("flushed ({unit})"));
    let mut t = Table::new(&[
        "sizes",
        "working set",
        "level",
        &hot,
        &cold,
        "flushed/in cache time",
        "sets",
    ])
    .right(&["working set", &hot, &cold, "flushed/in cache time", "sets"]);
    for p in s {
        let v = |x: &Timing| x.mflops.map_or(us(x.seconds), |m| format!("{m:.0}"));
        let ws = p.hot.working_set_bytes;
        let level = hw
            .and_then(|h| {
                h.caches
                    .iter()
                    .find(|c| ws <= c.capacity_bytes)
                    .map(|c| format!("L{}", c.level))
            })
            .unwrap_or_else(|| {
                if hw.is_some() {
                    "memory".into()
                } else {
                    "-".into()
                }
            });
        t.push(vec![
            sizes_text(&p.hot.sizes),
            format!("{:.1} KiB", ws as f64 / 1024.0),
            level,
            v(&p.hot),
            v(&p.cold),
            format!("{:.2}", p.ratio),
            p.cold.working_sets.to_string(),
        ]);
    }
    crate::say_raw!("{}", t);
}

fn print_app(app: &AppTiming, m: &[(CallGroup, Timing, Timing)], name: &str) {
    crate::say!(
        "\nIn the application: {} calls of {name} recorded ({:.2} s run)",
        app.calls.len(),
        app.run_wall_s
    );
    let mut t = Table::new(&[
        "sizes",
        "calls",
        "first call (us)",
        "later median / min (us)",
        "driver in cache median / min",
        "driver flushed median / min",
        "closest by median",
        "closest by min",
    ])
    .right(&[
        "calls",
        "first call (us)",
        "later median / min (us)",
        "driver in cache median / min",
        "driver flushed median / min",
    ]);
    let closest = |app_s: f64, hot: f64, cold: f64| {
        let (hr, cr) = ((app_s / hot - 1.0) * 100.0, (app_s / cold - 1.0) * 100.0);
        if cr.abs() < hr.abs() {
            format!("flushed ({cr:+.1} %)")
        } else {
            format!("in cache ({hr:+.1} %)")
        }
    };
    for (g, hot, cold) in m {
        t.push(vec![
            sizes_text(&g.sizes),
            g.calls.to_string(),
            us(g.first_s),
            format!("{} / {}", us(g.later_median_s), us(g.later_min_s)),
            format!("{} / {}", us(hot.wall_median_s), us(hot.wall_min_s)),
            format!("{} / {}", us(cold.wall_median_s), us(cold.wall_min_s)),
            closest(g.later_median_s, hot.wall_median_s, cold.wall_median_s),
            closest(g.later_min_s, hot.wall_min_s, cold.wall_min_s),
        ]);
    }
    crate::say_raw!("{}", t);
    crate::say!("driver: one call per sample (wall time); percentages: application vs driver");
}
