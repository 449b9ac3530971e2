//! Debian's flang-new links its runtime by name but does not tell the linker where it is: the
//! harness finds the runtime and links with it, whatever LIBRARY_PATH the user has.

use std::path::Path;

#[test]
fn flang_new_links_without_library_path() {
    // This binary holds this one test, so changing the environment races with nothing.
    std::env::remove_var("LIBRARY_PATH");
    let Some(c) = ["flang-new-16", "flang-new"]
        .iter()
        .find_map(|n| harness::Compiler::find(Some(n), &[]).ok())
    else {
        eprintln!("skipping: flang-new is not installed");
        return;
    };
    if !Path::new("/usr/lib")
        .read_dir()
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.path().join("lib/libFortranRuntime.a").is_file())
    {
        eprintln!("skipping: flang-new's runtime is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("p.f");
    std::fs::write(&src, "      PRINT *, 'HI'\n      END\n").unwrap();
    let exe = dir.path().join("p");
    c.build(&[src], &exe, &[])
        .expect("flang-new links its runtime");
    let out = std::process::Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("HI"));
}
