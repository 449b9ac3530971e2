//! Many machines: a cluster's node types characterized through Slurm, read back as a fleet.
//!
//! N node types and M programs cost N + M runs. A site characterizes each node type once,
//! as one task of a Slurm job array writing into a shared folder ([`submit`]), follows the
//! tasks ([`status`]), and ranks the node types by a program's predicted run time
//! ([`rank`]). The folder is the interface: one characterization per node type and compiler
//! (`<node type>--<compiler tag>.json`, written atomically by `opcost characterize`), its
//! partial file while a run is under way, and a small state file naming the job of each
//! ([`state`]). The format of the files: docs/fleet.md.
//!
//! ```no_run
//! let folder = fleet::folder::scan(std::path::Path::new("fleet-results"))?;
//! for problem in &folder.problems {
//!     eprintln!("skipping {problem}");
//! }
//! println!("{} node types characterized", folder.complete.len());
//! # Ok::<(), fleet::FleetError>(())
//! ```

pub mod folder;
pub mod node;
pub mod rank;
pub mod script;
pub mod slurm;
pub mod state;
pub mod status;
pub mod submit;

use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FleetError {
    #[error("`{command}` is not installed here: submitting and following jobs needs Slurm's client commands (on Debian or Ubuntu `apt-get install slurm-client`, elsewhere ask the cluster's admin); `opcost fleet submit --dry-run` prints the batch script without them")]
    SlurmMissing { command: String },
    #[error("`{command}` failed: {message}")]
    Slurm { command: String, message: String },
    #[error("cannot read the results folder {}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Export(#[from] export::ExportError),
    #[error("the fleet's state file {}: {detail}; move it away to start a new record", path.display())]
    State { path: PathBuf, detail: String },
    #[error("node type `{value}`: {reason}")]
    NodeType { value: String, reason: String },
    #[error("no node type given: name them with --partition, --constraint or --nodes")]
    NoNodeTypes,
    #[error("{0}")]
    Invalid(String),
}

/// An error and its causes on one line (`a: b: c`), for messages that go on with the rest.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !s.contains(&text) {
            s.push_str(": ");
            s.push_str(&text);
        }
        cause = c.source();
    }
    s
}

#[cfg(test)]
mod testing;
