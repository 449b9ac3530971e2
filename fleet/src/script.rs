//! The batch script of a fleet job: a Slurm job array whose task N characterizes node type
//! N into the results folder. It names every path absolutely and builds in a node-local
//! temporary folder, so neither the job's working directory nor the submitting shell's
//! matters; it runs as it is printed (`sbatch SCRIPT`).

use crate::node::NodeType;
use std::path::PathBuf;

/// One array task: the node type it runs on and the `opcost characterize` arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub node: NodeType,
    pub characterize_args: Vec<String>,
}

/// A job array to write out.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub tasks: Vec<Task>,
    /// The opcost binary the tasks run, absolute.
    pub opcost: PathBuf,
    /// The folder of the task logs, absolute.
    pub logs: PathBuf,
    /// Slurm's time limit of each task (`1:00:00`).
    pub time: String,
    /// The node selection of the header: the only node type's, or for a held array the
    /// partitions of all of them (each task is then moved to its own).
    pub header_selector: Option<String>,
    /// More sbatch options, one `#SBATCH` line each (`--account=proj`).
    pub sbatch_args: Vec<String>,
}

/// `s` quoted for bash: as it is when it is plain, in single quotes otherwise.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn quote_all(args: &[String]) -> String {
    args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

/// The `#SBATCH` header: one task per node type, a whole node each (a characterization
/// measures the node; a neighbour's job would be measured with it).
fn header(job: &Job) -> String {
    let mut lines = vec![
        "#SBATCH --job-name=opcost-fleet".to_string(),
        format!("#SBATCH --array=0-{}", job.tasks.len().saturating_sub(1)),
        "#SBATCH --nodes=1".into(),
        "#SBATCH --ntasks=1".into(),
        "#SBATCH --exclusive".into(),
        format!("#SBATCH --time={}", job.time),
        format!(
            "#SBATCH --output={}/opcost-fleet-%A_%a.out",
            job.logs.display()
        ),
    ];
    lines.extend(job.header_selector.iter().map(|s| format!("#SBATCH {s}")));
    lines.extend(job.sbatch_args.iter().map(|s| format!("#SBATCH {s}")));
    lines.join("\n")
}

/// The `case` arm of each task: its node type and its arguments.
fn arms(job: &Job) -> String {
    job.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                "{i}) node_type={}\n   args=({}) ;;",
                quote(&t.node.value),
                quote_all(&t.characterize_args)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The whole script.
pub fn batch_script(job: &Job) -> String {
    format!(
        r#"#!/bin/bash
# opcost fleet: characterize one node type per array task (written by `opcost fleet submit`).
{header}
set -u
case "${{SLURM_ARRAY_TASK_ID:-}}" in
{arms}
*) echo "opcost fleet: no node type for array task ${{SLURM_ARRAY_TASK_ID:-?}}" >&2; exit 2 ;;
esac
# Build the tests on the node's own disk; the results go to the shared folder.
work=$(mktemp -d "${{TMPDIR:-/tmp}}/opcost-fleet.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
echo "opcost fleet: node type $node_type on $(hostname) (partition ${{SLURM_JOB_PARTITION:-?}}, job ${{SLURM_JOB_ID:-?}})"
{opcost} characterize "${{args[@]}}" --cache-dir "$work/build"
"#,
        header = header(job),
        arms = arms(job),
        opcost = quote(&job.opcost.display().to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Selector;

    fn job() -> Job {
        let node = |v| NodeType::new(Selector::Partition, v).unwrap();
        Job {
            tasks: vec![
                Task {
                    node: node("alpha"),
                    characterize_args: vec![
                        "--out".into(),
                        "/r/alpha--g.json".into(),
                        "--flags=-O2 -g".into(),
                    ],
                },
                Task {
                    node: node("beta"),
                    characterize_args: vec!["--resume".into(), "/r/it's.partial.json".into()],
                },
            ],
            opcost: PathBuf::from("/opt/op cost/opcost"),
            logs: PathBuf::from("/r/logs"),
            time: "1:00:00".into(),
            header_selector: Some("--partition=alpha,beta".into()),
            sbatch_args: vec!["--account=proj".into()],
        }
    }

    #[test]
    fn quoting_keeps_plain_words_and_guards_the_rest() {
        assert_eq!(quote("--flags=-O0"), "--flags=-O0");
        assert_eq!(quote("-O2 -g"), "'-O2 -g'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$HOME"), "'$HOME'");
    }

    #[test]
    fn the_script_maps_each_task_to_its_node_type() {
        let s = batch_script(&job());
        assert!(s.starts_with("#!/bin/bash\n"));
        for line in [
            "#SBATCH --array=0-1",
            "#SBATCH --time=1:00:00",
            "#SBATCH --output=/r/logs/opcost-fleet-%A_%a.out",
            "#SBATCH --partition=alpha,beta",
            "#SBATCH --account=proj",
            "0) node_type=alpha",
            "   args=(--out /r/alpha--g.json '--flags=-O2 -g') ;;",
            r"   args=(--resume '/r/it'\''s.partial.json') ;;",
            r#"'/opt/op cost/opcost' characterize "${args[@]}" --cache-dir "$work/build""#,
        ] {
            assert!(s.lines().any(|l| l == line), "missing {line:?} in\n{s}");
        }
    }

    #[test]
    fn the_script_is_valid_bash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("job.sh");
        std::fs::write(&path, batch_script(&job())).unwrap();
        let ok = std::process::Command::new("bash")
            .arg("-n")
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "bash -n refuses the script");
    }
}
