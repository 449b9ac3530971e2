//! A node type: the nodes one Slurm selector picks (a partition, a feature constraint, or one
//! node), characterized once and named in file names.

use crate::FleetError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// How a node type is selected in Slurm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selector {
    Partition,
    Constraint,
    Node,
}

impl Selector {
    /// The sbatch option that selects it (`--partition`).
    pub fn sbatch_option(self) -> &'static str {
        match self {
            Selector::Partition => "--partition",
            Selector::Constraint => "--constraint",
            Selector::Node => "--nodelist",
        }
    }

    /// The `scontrol update job` field that sets it on one task of a held array.
    pub fn scontrol_field(self) -> &'static str {
        match self {
            Selector::Partition => "Partition",
            Selector::Constraint => "Features",
            Selector::Node => "ReqNodeList",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Selector::Partition => "partition",
            Selector::Constraint => "constraint",
            Selector::Node => "node",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeType {
    pub selector: Selector,
    /// The partition, constraint expression or node name, as Slurm spells it.
    pub value: String,
}

impl NodeType {
    /// A node type, refused when Slurm or a file name could not carry it.
    pub fn new(selector: Selector, value: &str) -> Result<Self, FleetError> {
        let value = value.trim();
        let bad = |reason: &str| FleetError::NodeType {
            value: value.to_string(),
            reason: reason.to_string(),
        };
        if value.is_empty() {
            return Err(bad("empty"));
        }
        if value
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "'\"\\$`;".contains(c))
        {
            return Err(bad("blanks, quotes and shell characters are not allowed"));
        }
        Ok(NodeType {
            selector,
            value: value.to_string(),
        })
    }

    /// The name in file names and tables: the value with every character other than letters,
    /// digits, `-`, `_` and `.` made `_` (`zen4&ib` → `zen4_ib`).
    pub fn name(&self) -> String {
        let s: String = self
            .value
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        s.trim_start_matches('.').to_string()
    }

    /// `--partition=alpha`, for the batch script's header.
    pub fn sbatch_arg(&self) -> String {
        format!("{}={}", self.selector.sbatch_option(), self.value)
    }
}

/// The node types of one submission, in the order given, duplicates dropped. One selector
/// kind per submission: a held array's tasks are moved to their node type one by one, and a
/// partition list in the header would confine a constraint's task to those partitions.
pub fn node_types(
    partitions: &[String],
    constraints: &[String],
    nodes: &[String],
) -> Result<Vec<NodeType>, FleetError> {
    let given = [
        (Selector::Partition, partitions),
        (Selector::Constraint, constraints),
        (Selector::Node, nodes),
    ];
    let kinds = given.iter().filter(|(_, v)| !v.is_empty()).count();
    if kinds > 1 {
        return Err(FleetError::Invalid(
            "give node types of one kind per submission (--partition, --constraint or --nodes); submit twice into the same --dir for a mix, or pass a fixed partition with --sbatch-arg=--partition=P".into(),
        ));
    }
    let mut out: Vec<NodeType> = Vec::new();
    for (selector, values) in given {
        for v in values {
            let n = NodeType::new(selector, v)?;
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    if out.is_empty() {
        return Err(FleetError::NoNodeTypes);
    }
    check_names_differ(&out)?;
    Ok(out)
}

/// Two node types whose names collide would write the same file.
fn check_names_differ(nodes: &[NodeType]) -> Result<(), FleetError> {
    let mut seen = BTreeSet::new();
    for n in nodes {
        if n.name().is_empty() || !seen.insert(n.name()) {
            return Err(FleetError::NodeType {
                value: n.value.clone(),
                reason: format!(
                    "its file name `{}` is empty or that of another node type given",
                    n.name()
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn names_are_file_safe_and_selectors_slurms() {
        let n = NodeType::new(Selector::Constraint, "zen4&ib").unwrap();
        assert_eq!(n.name(), "zen4_ib");
        assert_eq!(n.sbatch_arg(), "--constraint=zen4&ib");
        assert_eq!(Selector::Node.scontrol_field(), "ReqNodeList");
    }

    #[test]
    fn lists_keep_order_and_drop_duplicates() {
        let n = node_types(&s(&["beta", "alpha", "beta"]), &[], &[]).unwrap();
        let names: Vec<String> = n.iter().map(NodeType::name).collect();
        assert_eq!(names, ["beta", "alpha"]);
    }

    #[test]
    fn bad_lists_are_refused_with_the_reason() {
        assert!(matches!(
            node_types(&[], &[], &[]),
            Err(FleetError::NoNodeTypes)
        ));
        assert!(node_types(&s(&["a"]), &s(&["b"]), &[]).is_err());
        let e = node_types(&s(&["a b"]), &[], &[]).unwrap_err().to_string();
        assert!(e.contains("`a b`") && e.contains("blanks"), "{e}");
        let e = node_types(&[], &s(&["a|b", "a&b"]), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("a_b"), "{e}");
        assert!(node_types(&s(&["a;rm"]), &[], &[]).is_err());
    }
}
