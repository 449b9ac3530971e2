//! Running generated and user programs as real processes, each under a time limit (a runaway
//! test is killed and reported, never waited on forever).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RunError {
    #[error("could not start `{program}`: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("`{program}` ran past its time limit of {limit_s:.1} s and was killed")]
    TimedOut { program: String, limit_s: f64 },
    #[error("`{program}` was interrupted")]
    Cancelled { program: String },
}

/// What a finished run produced.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
    /// CPU time of the process itself (wait4's accounting of that one child, so concurrent
    /// children of the same parent do not mix in; Whaley & Castaldo section 2.1).
    pub cpu: CpuUsage,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        self.status.success()
    }
}

fn program_name(cmd: &Command) -> String {
    cmd.get_program().to_string_lossy().into_owned()
}

/// Let the process `cmd` starts grow its stack up to the hard limit, as users of large
/// Fortran programs do with `ulimit -s unlimited`: opcost runs programs (their counting runs
/// and their timed runs alike) this way. flang-new keeps a statement's character temporaries
/// on the stack, and its build of a text-processing loop overflowed the usual 8 MB.
pub fn raise_stack_limit(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec and only calls getrlimit
    // and setrlimit, which are async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            let mut limit: libc::rlimit = std::mem::zeroed();
            if libc::getrlimit(libc::RLIMIT_STACK, &mut limit) == 0
                && limit.rlim_cur < limit.rlim_max
            {
                limit.rlim_cur = limit.rlim_max;
                libc::setrlimit(libc::RLIMIT_STACK, &limit);
            }
            Ok(())
        });
    }
}

/// Run `cmd` to completion under `limit`, feeding `stdin`, collecting its output.
pub fn run_limited(
    cmd: &mut Command,
    limit: Duration,
    stdin: Option<&[u8]>,
) -> Result<RunOutput, RunError> {
    let input = stdin.map(<[u8]>::to_vec);
    run_streaming(cmd, limit, input, None, |_| {})
}

/// Run `cmd` under `limit`, calling `on_line` for every line of standard output as it arrives
/// (so a caller can save results while a long run goes on). `cancel`, when set, kills the child
/// at the next line or poll and returns [`RunError::Cancelled`].
pub fn run_streaming(
    cmd: &mut Command,
    limit: Duration,
    stdin: Option<Vec<u8>>,
    cancel: Option<&AtomicBool>,
    mut on_line: impl FnMut(&str),
) -> Result<RunOutput, RunError> {
    let program = program_name(cmd);
    let start = Instant::now();
    let mut child = cmd
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| RunError::Spawn {
            program: program.clone(),
            source,
        })?;
    if let (Some(data), Some(mut pipe)) = (stdin, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = pipe.write_all(&data);
        });
    }
    let (tx, rx) = mpsc::channel::<String>();
    let out = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err_pipe.read_to_string(&mut s);
        s
    });
    let mut stdout = String::new();
    let deadline = start + limit;
    let outcome = loop {
        if cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            break Err(RunError::Cancelled {
                program: program.clone(),
            });
        }
        let now = Instant::now();
        if now >= deadline {
            break Err(RunError::TimedOut {
                program: program.clone(),
                limit_s: limit.as_secs_f64(),
            });
        }
        let wait = (deadline - now).min(Duration::from_millis(100));
        match rx.recv_timeout(wait) {
            Ok(line) => {
                on_line(&line);
                stdout.push_str(&line);
                stdout.push('\n');
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
        }
    };
    if let Err(e) = outcome {
        let _ = child.kill();
        let _ = child.wait();
        return Err(e);
    }
    let _ = reader.join();
    // Output is closed; the process is ending. Reap it, still under the limit, with its CPU time.
    let pid = child.id() as libc::pid_t;
    let (status, usage, wall) = loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 fills it for our own child `pid`.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage, start.elapsed());
        }
        if r < 0 {
            let source = std::io::Error::last_os_error();
            return Err(RunError::Spawn { program, source });
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(RunError::TimedOut {
                program,
                limit_s: limit.as_secs_f64(),
            });
        }
        std::thread::sleep(Duration::from_micros(500));
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    use std::os::unix::process::ExitStatusExt;
    Ok(RunOutput {
        status: ExitStatus::from_raw(status),
        stdout,
        stderr: err_reader.join().unwrap_or_default(),
        wall,
        cpu: CpuUsage {
            user_s: tv(usage.ru_utime),
            system_s: tv(usage.ru_stime),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_output_and_streams_lines() {
        let mut seen = Vec::new();
        let out = run_streaming(
            Command::new("sh").args(["-c", "echo a; echo b; echo oops >&2"]),
            Duration::from_secs(10),
            None,
            None,
            |l| seen.push(l.to_string()),
        )
        .unwrap();
        assert_eq!(seen, vec!["a", "b"]);
        assert!(out.success());
        assert_eq!(out.stderr.trim(), "oops");
    }

    #[test]
    fn kills_a_program_past_its_limit() {
        let t = Instant::now();
        let e = run_limited(
            Command::new("sleep").arg("30"),
            Duration::from_millis(300),
            None,
        )
        .unwrap_err();
        assert!(matches!(e, RunError::TimedOut { .. }));
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn feeds_standard_input() {
        let out = run_limited(
            &mut Command::new("cat"),
            Duration::from_secs(10),
            Some(b"hi\n"),
        )
        .unwrap();
        assert_eq!(out.stdout, "hi\n");
    }
}

/// CPU time a finished child used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuUsage {
    pub user_s: f64,
    pub system_s: f64,
}

impl CpuUsage {
    pub fn total_s(&self) -> f64 {
        self.user_s + self.system_s
    }
}

#[cfg(test)]
mod cpu_tests {
    use super::*;

    #[test]
    fn cpu_time_of_a_busy_child_is_counted_and_a_sleeping_one_is_not() {
        let out = run_limited(
            Command::new("sh").args([
                "-c",
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done",
            ]),
            Duration::from_secs(60),
            None,
        )
        .unwrap();
        assert!(out.success());
        assert_eq!(out.stdout.trim(), "done");
        assert!(out.cpu.total_s() > 0.0);
        assert!(out.cpu.total_s() <= out.wall.as_secs_f64() * 1.1 + 0.01);
        let idle = run_limited(
            Command::new("sleep").arg("0.3"),
            Duration::from_secs(10),
            None,
        )
        .unwrap()
        .cpu;
        assert!(idle.total_s() < 0.1);
    }
}
