//! What every CLI test shares: the opcost binary pointed at the suite's own cache directory,
//! so tests never read or write the user's X-Ray cache (`~/.cache/opcost`).
#![allow(dead_code)]

use std::path::PathBuf;

/// The suite's cache directory, under Cargo's scratch space for integration tests.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("opcost-test-cache")
}

/// `opcost` as `Command::cargo_bin` gives it, with `OPCOST_CACHE_DIR` set to [`cache_dir`].
pub fn opcost_cmd() -> Result<assert_cmd::Command, assert_cmd::cargo::CargoError> {
    let mut c = assert_cmd::Command::cargo_bin("opcost")?;
    c.env("OPCOST_CACHE_DIR", cache_dir());
    Ok(c)
}
