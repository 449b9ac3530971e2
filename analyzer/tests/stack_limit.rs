//! The counting run gets the largest stack the system allows: a program that needs more than
//! the usual 8 MB soft limit (an automatic array of 16 MB, on the stack with
//! `-fstack-arrays`) is counted, not killed by SIGSEGV. Its own binary: the test lowers the
//! process's soft limit to 8 MB, which its children inherit.

use std::path::Path;

#[test]
fn a_program_needing_a_large_stack_is_counted() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut limit) },
        0
    );
    if limit.rlim_max != libc::RLIM_INFINITY && limit.rlim_max < 64 << 20 {
        panic!(
            "the hard stack limit ({} bytes) is below what this test needs (64 MB)",
            limit.rlim_max
        );
    }
    limit.rlim_cur = 8 << 20;
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_STACK, &limit) }, 0);
    let compiler = harness::Compiler::find(None, &["-O0".to_string()])
        .expect("gfortran is needed (scripts/install-deps.sh installs it)");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stack_arrays.f");
    let a = analyzer::analyze_dynamic(
        std::slice::from_ref(&file),
        &analyzer::AnalyzeOptions {
            program_flags: vec!["-fstack-arrays".to_string()],
            ..analyzer::AnalyzeOptions::default()
        },
        &compiler,
        &analyzer::RunSpec::default(),
    )
    .expect("counted with a raised stack limit");
    let loop_iterations = a
        .stats
        .total
        .dynamic_counts
        .as_ref()
        .map(|c| c.get(model::Param::LOOV))
        .unwrap();
    assert_eq!(loop_iterations, 4_000_000);
}
