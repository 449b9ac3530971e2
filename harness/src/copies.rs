//! A source line's instructions in one copy of its code. An optimizing compiler copies a
//! line into every function it inlines it into (and into clones such as `f_.constprop.0`),
//! so a line's instructions summed over a listing count every copy; a statement that runs
//! executes one. The predictor's floor for straight-line code of optimized builds counts the
//! copy with the most instructions.

use crate::assembly::file_name;
use crate::loops::functions;
use std::collections::BTreeMap;

/// Instructions per (source file name, line): those of the line's own unit's function (the
/// procedure as compiled on its own, `name_`), else the most any one function of the listing
/// has. A callee's line inlined at several call sites of one function appears there once per
/// site; its own function holds it once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OneCopy {
    by_line: BTreeMap<(String, u32), u64>,
    by_function: BTreeMap<String, BTreeMap<(String, u32), u64>>,
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
            out.merge(f.name, here);
        }
        out
    }

    /// Add another file's listing.
    pub fn extend(&mut self, other: OneCopy) {
        for (name, counts) in other.by_function {
            self.merge(name, counts);
        }
    }

    fn merge(&mut self, function: String, counts: BTreeMap<(String, u32), u64>) {
        for (k, &n) in &counts {
            let e = self.by_line.entry(k.clone()).or_insert(0);
            *e = (*e).max(n);
        }
        self.by_function.entry(function).or_default().extend(counts);
    }

    /// The instructions of one copy of `line` of `file` (matched by file name) of program unit
    /// `unit`: in the unit's own function when the listing has it there.
    pub fn at(&self, file: &str, line: u32, unit: &str) -> u64 {
        let key = (file_name(file), line);
        let own = format!("{}_", unit.to_ascii_lowercase());
        self.by_function
            .get(&own)
            .and_then(|f| f.get(&key))
            .or_else(|| self.by_line.get(&key))
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
        assert_eq!(c.at("p.f", 5, "H"), 3);
        assert_eq!(c.at("dir/p.f", 9, "H"), 1);
        assert_eq!(c.at("p.f", 7, "H"), 0);
    }

    #[test]
    fn a_line_inlined_twice_into_one_function_counts_its_own_functions_copy() {
        // Line 5 belongs to F; G inlined F at two call sites.
        let asm = "\t.file 1 \"p.f\"\n\t.text\nf_:\n\t.loc 1 5 7\n\tmulsd %xmm1, %xmm0\n\
                   \t.loc 1 6 7\n\tret\n\
                   g_:\n\t.loc 1 5 7\n\tmulsd %xmm1, %xmm0\n\t.loc 1 9 7\n\taddsd %xmm0, %xmm2\n\
                   \t.loc 1 5 7\n\tmulsd %xmm3, %xmm0\n\t.loc 1 9 7\n\tret\n";
        let c = OneCopy::parse(asm);
        assert_eq!(c.at("p.f", 5, "F"), 1);
        assert_eq!(
            c.at("p.f", 5, "K"),
            2,
            "no function of K: the most any function has"
        );
    }
}
