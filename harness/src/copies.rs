//! A source line's instructions in one copy of its code. An optimizing compiler copies a
//! line into every function it inlines it into (and into clones such as `f_.constprop.0`),
//! so a line's instructions summed over a listing count every copy; a statement that runs
//! executes one. The predictor's floor for straight-line code of optimized builds counts the
//! copy with the most instructions.

use crate::assembly::file_name;
use crate::loops::functions;
use std::collections::BTreeMap;

/// Instructions per (source file name, line): the most any one function of the listing has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OneCopy {
    by_line: BTreeMap<(String, u32), u64>,
}

impl OneCopy {
    /// Read an x86-64 AT&T listing with line directives.
    pub fn parse(asm: &str) -> OneCopy {
        let mut out = OneCopy::default();
        for f in functions(asm) {
            let mut here: BTreeMap<(String, u32), u64> = BTreeMap::new();
            for at in f.insns.iter().filter_map(|i| i.at.clone()) {
                *here.entry(at).or_insert(0) += 1;
            }
            out.merge(here);
        }
        out
    }

    /// Add another file's listing.
    pub fn extend(&mut self, other: OneCopy) {
        self.merge(other.by_line);
    }

    fn merge(&mut self, counts: BTreeMap<(String, u32), u64>) {
        for (k, n) in counts {
            let e = self.by_line.entry(k).or_insert(0);
            *e = (*e).max(n);
        }
    }

    /// The instructions of one copy of `line` of `file` (matched by file name).
    pub fn at(&self, file: &str, line: u32) -> u64 {
        self.by_line
            .get(&(file_name(file), line))
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_copied_into_two_functions_counts_once() {
        let asm = "\t.file 1 \"p.f\"\n\t.text\nf_:\n\t.loc 1 5 7\n\taddl $1, %eax\n\taddl $2, %eax\n\tret\n\
                   g_:\n\t.loc 1 5 7\n\taddl $1, %eax\n\t.loc 1 9 7\n\tret\n";
        let c = OneCopy::parse(asm);
        assert_eq!(c.at("p.f", 5), 3);
        assert_eq!(c.at("dir/p.f", 9), 1);
        assert_eq!(c.at("p.f", 7), 0);
    }
}
