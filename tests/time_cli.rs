//! End-to-end tests of `opcost time` through real gfortran: spec errors before anything is
//! compiled, driver runs (structure, invariants and one honest ratio: operands flushed out of
//! cache are not faster than operands in cache), a sweep with its SVG, and in-application
//! timing of a small program. Sizes are small so the whole file takes well under a minute.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

fn ddot_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/time/ddot.f")
}

fn linpack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fortran-samples/linpack.f")
}

fn write_spec(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn opcost() -> Command {
    common::opcost_cmd().unwrap()
}

/// Run `opcost time` expecting failure; return stderr.
fn fails(args: &[&str]) -> String {
    let out = opcost().arg("time").args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "expected failure: {args:?}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn run_json(args: &[&str]) -> Value {
    let out = opcost()
        .arg("time")
        .args(args)
        .args(["--json", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "opcost time {args:?} failed:\n{err}");
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn bad_specs_fail_before_compiling_with_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    let src = ddot_source();
    let s = src.display();
    // Unknown routine: named with the routines the file does define.
    let p = write_spec(
        d.path(),
        "unknown.spec",
        &format!("file {s}\nroutine SDOT(N, X, Y)\nsize N = 10\narray X double(N) random\narray Y double(N) random\n"),
    );
    let e = fails(&[p.to_str().unwrap(), "--flush-kb", "64"]);
    assert!(
        e.contains("unknown.spec:2:") && e.contains("unknown routine SDOT") && e.contains("DDOT"),
        "{e}"
    );
    // Wrong argument count, against LINPACK's SGEFA.
    let p = write_spec(
        d.path(),
        "count.spec",
        &format!(
            "file {}\nroutine SGEFA(A, LDA, N, IPVT)\nsize N = 10\nscalar LDA = N\narray A real(LDA, N) random\narray IPVT integer(N) zero\n",
            linpack().display()
        ),
    );
    let e = fails(&[p.to_str().unwrap(), "--flush-kb", "64"]);
    assert!(
        e.contains("count.spec:2:") && e.contains("takes 5 arguments"),
        "{e}"
    );
    // Impossible sizes: a dimension that is not positive, and a working set too large.
    let p = write_spec(
        d.path(),
        "neg.spec",
        &format!("file {s}\nroutine DDOT(N, X, Y)\nsize N = 10\narray X double(N - 20) random\narray Y double(N) random\n"),
    );
    let e = fails(&[p.to_str().unwrap(), "--flush-kb", "64"]);
    assert!(
        e.contains("neg.spec:4:") && e.contains("impossible size"),
        "{e}"
    );
    let p = write_spec(
        d.path(),
        "huge.spec",
        &format!("file {s}\nroutine DDOT(N, X, Y)\nsize N = 1000000000\narray X double(N) random\narray Y double(N) random\n"),
    );
    let e = fails(&[p.to_str().unwrap(), "--flush-kb", "64"]);
    assert!(e.contains("impossible size") && e.contains("MiB"), "{e}");
    // A scalar where the routine has an array; a syntax error with its line.
    let p = write_spec(
        d.path(),
        "kind.spec",
        &format!("file {s}\nroutine DDOT(N, X, Y)\nsize N = 10\nscalar X = 1\narray Y double(N) random\n"),
    );
    let e = fails(&[p.to_str().unwrap(), "--flush-kb", "64"]);
    assert!(
        e.contains("kind.spec:4:") && e.contains("is an array"),
        "{e}"
    );
    let p = write_spec(d.path(), "syntax.spec", "file a.f\nroutine DDOT(N\n");
    let e = fails(&[p.to_str().unwrap()]);
    assert!(e.contains("syntax.spec:2:"), "{e}");
    let e = fails(&["/no/such/file.spec"]);
    assert!(e.contains("cannot read /no/such/file.spec"), "{e}");
}

#[test]
fn missing_compiler_says_how_to_install() {
    let e = fails(&[
        "examples/time/ddot.spec",
        "--compiler",
        "no-such-fortran-compiler-xyz",
    ]);
    assert!(e.contains("apt-get install gfortran"), "{e}");
}

#[test]
fn l1_dot_product_flushed_is_not_faster_than_in_cache() {
    if !have_gfortran() {
        eprintln!("gfortran missing: skipped");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    // 2 x 8 KiB: inside any L1 data cache this code runs on.
    let p = write_spec(
        d.path(),
        "l1.spec",
        &format!(
            "file {}\nroutine DDOT(N, X, Y)\nsize N = 1024\narray X double(N) random flush align 64\narray Y double(N) random flush misalign 32\nflop 2*N\n",
            ddot_source().display()
        ),
    );
    // Two rounds of the two contexts, side by side; samples pooled per context.
    let v = run_json(&[
        p.to_str().unwrap(),
        "--flush-kb",
        "16384",
        "--samples",
        "9",
        "--rounds",
        "2",
    ]);
    let t = v["timings"].as_array().unwrap();
    assert_eq!(t.len(), 2, "in cache and flushed");
    for x in t {
        let wall = x["wall_s"].as_array().unwrap();
        assert_eq!(wall.len(), 18);
        assert_eq!(x["cpu_s"].as_array().unwrap().len(), 18);
        let min = x["wall_min_s"].as_f64().unwrap();
        assert!(min > 0.0 && min <= x["wall_median_s"].as_f64().unwrap());
        assert!(wall.iter().all(|w| w.as_f64().unwrap() >= min));
        // MFLOPS is the flop formula over the headline (minimum wall) time.
        let mf = x["mflops"].as_f64().unwrap();
        assert!((mf - 2048.0 / min / 1e6).abs() <= 1e-6 * mf);
        assert_eq!(x["calls_per_sample"], 1);
    }
    // MemAlign: X 64-byte aligned, Y 8-byte aligned but deliberately not 32-byte aligned.
    for x in t {
        let x_mod = x["address_mod_4096"]["X"].as_u64().unwrap();
        let y_mod = x["address_mod_4096"]["Y"].as_u64().unwrap();
        assert_eq!(x_mod % 64, 0);
        assert!(y_mod % 8 == 0 && y_mod % 32 != 0, "{y_mod}");
    }
    assert!(t[0]["flushed"].as_array().unwrap().is_empty());
    assert_eq!(t[1]["flushed"].as_array().unwrap().len(), 2);
    let hot = t[0]["wall_min_s"].as_f64().unwrap();
    let cold = t[1]["wall_min_s"].as_f64().unwrap();
    // Flushed operands come from L2 or beyond; the minimum of 18 samples is robust to
    // other processes, and 10 % covers timer granularity on a ~1 us call.
    assert!(cold >= 0.9 * hot, "flushed {cold} s < in cache {hot} s");
}

#[test]
fn multi_call_uses_working_sets_and_intervals_above_resolution() {
    if !have_gfortran() {
        return;
    }
    let v = run_json(&[
        "examples/time/ddot-sweep.spec",
        "--method",
        "multi-call",
        "--flush",
        "X",
        "--flush-kb",
        "1024",
        "--samples",
        "3",
        "--min-interval",
        "0.002",
        "--timer",
        "cpu",
    ]);
    let t = v["timings"].as_array().unwrap();
    // One context per size of the spec's range.
    assert!(t.len() >= 10);
    for x in t {
        assert_eq!(x["flushed"], serde_json::json!(["X"]));
        let sets = x["working_sets"].as_u64().unwrap();
        let n = x["sizes"]["N"].as_u64().unwrap();
        // Enough copies of X to overflow the flush area (Whaley & Castaldo fig. 6), at least two.
        assert!(sets >= 2);
        assert!(
            sets * n * 8 >= 1024 * 1024 || sets == 2,
            "N={n}: {sets} sets"
        );
        let reps = x["calls_per_sample"].as_u64().unwrap();
        // Calibrated by doubling until one interval lasts the minimum interval.
        assert!(reps.is_power_of_two());
        let calib = x["calibration_interval_s"].as_f64().unwrap();
        assert!(calib >= 0.002 || reps >= 1 << 30, "N={n}: {calib} s");
        assert_eq!(x["timer"], "cpu");
        assert_eq!(x["seconds"], x["cpu_median_s"]);
    }
}

#[test]
fn sweep_draws_svg_with_both_curves() {
    if !have_gfortran() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let p = write_spec(
        d.path(),
        "sweep.spec",
        &format!(
            "file {}\nroutine DDOT(N, X, Y)\nsize N = 256..2048 x2\narray X double(N) random flush\narray Y double(N) random flush\nflop 2*N\n",
            ddot_source().display()
        ),
    );
    let svg = d.path().join("s.svg");
    let v = run_json(&[
        p.to_str().unwrap(),
        "--sweep",
        "--flush-kb",
        "4096",
        "--samples",
        "3",
        "--min-interval",
        "0.002",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let s = v["sweep"].as_array().unwrap();
    assert_eq!(s.len(), 4);
    let mut last = 0;
    for x in s {
        let ws = x["hot"]["working_set_bytes"].as_u64().unwrap();
        assert!(ws > last);
        last = ws;
        let r = x["ratio"].as_f64().unwrap();
        assert!(r.is_finite() && r > 0.0);
        assert_eq!(x["hot"]["working_sets"], 1);
        assert!(x["cold"]["working_sets"].as_u64().unwrap() >= 2);
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("flushed") && text.contains("in cache"));
}

#[test]
fn in_application_records_every_call_and_leaves_the_original_alone() {
    if !have_gfortran() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let app = d.path().join("app.f");
    let app_text = "      PROGRAM APP
      INTEGER I, K
      DOUBLE PRECISION X(3000), Y(3000), S, DDOT
      EXTERNAL DDOT
      DO 10 I = 1, 3000
         X(I) = DBLE(I) * 1.0D-3
         Y(I) = 1.0D0 - X(I)
   10 CONTINUE
      S = 0.0D0
      DO 20 K = 1, 40
         S = S + DDOT(500, X, Y)
   20 CONTINUE
      DO 30 K = 1, 3
         S = S + DDOT(3000, X, Y)
   30 CONTINUE
      WRITE (*, *) S
      END
";
    std::fs::write(&app, app_text).unwrap();
    let p = write_spec(
        d.path(),
        "app.spec",
        &format!(
            "file {0}\nroutine DDOT(N, X, Y)\nsize N = 500\narray X double(N) random flush\narray Y double(N) random flush\nflop 2*N\nprogram app.f {0}\n",
            ddot_source().display()
        ),
    );
    let v = run_json(&[
        p.to_str().unwrap(),
        "--in-app",
        "--flush",
        "none",
        "--flush-kb",
        "4096",
        "--samples",
        "5",
    ]);
    let calls = v["in_application"]["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 43);
    for (i, c) in calls.iter().enumerate() {
        assert_eq!(c["index"].as_u64().unwrap(), i as u64 + 1);
        assert!(c["wall_s"].as_f64().unwrap() > 0.0);
    }
    let groups = v["in_application"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["sizes"]["N"], 500);
    assert_eq!(groups[0]["calls"], 40);
    assert_eq!(groups[1]["sizes"]["N"], 3000);
    assert_eq!(groups[1]["calls"], 3);
    // The driver was run at each size the application used, hot and flushed.
    let m = v["in_application_driver"].as_array().unwrap();
    assert_eq!(m.len(), 2);
    for row in m {
        let n = &row[0]["sizes"]["N"];
        assert_eq!(&row[1]["sizes"]["N"], n);
        assert!(row[1]["flushed"].as_array().unwrap().is_empty());
        assert_eq!(row[2]["flushed"].as_array().unwrap().len(), 2);
    }
    // Longer vectors take longer in the application too.
    assert!(
        groups[1]["later_min_s"].as_f64().unwrap() > groups[0]["later_min_s"].as_f64().unwrap()
    );
    assert_eq!(std::fs::read_to_string(&app).unwrap(), app_text);
}

#[test]
fn the_default_flush_evicts_ddot_and_says_so() {
    if !have_gfortran() {
        eprintln!("gfortran missing: skipped");
        return;
    }
    // The example spec as a user runs it (N = 1000 and 1000000), the flush area chosen by
    // opcost: twice the largest cache by X-Ray or the OS.
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/time/ddot.spec");
    let v = run_json(&[spec.to_str().unwrap(), "--samples", "9", "--rounds", "2"]);
    let os_largest_kb = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("size")).ok())
        .filter_map(|s| {
            s.trim()
                .strip_suffix('K')
                .and_then(|k| k.parse::<u64>().ok())
        })
        .max()
        .unwrap_or(0);
    let flush_kb = v["flush_kb"].as_u64().unwrap();
    assert!(
        flush_kb >= 2 * os_largest_kb,
        "flush {flush_kb} KiB < 2 x {os_largest_kb} KiB"
    );
    // N = 1000 (16 KiB, in L1) from memory must be clearly slower than in cache.
    let e = &v["flush_effect"];
    assert_eq!(e["sizes"]["N"], 1000, "{e}");
    let ratio = e["ratio"].as_f64().unwrap();
    assert!(ratio >= 1.2, "flushed / in cache = {ratio:.2}: {v:#}");
}

#[test]
fn quick_and_stale_xray_entries_are_not_used_for_a_full_run() {
    if !have_gfortran() {
        eprintln!("gfortran missing: skipped");
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let d = tempfile::tempdir().unwrap();
    let p = write_spec(
        d.path(),
        "small.spec",
        &format!(
            "file {}\nroutine DDOT(N, X, Y)\nsize N = 64\narray X double(N) random flush\narray Y double(N) random flush\n",
            ddot_source().display()
        ),
    );
    let run = |args: &[&str]| {
        let out = opcost()
            .env("OPCOST_CACHE_DIR", cache.path())
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {err}");
        err
    };
    run(&["xray", "--quick"]);
    let time = [
        "time",
        p.to_str().unwrap(),
        "--flush",
        "all",
        "--samples",
        "3",
    ];
    let err = run(&time);
    assert!(
        err.contains("from a quick run") && err.contains("measuring again"),
        "{err}"
    );
    let full: Vec<PathBuf> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with("-quick.json"))
        .collect();
    assert_eq!(full.len(), 1, "{full:?}");
    // The full entry is reused...
    let err = run(&time);
    assert!(err.contains("cache capacities from X-Ray of"), "{err}");
    // ...until it is older than the cache keeps entries.
    let mut entry: Value =
        serde_json::from_str(&std::fs::read_to_string(&full[0]).unwrap()).unwrap();
    entry["measured_unix_s"] = Value::from(0);
    std::fs::write(&full[0], entry.to_string()).unwrap();
    let err = run(&time);
    assert!(
        err.contains("days old") && err.contains("measuring again"),
        "{err}"
    );
}
