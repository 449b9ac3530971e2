//! The calls to the program's own procedures that the compiler kept, by source line. An
//! optimizing build inlines small procedures of the same file (gfortran -O2's
//! `-finline-small-functions`): such a call executes no call instruction and passes no
//! argument, so the predictor charges PROC and the argument loads only for the calls the
//! assembly still has (rule 20). It also finds the sines and cosines of one argument that the
//! compiler joined into one `sincos` call.

use crate::loops::functions;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// Calls to the program's procedures in an assembly listing, by (source file name, line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmittedCalls {
    by_line: BTreeMap<(String, u32), u64>,
    /// Calls of the C library's `sincos` (DOUBLE PRECISION) and `sincosf` (REAL): a sine and
    /// a cosine of one argument that the compiler computes together.
    sincos: BTreeMap<(String, u32), (u64, u64)>,
    /// Calls (or tail jumps) of the C library's `memset`, `memcpy` and `memmove`: a loop
    /// that fills or copies an array, which the compiler replaced by one call an entry.
    block_moves: BTreeMap<(String, u32), u64>,
}

impl EmittedCalls {
    /// Read an x86-64 AT&T listing with line directives: every `call` of a Fortran procedure,
    /// and every `jmp` to one (a tail call), under the line of the `.loc` in effect.
    pub fn parse(asm: &str) -> EmittedCalls {
        let mut by_line = BTreeMap::new();
        let mut sincos = BTreeMap::new();
        let mut block_moves = BTreeMap::new();
        for f in functions(asm) {
            for i in &f.insns {
                let is_call = i.mnemonic.starts_with("call")
                    || (i.mnemonic.starts_with("jmp")
                        && i.operands.first().is_some_and(|t| !t.starts_with(".L")));
                let target = i.operands.first().map(String::as_str).unwrap_or("");
                let Some(at) = &i.at else { continue };
                if is_call && is_fortran_procedure(target) {
                    *by_line.entry(at.clone()).or_insert(0) += 1;
                }
                if is_call && is_block_move(target) {
                    *block_moves.entry(at.clone()).or_insert(0) += 1;
                }
                let joined = match target.split('@').next() {
                    Some("sincos") => (1, 0),
                    Some("sincosf") => (0, 1),
                    _ => (0, 0),
                };
                if i.mnemonic.starts_with("call") && joined != (0, 0) {
                    let e = sincos.entry(at.clone()).or_insert((0, 0));
                    e.0 += joined.0;
                    e.1 += joined.1;
                }
            }
        }
        EmittedCalls {
            by_line,
            sincos,
            block_moves,
        }
    }

    /// Add another file's calls (a program of several files).
    pub fn extend(&mut self, other: EmittedCalls) {
        for (k, n) in other.by_line {
            *self.by_line.entry(k).or_insert(0) += n;
        }
        for (k, (d, s)) in other.sincos {
            let e = self.sincos.entry(k).or_insert((0, 0));
            e.0 += d;
            e.1 += s;
        }
        for (k, n) in other.block_moves {
            *self.block_moves.entry(k).or_insert(0) += n;
        }
    }

    /// The calls of `memset`, `memcpy` and `memmove` emitted for `lines` of `file`.
    pub fn block_moves_within(&self, file: &str, lines: RangeInclusive<u32>) -> u64 {
        on_lines(&self.block_moves, file, lines).sum()
    }

    /// The `sincos` (DOUBLE PRECISION) and `sincosf` (REAL) calls emitted for `lines` of
    /// `file`: each a sine and a cosine of one argument joined into one call.
    pub fn sincos_within(&self, file: &str, lines: RangeInclusive<u32>) -> (u64, u64) {
        on_lines(&self.sincos, file, lines).fold((0, 0), |acc, &(d, s)| (acc.0 + d, acc.1 + s))
    }

    /// The calls emitted for `lines` of `file` (matched by file name, without directories).
    pub fn within(&self, file: &str, lines: RangeInclusive<u32>) -> u64 {
        on_lines(&self.by_line, file, lines).sum()
    }
}

/// The values of `map` on `lines` of `file` (matched by file name, without directories).
fn on_lines<'a, V>(
    map: &'a BTreeMap<(String, u32), V>,
    file: &str,
    lines: RangeInclusive<u32>,
) -> impl Iterator<Item = &'a V> {
    let name = crate::assembly::file_name(file);
    map.range((name.clone(), *lines.start())..=(name, *lines.end()))
        .map(|(_, v)| v)
}

/// The C library's fill and copy routines, which both compilers call in place of a loop
/// that fills or copies an array (GCC's `-ftree-loop-distribute-patterns`, LLVM's loop
/// idiom recognition).
pub fn is_block_move(target: &str) -> bool {
    let name = target.split('@').next().unwrap_or(target);
    matches!(name, "memset" | "memcpy" | "memmove")
}

/// A procedure compiled from Fortran: gfortran names `SUB` `sub_` (a clone GCC made of it
/// `sub_.constprop.0`, `sub_.part.0`); its run-time library's names start `_gfortran`, and
/// the C library's (the intrinsics' `sin`, `memcpy`) have no trailing underscore.
pub fn is_fortran_procedure(target: &str) -> bool {
    let name = target.split('@').next().unwrap_or(target);
    let base = name.split('.').next().unwrap_or(name);
    base.len() > 1
        && base.ends_with('_')
        && !base.starts_with("_gfortran")
        && !base.starts_with('*')
        && !base.starts_with('%')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(body: &str) -> String {
        format!(
            "\t.file 1 \"p.f\"\n\t.text\n\t.globl f_\n\t.type f_, @function\nf_:\n{body}\t.size f_, .-f_\n"
        )
    }

    #[test]
    fn only_calls_of_fortran_procedures_count_under_their_line() {
        let asm = listing(
            "\t.loc 1 10 7\n\tcall\tsub_\n\tcall\tsinf@PLT\n\
             \t.loc 1 11 7\n\tcall\t_gfortran_st_write@PLT\n\tcall\tfms_.constprop.0\n\
             \t.loc 1 12 7\n\tjmp\t.L3\n\tcall\t*%rax\n\
             \t.loc 1 13 7\n\tjmp\tlast_\n",
        );
        let c = EmittedCalls::parse(&asm);
        assert_eq!(c.block_moves_within("p.f", 10..=13), 0);
        assert_eq!(c.within("p.f", 10..=10), 1);
        assert_eq!(c.within("dir/p.f", 11..=11), 1);
        assert_eq!(c.within("p.f", 12..=12), 0);
        assert_eq!(c.within("p.f", 13..=13), 1);
        assert_eq!(c.within("p.f", 1..=100), 3);
        assert_eq!(c.within("q.f", 1..=100), 0);
        assert_eq!(c.sincos_within("p.f", 1..=100), (0, 0));
    }

    /// A loop the compiler replaced by `memset`, `memcpy` or `memmove`, called or tail-jumped
    /// to, under the loop's line; such calls are not the program's procedures.
    #[test]
    fn fills_and_copies_of_the_c_library_count_under_their_line() {
        let asm = listing(
            "\t.loc 1 30 7\n\tcall\tmemset@PLT\n\
             \t.loc 1 31 7\n\tcall\tmemcpy\n\tjmp\tmemmove@PLT\n\
             \t.loc 1 32 7\n\tcall\tmemcmp@PLT\n",
        );
        let c = EmittedCalls::parse(&asm);
        assert_eq!(c.block_moves_within("p.f", 30..=30), 1);
        assert_eq!(c.block_moves_within("dir/p.f", 31..=31), 2);
        assert_eq!(c.block_moves_within("p.f", 32..=32), 0);
        assert_eq!(c.within("p.f", 30..=32), 0);
    }

    #[test]
    fn sincos_calls_count_by_precision_under_their_line() {
        let asm = listing(
            "	.loc 1 20 7
	call	sincos@PLT
	.loc 1 21 7
	call	sincosf
	call	sin@PLT
",
        );
        let c = EmittedCalls::parse(&asm);
        assert_eq!(c.sincos_within("p.f", 20..=20), (1, 0));
        assert_eq!(c.sincos_within("p.f", 20..=21), (1, 1));
        assert_eq!(c.within("p.f", 20..=21), 0);
    }
}
