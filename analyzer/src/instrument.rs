//! Source rewriting for measurement: a [`Rewriter`] inserts statements before and after
//! statements, inside logical IF consequents, and declarations at the top of units, keeping
//! every original line (and column) it does not have to change. [`instrument_counters`] uses
//! it to write the counted copy (one counter per basic block, Saavedra-Barrera's section 5.2); another
//! pass (e.g. timers at region or unit boundaries) can use the same rewriter.
//!
//! Loops of [`crate::induction`] get no per-iteration increment: the copy saves their
//! induction variable on entry and adds the iterations at each exit.
//!
//! Where a counter goes before a labeled statement, the label moves to the counter so jumps
//! count too. A labeled DO loop whose terminal statement gets a counter is relabeled to a new
//! `CONTINUE` after the terminal, so the terminal keeps running once per iteration.

use crate::analysis::{Probe, Program};
use crate::induction::{DerivedExit, Exit, InductionLoop, Step};
use crate::symbols::UnitKind;
use crate::syntax::Stmt;
use std::collections::{HashMap, HashSet};

/// Names the instrumented copy adds, chosen not to clash with any word of the program.
#[derive(Debug, Clone)]
pub struct Names {
    pub counters: String,
    pub common: String,
    pub dump: String,
    pub block_data: String,
    /// The subroutine simulating the branch predictor of rule 15.
    pub predictor: String,
    /// The subroutine an IF calls before its test (rule 15): it feeds the IF evaluated
    /// before it its outcome, then leaves this one's pending.
    pub pending: String,
    /// The predictor's core, which `predictor` and `pending` call with an outcome.
    pub predictor_core: String,
    /// The COMMON block of the IF whose outcome is pending.
    pub pending_common: String,
    /// Prefix of the variables saving induction variables on loop entry (`prefix` + number).
    pub induction: String,
    /// The function giving the positions an INDEX reference scans (rule 23).
    pub scan: String,
    /// The function giving the first-character compares it mispredicts (rule 23b).
    pub scan_miss: String,
    /// The function giving a bit of a sine or cosine argument's quadrant (rule 24).
    pub quadrant: String,
    /// The function telling whether a sine or cosine reduces its argument (rule 24b).
    pub reduction: String,
    /// The function giving a sine or cosine's range branches (rule 24c).
    pub range: String,
    /// The function giving fmod's steps (rule 9b).
    pub remainder_steps: String,
    /// The subroutine adding a variable step to its buckets (rule 21b).
    pub step_histogram: String,
    /// The subroutine adding a DO loop's variable step with its entry's trips (rule 21b).
    pub step_entry: String,
}

impl Names {
    pub fn pick(prog: &Program) -> Names {
        let mut words = HashSet::new();
        for f in &prog.files {
            for st in &f.statements {
                crate::analysis::collect_words(&mut words, &st.text);
            }
        }
        let mut k = 0u32;
        loop {
            let s = if k == 0 { String::new() } else { k.to_string() };
            let n = Names {
                counters: format!("OPCNT{s}"),
                common: format!("OPCOM{s}"),
                dump: format!("OPCDMP{s}"),
                block_data: format!("OPCBD{s}"),
                predictor: format!("OPCBP{s}"),
                pending: format!("OPCBQ{s}"),
                predictor_core: format!("OPCBX{s}"),
                pending_common: format!("OPCPD{s}"),
                induction: format!("OPCIV{s}"),
                scan: format!("OPCIX{s}"),
                scan_miss: format!("OPCIM{s}"),
                quadrant: format!("OPCQD{s}"),
                reduction: format!("OPCRD{s}"),
                range: format!("OPCRG{s}"),
                remainder_steps: format!("OPCMB{s}"),
                step_histogram: format!("OPCSH{s}"),
                step_entry: format!("OPCSE{s}"),
            };
            let all = [
                &n.counters,
                &n.common,
                &n.dump,
                &n.block_data,
                &n.predictor,
                &n.pending,
                &n.predictor_core,
                &n.pending_common,
                &n.scan,
                &n.scan_miss,
                &n.quadrant,
                &n.reduction,
                &n.range,
                &n.remainder_steps,
                &n.step_histogram,
                &n.step_entry,
            ];
            let prefix_free = !words.iter().any(|w| w.starts_with(n.induction.as_str()));
            if prefix_free && all.iter().all(|w| !words.contains(w.as_str())) {
                return n;
            }
            k += 1;
        }
    }
}

/// A statement line in columns 7 on, with an optional label.
pub fn fixed_line(label: Option<u32>, text: &str) -> String {
    match label {
        Some(l) => format!("{l:<5} {text}"),
        None => format!("      {text}"),
    }
}

/// Plan `stmts` at statement `s`; nothing at all when there are none, since a planned edit
/// rewrites the statement (its label moves, a logical IF becomes a block IF, a DO loop ending
/// there gets a new terminal).
fn add_edit(edits: &mut HashMap<usize, Vec<String>>, s: usize, stmts: &[String]) {
    if !stmts.is_empty() {
        edits.entry(s).or_default().extend_from_slice(stmts);
    }
}

/// Planned edits of a program's source files.
#[derive(Debug, Clone, Default)]
pub struct Rewriter {
    before: HashMap<usize, Vec<String>>,
    fall_in: HashMap<usize, Vec<String>>,
    after: HashMap<usize, Vec<String>>,
    consequent: HashMap<usize, Vec<String>>,
    /// Declarations per unit.
    declarations: HashMap<usize, Vec<String>>,
    /// DO statements whose label changes: stmt -> (old, new).
    relabel_do: HashMap<usize, (u32, u32)>,
    /// Terminal statements getting a new `label CONTINUE` after them.
    new_terminal: HashMap<usize, u32>,
    /// ELSE IFs with statements to run before their tests ([`Rewriter::insert_before_test`]).
    before_test: HashMap<usize, Vec<String>>,
    /// END IFs closing that many more block IFs (one per ELSE IF split above them).
    extra_end_ifs: HashMap<usize, usize>,
    pub line_length: usize,
}

/// The text of statement lines (without labels) that the rewriter may insert.
impl Rewriter {
    pub fn new(line_length: usize) -> Self {
        Rewriter {
            line_length,
            ..Default::default()
        }
    }
    /// Executable statements to run before statement `s` (the label of `s` moves to the
    /// first of them).
    pub fn insert_before(&mut self, s: usize, stmts: &[String]) {
        add_edit(&mut self.before, s, stmts);
    }
    /// Statements run when control falls into statement `s` from the one above: before it
    /// and before what [`Rewriter::insert_before`] puts there, `s`'s label staying after them.
    pub fn insert_at_fall_in(&mut self, s: usize, stmts: &[String]) {
        add_edit(&mut self.fall_in, s, stmts);
    }
    /// Statements run just before IF statement `s` evaluates its condition: before a logical
    /// or block IF; an ELSE IF becomes `ELSE`, the statements and a block IF with its
    /// condition, which an extra END IF at the construct's END IF closes (before it, they
    /// would end the block above, which runs only when that block's condition held). Nothing
    /// for an ELSE IF that [`else_if_end`] cannot split: callers watch only those it can.
    pub fn insert_before_test(&mut self, prog: &Program, s: usize, stmts: &[String]) {
        if !matches!(prog.stmts[s].stmt, Some(Stmt::ElseIf(_))) {
            return self.insert_before(s, stmts);
        }
        let Some(end) = else_if_end(prog, s).filter(|_| !stmts.is_empty()) else {
            return;
        };
        if !self.before_test.contains_key(&s) {
            *self.extra_end_ifs.entry(end).or_default() += 1;
        }
        add_edit(&mut self.before_test, s, stmts);
    }
    /// Statements right after `s` (which must fall through: DO, IF...THEN, ELSE, ...).
    pub fn insert_after(&mut self, s: usize, stmts: &[String]) {
        add_edit(&mut self.after, s, stmts);
    }
    /// Statements run when logical IF `s` takes its consequent, before the consequent.
    pub fn insert_in_consequent(&mut self, s: usize, stmts: &[String]) {
        add_edit(&mut self.consequent, s, stmts);
    }
    /// Specification statements at the top of unit `u` (before its first executable
    /// statement, DATA statement or statement function).
    pub fn declare(&mut self, u: usize, stmts: &[String]) {
        self.declarations
            .entry(u)
            .or_default()
            .extend_from_slice(stmts);
    }

    /// Give labeled DO loops ending on statements that get code before them a new terminal.
    fn plan_do_relabels(&mut self, prog: &Program) {
        for (ui, unit) in prog.units.iter().enumerate() {
            let _ = ui;
            let mut used: HashSet<u32> = unit.labels.clone();
            // Terminals (by label) that get statements before them.
            let mut terminal_of: HashMap<u32, usize> = HashMap::new();
            for s in unit.first..unit.end {
                let st = &prog.stmts[s];
                if let Some(l) = prog.statement(s).label {
                    // Code before the terminal, or a logical IF terminal rewritten into a
                    // block IF (which cannot end a DO loop).
                    let rewritten =
                        self.before.contains_key(&s) || self.consequent.contains_key(&s);
                    if st.do_terminal && rewritten {
                        terminal_of.insert(l, s);
                    }
                }
            }
            let mut new_label: HashMap<u32, u32> = HashMap::new();
            for s in unit.first..unit.end {
                let lab = match &prog.stmts[s].stmt {
                    Some(Stmt::Do(Some(l), _)) | Some(Stmt::DoWhile(Some(l), _)) => *l,
                    _ => continue,
                };
                let Some(&term) = terminal_of.get(&lab) else {
                    continue;
                };
                let nl = *new_label.entry(lab).or_insert_with(|| {
                    let digits = lab.to_string().len() as u32;
                    let lo = 10u32.pow(digits - 1).max(1);
                    let hi = 10u32.pow(digits) - 1;
                    let pick = (lo..=hi)
                        .rev()
                        .find(|c| !used.contains(c))
                        .or_else(|| (1..=99999).rev().find(|c| !used.contains(c)))
                        .unwrap_or(lab);
                    used.insert(pick);
                    pick
                });
                self.relabel_do.insert(s, (lab, nl));
                self.new_terminal.insert(term, nl);
            }
        }
    }

    /// Write the edited source files: (original path, new text) per file.
    pub fn render(mut self, prog: &Program) -> Vec<(String, String)> {
        self.plan_do_relabels(prog);
        let mut decl_before: HashMap<usize, Vec<String>> = HashMap::new();
        for (u, lines) in &self.declarations {
            decl_before
                .entry(prog.units[*u].decl_at)
                .or_default()
                .extend(lines.iter().cloned());
        }
        let mut out = Vec::new();
        for (fi, file) in prog.files.iter().enumerate() {
            // First line of each statement -> global statement index.
            let mut starts: HashMap<u32, usize> = HashMap::new();
            let mut in_stmt: HashSet<u32> = HashSet::new();
            for (s, st) in prog.stmts.iter().enumerate() {
                if st.file == fi {
                    let lines = &file.statements[st.src].lines;
                    starts.insert(lines[0], s);
                    in_stmt.extend(lines.iter().copied());
                }
            }
            let mut text = String::new();
            for (i, line) in file.lines.iter().enumerate() {
                let i = i as u32;
                if let Some(&s) = starts.get(&i) {
                    self.emit_statement(prog, s, &decl_before, &mut text);
                } else if !in_stmt.contains(&i) {
                    text.push_str(line);
                    text.push('\n');
                }
            }
            out.push((file.path.clone(), text));
        }
        out
    }

    /// An original line, cut at the line length: the compiler ignores what is past it (card
    /// sequence numbers in columns 73-80), which wrapped would become code.
    fn push_original(&self, text: &mut String, line: &str) {
        match line.char_indices().nth(self.line_length) {
            Some((cut, _)) => self.push(text, &line[..cut]),
            None => self.push(text, line),
        }
    }

    /// A line the rewriter wrote or edited.
    fn push(&self, text: &mut String, line: &str) {
        // Lines the rewriter edits may grow: wrap them onto continuation lines.
        let chars: Vec<char> = line.chars().collect();
        if chars.len() <= self.line_length || chars.len() <= 6 {
            text.push_str(line);
            text.push('\n');
            return;
        }
        let head: String = chars[..self.line_length].iter().collect();
        text.push_str(&head);
        text.push('\n');
        let mut rest = &chars[self.line_length..];
        while !rest.is_empty() {
            let n = rest.len().min(self.line_length - 6);
            let piece: String = rest[..n].iter().collect();
            text.push_str("     &");
            text.push_str(&piece);
            text.push('\n');
            rest = &rest[n..];
        }
    }

    fn emit_statement(
        &self,
        prog: &Program,
        s: usize,
        decl_before: &HashMap<usize, Vec<String>>,
        text: &mut String,
    ) {
        let st = prog.statement(s);
        let file = &prog.files[st.file];
        let mut lines: Vec<String> = st
            .lines
            .iter()
            .map(|&l| file.lines[l as usize].clone())
            .collect();
        if let Some(d) = decl_before.get(&s) {
            for l in d {
                self.push(text, &fixed_line(None, l));
            }
        }
        for b in self.fall_in.get(&s).into_iter().flatten() {
            self.push(text, &fixed_line(None, b));
        }
        let mut label = st.label;
        if let Some(before) = self.before.get(&s) {
            for (k, b) in before.iter().enumerate() {
                let lab = if k == 0 { label.take() } else { None };
                self.push(text, &fixed_line(lab, b));
            }
            if label.is_none() && st.label.is_some() {
                lines[0] = strip_label(&lines[0]);
            }
        }
        if let Some(&(old, new)) = self.relabel_do.get(&s) {
            relabel(st, &mut lines, &file.lines, old, new);
        }
        if let Some(inserted) = self.before_test.get(&s) {
            self.push(text, &fixed_line(label.take(), "ELSE"));
            for b in inserted {
                self.push(text, &fixed_line(None, b));
            }
            lines[0] = blank_else(&strip_label(&lines[0]), prog, s);
        }
        let extra_end_ifs = self.extra_end_ifs.get(&s).copied().unwrap_or(0);
        // The construct's label goes to its outermost END IF.
        let end_label = if extra_end_ifs > 0 && label.is_some() {
            lines[0] = strip_label(&lines[0]);
            label
        } else {
            None
        };
        match (&prog.stmts[s].stmt, self.consequent.get(&s)) {
            (Some(Stmt::LogicalIf(_, _, off)), Some(inserted)) => {
                let (l, c) = st.position(*off);
                let l = (l - 1) as usize; // 0-based line in file
                let k = st.lines.iter().position(|&x| x as usize == l).unwrap_or(0);
                let cut = (c as usize).saturating_sub(1).min(lines[k].len());
                let head = &lines[k][..cut];
                for line in &lines[..k] {
                    self.push_original(text, line);
                }
                if head.chars().count() + 5 <= self.line_length {
                    self.push(text, &format!("{head} THEN"));
                } else {
                    self.push(text, head);
                    self.push(text, "     &THEN");
                }
                for b in inserted {
                    self.push(text, &fixed_line(None, b));
                }
                let tail = format!("{}{}", " ".repeat(cut.max(6)), &lines[k][cut..]);
                self.push_original(text, &tail);
                for line in &lines[k + 1..] {
                    self.push_original(text, line);
                }
                self.push(text, &fixed_line(None, "END IF"));
            }
            _ => {
                for line in &lines {
                    self.push_original(text, line);
                }
            }
        }
        for k in 0..extra_end_ifs {
            let lab = if k + 1 == extra_end_ifs {
                end_label
            } else {
                None
            };
            self.push(text, &fixed_line(lab, "END IF"));
        }
        if let Some(after) = self.after.get(&s) {
            for a in after {
                self.push(text, &fixed_line(None, a));
            }
        }
        if let Some(&nl) = self.new_terminal.get(&s) {
            self.push(text, &fixed_line(Some(nl), "CONTINUE"));
        }
    }
}

/// The END IF of ELSE IF `s`'s construct when the counted copy can split `s`
/// ([`Rewriter::insert_before_test`]): its `ELSE` is on its first line, and every statement
/// from it to that END IF was parsed (so the nesting can be followed).
pub fn else_if_end(prog: &Program, s: usize) -> Option<usize> {
    else_columns(prog, s)?;
    let unit = &prog.units[prog.stmts[s].unit];
    let mut depth = 0usize;
    for t in s + 1..unit.end {
        match prog.stmts[t].stmt.as_ref()? {
            Stmt::BlockIf(_) => depth += 1,
            Stmt::EndIf if depth == 0 => return Some(t),
            Stmt::EndIf => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The bytes of ELSE IF `s`'s first line that hold its `ELSE`, if all four are there.
fn else_columns(prog: &Program, s: usize) -> Option<[usize; 4]> {
    let st = prog.statement(s);
    let text = st.text.get(..4)?;
    if !text.eq_ignore_ascii_case("ELSE") {
        return None;
    }
    let mut cols = [0; 4];
    for (k, &(line, col)) in st.origin.get(..4)?.iter().enumerate() {
        if line != st.first_line() {
            return None;
        }
        cols[k] = col as usize - 1;
    }
    Some(cols)
}

/// ELSE IF `s`'s first line with its `ELSE` blanked: the block IF that follows the ELSE
/// its split writes.
fn blank_else(line: &str, prog: &Program, s: usize) -> String {
    let mut bytes = line.as_bytes().to_vec();
    for c in else_columns(prog, s).into_iter().flatten() {
        if let Some(b) = bytes.get_mut(c) {
            *b = b' ';
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| line.to_string())
}

/// The line with its label field blanked (lines are in standard columns: `source::untab`).
fn strip_label(line: &str) -> String {
    let n = 5.min(line.len());
    if !line.is_char_boundary(n) {
        return line.to_string();
    }
    format!("{}{}", " ".repeat(n), &line[n..])
}

/// Replace the label of a `DO label ...` statement in its physical lines.
fn relabel(
    st: &crate::source::Statement,
    lines: &mut [String],
    _file: &[String],
    old: u32,
    new: u32,
) {
    let digits = old.to_string().len();
    // The label follows `DO` in the squeezed text.
    let positions: Vec<(u32, u16)> = (2..2 + digits).map(|p| st.position(p)).collect();
    let new_s = new.to_string();
    // Edit from the last digit backwards so earlier byte offsets stay valid.
    let same_len = new_s.len() == digits;
    for (k, &(l, c)) in positions.iter().enumerate().rev() {
        let li = st.lines.iter().position(|&x| x + 1 == l).unwrap_or(0);
        let at = (c as usize).saturating_sub(1);
        let line = &mut lines[li];
        if at >= line.len() || !line.is_char_boundary(at) || !line.is_char_boundary(at + 1) {
            continue;
        }
        let replacement = if same_len {
            new_s[k..k + 1].to_string()
        } else if k == 0 {
            new_s.clone()
        } else {
            String::new()
        };
        line.replace_range(at..at + 1, &replacement);
    }
}

/// The counter increment statement for probe `k` (0-based).
pub fn increment(names: &Names, k: usize) -> String {
    format!("{c}({i})={c}({i})+1", c = names.counters, i = k + 1)
}

/// The statement adding `amount` to the counter of probe `k`.
pub fn add_to_counter(names: &Names, k: usize, amount: &str) -> String {
    format!("{c}({i})={c}({i})+{amount}", c = names.counters, i = k + 1)
}

/// The instrumented copy for dynamic counts and the dump routine's source.
pub struct Instrumented {
    pub names: Names,
    pub files: Vec<(String, String)>,
    /// A separate source file: the dump subroutine and the BLOCK DATA zeroing the counters.
    pub support: String,
    pub counters: usize,
    /// The counter slot (0-based) raised when an induction loop's step was zero at run
    /// time: its counts are then wrong, and the copy must run without induction counting.
    pub zero_step_flag: Option<usize>,
    /// Exits the copy does not count: fill them in with [`Instrumented::fill_derived`].
    pub derived_exits: Vec<DerivedExit>,
}

impl Instrumented {
    /// Put the counts of the exits the copy derives into their slots of `counters` (read from
    /// its run); `None` if one comes out negative (the counts are inconsistent).
    pub fn fill_derived(&self, counters: &mut [u64]) -> Option<()> {
        let mut pending: Vec<&DerivedExit> = self.derived_exits.iter().collect();
        // A count may use another derived exit's (nested loops): fill in dependency order.
        while !pending.is_empty() {
            let (now, later): (Vec<&DerivedExit>, Vec<&DerivedExit>) =
                pending.iter().partition(|d| {
                    d.count
                        .iter()
                        .all(|&(_, q)| pending.iter().all(|o| o.probe != q))
                });
            if now.is_empty() {
                return None;
            }
            for d in now {
                counters[d.probe] = crate::stats::eval(&d.count, counters)?;
            }
            pending = later;
        }
        Some(())
    }
}

/// Counter slots per IF on array data (rule 15): its simulated misses.
pub const BRANCH_SLOTS: usize = 1;
/// Offset of the simulated misses among an IF's slots.
pub const BRANCH_MISSES: usize = 0;
/// Outcomes of global history that select a short context of the simulated predictor (a
/// table of 2^this tagged 2-bit counters).
pub const HISTORY_BITS: u32 = 12;
/// Outcomes of global history that identify a context in its tagged table.
pub const LONG_HISTORY_BITS: u32 = 40;
/// Sets and ways of the tagged table: about 32 K contexts, the capacity measured on this
/// project's Zen 4 host (docs/model.md, refinement 14): a random sequence of 20 000 outcomes gone
/// through again and again was learned completely, one of 40 000 nearly, one of 100 000 not.
pub const TAGGED_SETS: usize = 4093;
pub const TAGGED_WAYS: usize = 8;

/// IFs on variables whose outcomes feed a simulated branch predictor (rule 15):
/// `(statement, first slot)`. Each has [`BRANCH_SLOTS`] counter slots after the probes. The
/// predictor ([`predictor_subroutine`]) is a small member of the hardware's TAGE family. Each
/// branch has a 2-bit counter of its own, indexed by its identity as the hardware's base
/// predictor is by its address: it keeps the branch's bias when the history is noise. A table
/// of short contexts (the last [`HISTORY_BITS`] outcomes and the branch, tagged) learns runs
/// and short patterns; a context is allocated where the prediction missed and predicts
/// once it is confident and has been right more often than that counter where the two
/// differed (a chooser per branch). A tagged table of contexts of the last
/// [`LONG_HISTORY_BITS`] outcomes, allocated where the prediction from the others missed,
/// learns a long sequence of outcomes that a program goes through again (the same sort,
/// search or sieve repeated) up to its capacity, and misses independent outcomes. So its
/// misses stand in for the real predictor's. (History alone indexing the 2-bit counters, used
/// before, let IFs on random data share and spoil a biased IF's counters: docs/model.md, rule
/// 15 with a counter per branch. A gshare with 12 outcomes alone, used before that, learned rule 15's test
/// sequence of 100 outcomes, but 12 outcomes cannot tell the positions of a longer one apart;
/// a per-IF predictor with four outcomes of local history overpredicted smith's bubble sort
/// by 2x.)
pub fn branch_slots(prog: &Program) -> Vec<(usize, usize)> {
    let base = prog.probes.len();
    prog.stmts
        .iter()
        .enumerate()
        .filter(|&(s, st)| {
            st.data_dependent()
                && match st.stmt {
                    Some(Stmt::LogicalIf(..)) | Some(Stmt::BlockIf(_)) => true,
                    Some(Stmt::ElseIf(_)) => else_if_end(prog, s).is_some(),
                    _ => false,
                }
        })
        .enumerate()
        .map(|(j, (s, _))| (s, base + BRANCH_SLOTS * j))
        .collect()
}

/// Arithmetic IFs and computed GO TOs on variables whose branches feed the simulated
/// predictor too (rule 15): `(statement, slot)`, one counter slot each (its misses), after
/// the IFs' slots.
fn multiway_slots(prog: &Program) -> Vec<(usize, usize)> {
    let base = prog.probes.len() + BRANCH_SLOTS * branch_slots(prog).len();
    prog.stmts
        .iter()
        .enumerate()
        .filter(|(_, st)| {
            st.data_dependent()
                && matches!(
                    st.stmt,
                    Some(Stmt::ArithIf(..)) | Some(Stmt::ComputedGoto(..))
                )
        })
        .enumerate()
        .map(|(j, (s, _))| (s, base + j))
        .collect()
}

/// Statements whose INDEX scans the counted copy counts (rule 23), one slot each, after the
/// multiway statements' slots.
fn scan_slots(prog: &Program) -> Vec<(usize, usize)> {
    let base =
        prog.probes.len() + BRANCH_SLOTS * branch_slots(prog).len() + multiway_slots(prog).len();
    crate::scans::scan_slots(prog, base)
}

/// The slots of the statements of `scans` (their [`scan_slots`]) for their mispredicted
/// first-character compares (rule 23b), one each, after the scans'.
fn scan_miss_slots(scans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    second_slots(scans)
}

/// A second slot for each of the statements of `first` (statement, slot), one each, after
/// the last of theirs.
fn second_slots(first: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let base = first.last().map_or(0, |&(_, slot)| slot + 1);
    first
        .iter()
        .enumerate()
        .map(|(j, &(s, _))| (s, base + j))
        .collect()
}

/// Statements whose sine and cosine quadrant branches the simulated predictor watches (rule
/// 24), one slot each (their misses), after the scans' slots and their misses'.
fn quadrant_slots(prog: &Program) -> Vec<(usize, usize)> {
    let base = prog.probes.len()
        + BRANCH_SLOTS * branch_slots(prog).len()
        + multiway_slots(prog).len()
        + 2 * scan_slots(prog).len();
    crate::quadrants::quadrant_slots(prog, base)
}

/// The slots of the statements of `quadrants` (their [`quadrant_slots`]) for their reduced
/// arguments (rule 24b), one each, after the quadrants'.
fn reduction_slots(quadrants: &[(usize, usize)]) -> Vec<(usize, usize)> {
    second_slots(quadrants)
}

/// The first slot after the reduced arguments': where the extents' slots begin.
fn extents_base(prog: &Program) -> usize {
    prog.probes.len()
        + BRANCH_SLOTS * branch_slots(prog).len()
        + multiway_slots(prog).len()
        // Each scan slot has one of misses ([`scan_miss_slots`]).
        + 2 * scan_slots(prog).len()
        // Each quadrant slot has one of reduced arguments ([`reduction_slots`]).
        + 2 * quadrant_slots(prog).len()
}

/// Innermost DO loops whose adjustable arrays' extents the counted copy counts (rule 21,
/// widened; `crate::extents`), with their slots after the reduced arguments'.
fn extent_slots(prog: &Program) -> Vec<crate::extents::LoopExtents> {
    crate::extents::extent_slots(prog, extents_base(prog))
}

/// Innermost DO loops whose trip counts the counted copy compares from entry to entry (rule
/// 29; `crate::trips`), their slots after those of `extents` (the [`extent_slots`]).
fn trip_slots(
    prog: &Program,
    extents: &[crate::extents::LoopExtents],
) -> Vec<crate::trips::TripWatch> {
    crate::trips::trip_slots(prog, trips_base(prog, extents))
}

/// The first slot after those of `extents` (the [`extent_slots`]): where the trip counts'
/// slots begin.
fn trips_base(prog: &Program, extents: &[crate::extents::LoopExtents]) -> usize {
    extents_base(prog)
        + extents
            .iter()
            .map(crate::extents::LoopExtents::slots)
            .sum::<usize>()
}

/// Statements whose fmod steps the counted copy counts (rule 9b), one slot each, after the
/// slots of `extents` and `trips` (the [`extent_slots`] and [`trip_slots`]).
fn remainder_slots(
    prog: &Program,
    extents: &[crate::extents::LoopExtents],
    trips: &[crate::trips::TripWatch],
) -> Vec<(usize, usize)> {
    let base = trips_base(prog, extents) + crate::trips::slots_of(trips);
    crate::remainders::remainder_slots(prog, base)
}

/// Innermost loops whose variable step the counted copy measures (rule 21b), their slots
/// after those of `remainders` (the [`remainder_slots`]).
fn step_slots(
    prog: &Program,
    extents: &[crate::extents::LoopExtents],
    trips: &[crate::trips::TripWatch],
    remainders: &[(usize, usize)],
) -> Vec<crate::steps::StepWatch> {
    let base = trips_base(prog, extents) + crate::trips::slots_of(trips) + remainders.len();
    crate::steps::step_slots(prog, base)
}

/// Insert `render(references, counter, j)` before the `j`th of `slots`'s statements (for the
/// library references `watch` finds evaluated there; rules 23, 24) and in its consequent,
/// `counter` being its slot of the array `counters`, and declare the INTEGER*8 support
/// function `function` in the units that call it.
fn insert_watches<'p, T>(
    rw: &mut Rewriter,
    prog: &'p Program,
    counters: &str,
    slots: &[(usize, usize)],
    watch: impl Fn(&'p Program, usize) -> Option<crate::scans::Watch<T>>,
    render: impl Fn(&[T], &str, usize) -> Vec<String>,
    function: &str,
) {
    let mut units = HashSet::new();
    for (j, &(s, slot)) in slots.iter().enumerate() {
        let counter = format!("{counters}({})", slot + 1);
        if let Some(w) = watch(prog, s) {
            rw.insert_before_test(prog, s, &render(&w.before, &counter, j));
            rw.insert_in_consequent(s, &render(&w.consequent, &counter, j));
            units.insert(prog.stmts[s].unit);
        }
    }
    for u in units {
        rw.declare(u, &[format!("INTEGER*8 {function}")]);
    }
}

/// The counter slots of every branch the simulated predictor watches (rule 15), by statement,
/// found once per program: the counts of a run look each statement's up.
#[derive(Debug, Clone, Default)]
pub struct WatchedSlots {
    /// IFs: statement -> first slot ([`branch_slots`]).
    ifs: HashMap<usize, usize>,
    /// Arithmetic IFs and computed GO TOs: statement -> slot ([`multiway_slots`]).
    multiway: HashMap<usize, usize>,
    /// Statements whose INDEX scans are counted: statement -> slot ([`scan_slots`]).
    scans: HashMap<usize, usize>,
    /// The same statements: statement -> slot of their mispredicted compares
    /// ([`scan_miss_slots`]).
    scan_misses: HashMap<usize, usize>,
    /// Statements whose quadrant branches are simulated: statement -> slot
    /// ([`quadrant_slots`]).
    quadrants: HashMap<usize, usize>,
    /// The same statements: statement -> slot of their reduced arguments
    /// ([`reduction_slots`]).
    reductions: HashMap<usize, usize>,
    /// Statements whose fmod steps are counted: statement -> slot ([`remainder_slots`]).
    remainders: HashMap<usize, usize>,
    /// Innermost DO loops whose arrays' extents are counted: DO statement -> slots
    /// ([`extent_slots`]).
    extents: HashMap<usize, crate::extents::LoopExtents>,
    /// Innermost DO loops whose trip counts are compared: DO statement -> watch
    /// ([`trip_slots`]).
    trips: HashMap<usize, crate::trips::TripWatch>,
    /// Innermost loops whose variable step is measured: first statement -> watch
    /// ([`step_slots`]).
    steps: HashMap<usize, crate::steps::StepWatch>,
}

impl WatchedSlots {
    pub fn of(prog: &Program) -> Self {
        let quadrants = quadrant_slots(prog);
        let extents = extent_slots(prog);
        let scans = scan_slots(prog);
        let trips = trip_slots(prog, &extents);
        let remainders = remainder_slots(prog, &extents, &trips);
        let steps = step_slots(prog, &extents, &trips, &remainders);
        WatchedSlots {
            ifs: branch_slots(prog).into_iter().collect(),
            multiway: multiway_slots(prog).into_iter().collect(),
            scan_misses: scan_miss_slots(&scans).into_iter().collect(),
            scans: scans.into_iter().collect(),
            reductions: reduction_slots(&quadrants).into_iter().collect(),
            quadrants: quadrants.into_iter().collect(),
            remainders: remainders.into_iter().collect(),
            steps: steps.into_iter().map(|w| (w.first_stmt, w)).collect(),
            trips: trips.into_iter().map(|t| (t.do_stmt, t)).collect(),
            extents: extents.into_iter().map(|e| (e.first_stmt, e)).collect(),
        }
    }

    /// The entries of the loop whose DO statement is `s` that had another trip count than the
    /// entry before (rule 29), if the run compared them.
    pub fn trip_changes(&self, s: usize, counters: &[u64]) -> Option<u64> {
        self.trips.get(&s)?.changes(counters)
    }

    /// The entries a run's `counters` counted of the loop closed by GO TO whose first
    /// statement is `s` (rule 33); None for another loop or where none were counted.
    pub fn counted_entries(&self, s: usize, counters: &[u64]) -> Option<u64> {
        self.extents
            .get(&s)
            .filter(|e| e.closed_by_goto)?
            .entries(counters)
    }

    /// The extents of the arrays of the loop whose first statement is `s` that a run's
    /// `counters` measured (rule 21, widened); empty if it counted none.
    pub fn measured_extents(&self, s: usize, counters: &[u64]) -> crate::extents::MeasuredExtents {
        self.extents
            .get(&s)
            .map(|e| e.measured(counters))
            .unwrap_or_default()
    }

    /// The iterations of the DO loop whose DO statement is `s` by its entries' trip counts,
    /// from a run's `counters` (rule 21c); None if it counted none.
    pub fn measured_trips(
        &self,
        s: usize,
        counters: &[u64],
    ) -> Option<model::program_stats::StepHistogram> {
        self.trips.get(&s)?.measured(counters)
    }

    /// The variable step of the loop whose first statement is `s` that a run's `counters`
    /// measured (rule 21b); None if it measured none.
    pub fn measured_steps(
        &self,
        s: usize,
        counters: &[u64],
    ) -> Option<model::program_stats::StepHistogram> {
        self.steps.get(&s)?.measured(counters)
    }

    /// The character positions the INDEX references of statement `s` scanned in a run
    /// (rule 23), if the run counted them.
    pub fn index_scans(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.scans.get(&s)?).copied()
    }

    /// The first-character compares the INDEX references of statement `s` mispredicted in a
    /// run (rule 23b), if the run counted them.
    pub fn index_misses(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.scan_misses.get(&s)?).copied()
    }

    /// The simulated misses of statement `s`'s quadrant branches (rule 24) in a run's
    /// `counters`, if the run simulated them.
    pub fn quadrant_misses(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.quadrants.get(&s)?).copied()
    }

    /// The double sine and cosine arguments of statement `s` that the library reduced (rule
    /// 24b) in a run's `counters`, if the run counted them.
    pub fn reduced_arguments(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.reductions.get(&s)?).copied()
    }

    /// The fmod steps the double MOD references of statement `s` took (rule 9b) in a run's
    /// `counters`, if the run counted them.
    pub fn remainder_steps(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.remainders.get(&s)?).copied()
    }

    /// The simulated misses of IF `s` in a run's `counters`.
    pub fn if_misses(&self, s: usize, counters: &[u64]) -> Option<u64> {
        let slot = self.ifs.get(&s)?;
        counters.get(slot + BRANCH_MISSES).copied()
    }

    /// The simulated misses of arithmetic IF or computed GO TO `s` in a run's `counters`.
    pub fn multiway_misses(&self, s: usize, counters: &[u64]) -> Option<u64> {
        counters.get(*self.multiway.get(&s)?).copied()
    }
}

/// The text inside the parentheses that open at byte `open` of squeezed statement text
/// `text` (character constants respected), and the byte after the closing one.
pub(crate) fn parenthesized(text: &str, open: usize) -> Option<(&str, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let (mut depth, mut quote) = (0usize, None::<u8>);
    for (k, &b) in bytes.iter().enumerate().skip(open) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(') => depth += 1,
            (None, b')') => {
                depth -= 1;
                if depth == 0 {
                    return Some((&text[open + 1..k], k + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Statements, run just before multiway statement `s`, that feed the simulated predictor
/// the branches it is about to take (rule 15), its misses going to counter `slot`. An
/// arithmetic IF is the one or two conditional branches gfortran makes of it (`> 0`, then
/// `= 0`; one when two of its labels are the same); a computed GO TO one indirect jump, whose
/// target the predictor guesses as the last one taken in the same history. None when the
/// tested expression cannot be read back from the statement's text.
fn multiway_watch(
    prog: &Program,
    s: usize,
    c: &str,
    predictor: &str,
    slot: usize,
    j: usize,
) -> Option<Vec<String>> {
    let text = &prog.statement(s).text;
    let miss = format!("{c}({})", slot + 1);
    // Offsets past the IFs' (see `predictor_update`), two per statement.
    let offset = |k: usize| ((2 * j + k) * 5003 + 2) % (1usize << HISTORY_BITS);
    let feed = |k: usize, outcome: String, indirect: u8| {
        format!(
            "CALL {predictor}({}, {outcome}, {miss}, {indirect})",
            offset(k)
        )
    };
    let outcome = |cond: String| format!("MERGE(1_8, 0_8, {cond})");
    match prog.stmts[s].stmt.as_ref()? {
        Stmt::ArithIf(_, [l1, l2, l3]) => {
            let e = parenthesized(text, text.find('(')?)?.0;
            let (l1, l2, l3) = (*l1, *l2, *l3);
            Some(if l1 == l2 && l2 == l3 {
                Vec::new()
            } else if l1 == l2 || l2 == l3 || l1 == l3 {
                let op = if l1 == l2 {
                    ".GT."
                } else if l2 == l3 {
                    ".LT."
                } else {
                    ".EQ."
                };
                vec![feed(0, outcome(format!("({e}) {op} 0")), 0)]
            } else {
                vec![
                    feed(0, outcome(format!("({e}) .GT. 0")), 0),
                    format!(
                        "IF (({e}) .LE. 0) {}",
                        feed(1, outcome(format!("({e}) .EQ. 0")), 0)
                    ),
                ]
            })
        }
        Stmt::ComputedGoto(..) => {
            let (_, after) = parenthesized(text, text.find('(')?)?;
            let index = text[after..].trim_start_matches(',');
            (!index.is_empty()).then(|| vec![feed(0, format!("INT({index}, 8)"), 1)])
        }
        _ => None,
    }
}

/// The statement an IF runs before its test for the simulated predictor: the IF evaluated
/// before it (any IF) gets its outcome, the change of its taken counter since its test, and
/// this one is left pending with its taken counter `taken` and miss slot. Each outcome so
/// reaches the predictor before the next IF's, in the order the program made them, as the
/// hardware's history gets them; fed at an IF's own next test instead, an outcome came after
/// those of the IFs between, whose running at all told it (a sort's scan that stopped let the
/// other scan run).
/// The IF's unit and whether its condition references a function, whose own IFs run before
/// its test (see [`predictor_entries`]), go with it.
fn predictor_update(
    names: &Names,
    taken: usize,
    slot: usize,
    j: usize,
    unit: usize,
    deferred: bool,
) -> Vec<String> {
    let t = taken + 1;
    let m = slot + 1 + BRANCH_MISSES;
    // Spread the IFs over the base table (an odd multiplier visits every entry).
    let offset = (j * 5003 + 1) % (1usize << HISTORY_BITS);
    let (u, d) = (unit + 1, u8::from(deferred));
    vec![format!(
        "CALL {}({offset}, {t}, {m}, {u}, {d})",
        names.pending
    )]
}

/// The simulated predictor's entries: `predictor(ID, OUT, MISS, IND)` feeds an outcome now
/// (multiway jumps, library branches); `pending(ID, T, M, U, D)` is called before an IF's test
/// in unit `U` (see [`predictor_update`]), `ID` -1 only feeding the pending ones (at the end of
/// the run); both first feed the pending IF its outcome. An IF whose condition references a
/// function (`D` 1) is deferred instead: the function's own IFs run between its `pending` and
/// its test, and taking their calls for its outcome fed it "not taken" every time. A deferred
/// IF is fed at the next `pending` of its own unit (its test is over once control is back
/// there), with the deferred IFs above it on a stack of [`DEFERRED`]. `n` counters in COMMON
/// `common`.
fn predictor_entries(names: &Names, n: usize) -> Vec<String> {
    let (c, core) = (&names.counters, &names.predictor_core);
    let pending = pending_declarations(names);
    let counters = [
        format!("INTEGER*8 {c}"),
        format!("COMMON /{}/ {c}({n})", names.common),
    ];
    // Feed an IF its outcome: its offset, its taken counter's change since its test (counter
    // index `t`, value then `v`) and its miss slot; the deferred entry `k`'s from the stack.
    let feed = |i: &str, t: &str, v: &str, m: &str| {
        format!("CALL {core}({i}, {c}({t}) - {v}, {c}({m}), 0)")
    };
    let feed_deferred = |k: &str| {
        feed(
            &format!("QI({k})"),
            &format!("QT({k})"),
            &format!("QV({k})"),
            &format!("QM({k})"),
        )
    };
    let resolve = [
        "IF (PT .GT. 0) THEN".to_string(),
        format!("   {}", feed("PI", "PT", "PV", "PM")),
        "   PT = 0".into(),
        "END IF".into(),
    ];
    // Feed the deferred IFs from the top of the stack down to entry `to` (a loop labelled
    // `label`).
    let feed_down_to = |to: &str, label: u32| {
        vec![
            format!("DO {label} J = NQ, {to}, -1"),
            format!("   {}", feed_deferred("J")),
            format!("{label} CONTINUE"),
        ]
    };
    let deferred = DEFERRED;
    let pending_body: Vec<String> = [
        format!("SUBROUTINE {}(ID, T, M, U, D)", names.pending),
        "INTEGER ID, T, M, U, D, J, K".into(),
    ]
    .into_iter()
    .chain(pending.iter().cloned())
    .chain(counters.iter().cloned())
    .chain(resolve.iter().cloned())
    .chain(["IF (ID .LT. 0) THEN".into()])
    .chain(feed_down_to("1", 20))
    .chain(["   NQ = 0".into(), "   RETURN".into(), "END IF".into()])
    .chain([
        "DO 10 K = NQ, 1, -1".into(),
        "   IF (QU(K) .EQ. U) GO TO 11".into(),
        "10 CONTINUE".into(),
        "GO TO 12".into(),
        "11 CONTINUE".into(),
    ])
    .chain(feed_down_to("K", 21))
    .chain(["NQ = K - 1".into(), "12 CONTINUE".into()])
    .chain([
        "IF (D .EQ. 0) THEN".into(),
        "   PI = ID".into(),
        "   PT = T".into(),
        "   PM = M".into(),
        format!("   PV = {c}(T)"),
        "   RETURN".into(),
        "END IF".into(),
        format!("IF (NQ .EQ. {deferred}) THEN"),
        format!("   {}", feed_deferred("1")),
        format!("   DO 30 J = 2, {deferred}"),
        "      QI(J - 1) = QI(J)".into(),
        "      QT(J - 1) = QT(J)".into(),
        "      QM(J - 1) = QM(J)".into(),
        "      QU(J - 1) = QU(J)".into(),
        "      QV(J - 1) = QV(J)".into(),
        "30 CONTINUE".into(),
        "   NQ = NQ - 1".into(),
        "END IF".into(),
        "NQ = NQ + 1".into(),
        "QI(NQ) = ID".into(),
        "QT(NQ) = T".into(),
        "QM(NQ) = M".into(),
        "QU(NQ) = U".into(),
        format!("QV(NQ) = {c}(T)"),
        "END".into(),
    ])
    .collect();
    [format!(
        "SUBROUTINE {}(ID, OUT, MISS, IND)",
        names.predictor
    )]
    .into_iter()
    .chain(["INTEGER ID, IND".into(), "INTEGER*8 OUT, MISS".into()])
    .chain(pending.iter().cloned())
    .chain(counters.iter().cloned())
    .chain(resolve.iter().cloned())
    .chain([format!("CALL {core}(ID, OUT, MISS, IND)"), "END".into()])
    .chain(pending_body)
    .map(|l| fixed_source_line(&l))
    .chain(predictor_subroutine(core))
    .collect()
}

/// How many IFs whose conditions reference functions may wait, nested, for their outcomes (see
/// [`predictor_entries`]); beyond it the oldest is fed first.
const DEFERRED: usize = 16;

/// The declarations of the pending IFs' COMMON block (see [`predictor_entries`]): the pending
/// IF's taken counter's value at its test (PV), that counter's, its offset's and its miss
/// slot's indices (PT, PI, PM; PT 0 when none is pending); the deferred IFs' the same (QV, QT,
/// QI, QM) with their units (QU), NQ of them.
fn pending_declarations(names: &Names) -> [String; 5] {
    let d = DEFERRED;
    [
        "INTEGER PT, PI, PM, NQ".to_string(),
        format!("INTEGER QT({d}), QI({d}), QM({d}), QU({d})"),
        "INTEGER*8 PV".into(),
        format!("INTEGER*8 QV({d})"),
        format!(
            "COMMON /{}/ PV, QV, PT, PI, PM, NQ, QT, QI, QM, QU",
            names.pending_common
        ),
    ]
}

/// The simulated predictor (see [`branch_slots`]) as a Fortran subroutine: `ID` the IF's
/// offset, `OUT` its outcome (1 taken), `MISS` incremented when the prediction was wrong.
/// The tagged table is replaced least recently used first, so a sequence longer than its
/// capacity thrashes it, as the hardware's does.
fn predictor_subroutine(name: &str) -> Vec<String> {
    let nb = 1usize << HISTORY_BITS;
    let (ns, nw) = (TAGGED_SETS, TAGGED_WAYS);
    let update: Vec<String> = vec![
        "K = INT(OUT)".into(),
        "CLK = CLK + 1".into(),
        format!("IB = MOD(HS + ID, {nb})"),
        format!("IM = MOD(ID, {nb})"),
        format!("KEY = HL * {nb} + ID"),
        format!("IS = INT(MOD(KEY, {ns}))"),
        // An indirect jump: the target last taken in this history, else the jump's last.
        "IF (IND .NE. 0) THEN".into(),
        "   IF (ITAG(IS) .EQ. KEY) THEN".into(),
        "      IF (ITGT(IS) .NE. OUT) MISS = MISS + 1".into(),
        "   ELSE IF (LAST(ID) .NE. OUT) THEN".into(),
        "      MISS = MISS + 1".into(),
        "   END IF".into(),
        "   ITAG(IS) = KEY".into(),
        "   ITGT(IS) = OUT".into(),
        "   LAST(ID) = OUT".into(),
        // Three bits of the target go into the history, as the hardware folds in its address.
        "   K = INT(MOD(ABS(OUT), 8_8))".into(),
        format!("   HS = MOD(8*HS + K, {nb})"),
        "   HL = MOD(8*HL + K, HMAX)".into(),
        "   RETURN".into(),
        "END IF".into(),
        "HIT = 0".into(),
        format!("DO 10 W = 1, {nw}"),
        "   IF (TAG(W, IS) .EQ. KEY) HIT = W".into(),
        "10 CONTINUE".into(),
        // The provider: the long context, else the short one, else the branch's own counter.
        "SHIT = BTAG(IB) .EQ. ID".into(),
        "STRG = BASE(IB) .EQ. 0 .OR. BASE(IB) .EQ. 3".into(),
        "IF (HIT .GT. 0) THEN".into(),
        "   PRED = VAL(HIT, IS) / 2".into(),
        "ELSE IF (SHIT .AND. CHO(IM) .GE. 2 .AND. STRG) THEN".into(),
        "   PRED = BASE(IB) / 2".into(),
        "ELSE".into(),
        "   PRED = BIM(IM) / 2".into(),
        "END IF".into(),
        "IF (PRED .NE. K) MISS = MISS + 1".into(),
        "IF (HIT .GT. 0) THEN".into(),
        "   VAL(HIT, IS) = STEP(VAL(HIT, IS), K)".into(),
        "   AGE(HIT, IS) = CLK".into(),
        "ELSE IF (PRED .NE. K) THEN".into(),
        "   VICT = 1".into(),
        format!("   DO 20 W = 2, {nw}"),
        "      IF (AGE(W, IS) .LT. AGE(VICT, IS)) VICT = W".into(),
        "20 CONTINUE".into(),
        "   TAG(VICT, IS) = KEY".into(),
        "   VAL(VICT, IS) = 1 + K".into(),
        "   AGE(VICT, IS) = CLK".into(),
        "END IF".into(),
        // A short context learns; where it and the branch's counter disagree, the chooser
        // learns which was right. A new one is allocated where no long context was found and
        // the prediction missed.
        "IF (SHIT) THEN".into(),
        "   IF (BASE(IB) / 2 .NE. BIM(IM) / 2) THEN".into(),
        "      CHO(IM) = STEP(CHO(IM), 1 - ABS(BASE(IB) / 2 - K))".into(),
        "   END IF".into(),
        "   BASE(IB) = STEP(BASE(IB), K)".into(),
        "ELSE IF (HIT .EQ. 0 .AND. PRED .NE. K) THEN".into(),
        "   BTAG(IB) = ID".into(),
        "   BASE(IB) = 1 + K".into(),
        "END IF".into(),
        "BIM(IM) = STEP(BIM(IM), K)".into(),
        format!("HS = MOD(2*HS + K, {nb})"),
        "HL = MOD(2*HL + K, HMAX)".into(),
        "END".into(),
    ];
    predictor_setup(name, nb, ns, nw)
        .into_iter()
        .chain(update)
        .map(|l| fixed_source_line(&l))
        .collect()
}

/// The simulated predictor's declarations and its tables' setup at the first call: a 2-bit
/// counter and a chooser per branch (`BIM`, `CHO`), the tagged short contexts (`BASE`,
/// `BTAG`), the tagged long contexts (`VAL`, `TAG`, `AGE`) and the indirect jumps' targets.
fn predictor_setup(name: &str, nb: usize, ns: usize, nw: usize) -> Vec<String> {
    vec![
        format!("SUBROUTINE {name}(ID, OUT, MISS, IND)"),
        "INTEGER ID, IND".into(),
        "INTEGER*8 OUT, MISS".into(),
        format!(
            "INTEGER BIM(0:{}), CHO(0:{}), BASE(0:{})",
            nb - 1,
            nb - 1,
            nb - 1
        ),
        format!("INTEGER BTAG(0:{}), VAL({nw}, 0:{})", nb - 1, ns - 1),
        format!("INTEGER*8 TAG({nw}, 0:{}), AGE({nw}, 0:{})", ns - 1, ns - 1),
        format!(
            "INTEGER*8 LAST(0:{}), ITAG(0:{}), ITGT(0:{})",
            nb - 1,
            ns - 1,
            ns - 1
        ),
        "INTEGER*8 HL, HMAX, KEY, CLK".into(),
        // A constant power of two: the MODs below compile to masks, not 64-bit divisions.
        format!("PARAMETER (HMAX = {}_8)", 1u64 << LONG_HISTORY_BITS),
        "INTEGER HS, IB, IM, IS, W, HIT, VICT, PRED, K, STEP, J, L".into(),
        "LOGICAL SHIT, STRG".into(),
        "LOGICAL READY".into(),
        "SAVE".into(),
        // A 2-bit counter `J` after outcome `L` (1 taken), saturating at 0 and 3.
        "STEP(J, L) = MIN(3, MAX(0, J + 2*L - 1))".into(),
        "DATA READY /.FALSE./".into(),
        "IF (.NOT. READY) THEN".into(),
        format!("   DO 2 IS = 0, {}", ns - 1),
        format!("      DO 1 W = 1, {nw}"),
        "         TAG(W, IS) = -1".into(),
        "         AGE(W, IS) = 0".into(),
        "         VAL(W, IS) = 0".into(),
        "1     CONTINUE".into(),
        "2  CONTINUE".into(),
        format!("   DO 3 IB = 0, {}", nb - 1),
        "      BIM(IB) = 1".into(),
        "      CHO(IB) = 2".into(),
        "      BASE(IB) = 1".into(),
        "      BTAG(IB) = -1".into(),
        "      LAST(IB) = -1".into(),
        "3  CONTINUE".into(),
        format!("   DO 4 IS = 0, {}", ns - 1),
        "      ITAG(IS) = -1".into(),
        "4  CONTINUE".into(),
        "   HS = 0".into(),
        "   HL = 0".into(),
        "   CLK = 0".into(),
        "   READY = .TRUE.".into(),
        "END IF".into(),
    ]
}

/// A line of generated source: a leading number up to a blank is a label (columns 1-5), the
/// rest starts in column 7.
fn fixed_source_line(line: &str) -> String {
    match line.split_once(' ') {
        Some((label, text)) if !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) => {
            fixed_line(label.parse().ok(), text.trim_start())
        }
        _ => fixed_line(None, line),
    }
}

/// Write the counted copy of a program: one counter per probe, dumped at every STOP and at
/// the END of the main program; with `simulate_branches`, also the simulated predictor of
/// rule 15 for every IF on array data (six more statements per evaluation of such an IF);
/// with `induction`, the induction loops of [`Program::loops`] counted at their exits.
pub fn instrument_counters(
    prog: &Program,
    line_length: usize,
    simulate_branches: bool,
    induction: bool,
) -> Instrumented {
    let names = Names::pick(prog);
    let slots = if simulate_branches {
        branch_slots(prog)
    } else {
        Vec::new()
    };
    let loops: Vec<&InductionLoop> = if induction {
        prog.loops
            .induction
            .iter()
            .filter(|l| !(simulate_branches && l.watched_by_predictor))
            .collect()
    } else {
        Vec::new()
    };
    let multiway = if simulate_branches {
        multiway_slots(prog)
    } else {
        Vec::new()
    };
    // Counted with the simulation only: their slots come after the simulation's.
    let (scans, quadrants) = if simulate_branches {
        (scan_slots(prog), quadrant_slots(prog))
    } else {
        (Vec::new(), Vec::new())
    };
    let reductions = reduction_slots(&quadrants);
    let scan_misses = scan_miss_slots(&scans);
    let extents = if simulate_branches {
        extent_slots(prog)
    } else {
        Vec::new()
    };
    let trips = if simulate_branches {
        trip_slots(prog, &extents)
    } else {
        Vec::new()
    };
    let remainders = if simulate_branches {
        remainder_slots(prog, &extents, &trips)
    } else {
        Vec::new()
    };
    let steps = if simulate_branches {
        step_slots(prog, &extents, &trips, &remainders)
    } else {
        Vec::new()
    };
    let used = prog.probes.len()
        + BRANCH_SLOTS * slots.len()
        + multiway.len()
        + scans.len()
        + scan_misses.len()
        + quadrants.len()
        + reductions.len()
        + extents
            .iter()
            .map(crate::extents::LoopExtents::slots)
            .sum::<usize>()
        + crate::trips::slots_of(&trips)
        + remainders.len()
        + crate::steps::STEP_SLOTS * steps.len();
    // One more slot flags a step that was zero at run time (see `induction`).
    let zero_step_flag = loops
        .iter()
        .any(|l| matches!(l.step, Step::Name { .. }))
        .then_some(used);
    let n = (used + usize::from(zero_step_flag.is_some())).max(1);
    let mut rw = Rewriter::new(line_length);
    let decl = [
        format!("INTEGER*8 {}", names.counters),
        format!("COMMON /{}/ {}({n})", names.common, names.counters),
    ];
    for (u, unit) in prog.units.iter().enumerate() {
        if unit.kind != UnitKind::BlockData {
            rw.declare(u, &decl);
        }
    }
    let dump = format!("CALL {}", names.dump);
    let derived_exits: Vec<DerivedExit> = prog
        .loops
        .derived_exits
        .iter()
        .filter(|d| !(simulate_branches && d.watched_by_predictor))
        .cloned()
        .collect();
    let not_incremented: HashSet<usize> = loops
        .iter()
        .map(|l| l.probe)
        .chain(derived_exits.iter().map(|d| d.probe))
        .collect();
    for (k, p) in prog.probes.iter().enumerate() {
        if prog.derived_probes.contains(&k) || not_incremented.contains(&k) {
            continue;
        }
        match *p {
            Probe::Before(s) => rw.insert_before(s, &[increment(&names, k)]),
            Probe::After(s) => match prog.trip_counts.get(&k) {
                // Counted once per entry by the trip count (see `Program::trip_counts`).
                Some(trips) => rw.insert_before(s, &[add_to_counter(&names, k, trips)]),
                None => rw.insert_after(s, &[increment(&names, k)]),
            },
            Probe::Consequent(s) => rw.insert_in_consequent(s, &[increment(&names, k)]),
        }
    }
    let mut saved_in_unit: HashMap<usize, Vec<String>> = HashMap::new();
    let flag = format!(
        "{}({})",
        names.counters,
        zero_step_flag.map_or(0, |f| f + 1)
    );
    for (j, l) in loops.iter().enumerate() {
        let saved = format!("{}{}", names.induction, j + 1);
        saved_in_unit.entry(l.unit).or_default().push(saved.clone());
        rw.insert_after(l.entered_after, &l.entry_statements(&saved, &flag));
        for &(exit, after_step) in &l.exits {
            let add = add_to_counter(&names, l.probe, &l.exit_amount(&saved, after_step));
            match exit {
                Exit::Consequent(s) => rw.insert_in_consequent(s, &[add]),
                Exit::FallThrough(s) => rw.insert_after(s, &[add]),
            }
        }
    }
    for (u, saved) in saved_in_unit {
        rw.declare(u, &[format!("INTEGER*8 {}", saved.join(", "))]);
    }
    let c = &names.counters;
    for (j, &(s, slot)) in slots.iter().enumerate() {
        let taken_probe = prog
            .probes
            .iter()
            .position(|p| *p == Probe::Consequent(s) || *p == Probe::After(s));
        if let Some(taken) = taken_probe {
            let st = &prog.stmts[s];
            let deferred = st
                .condition
                .as_ref()
                .is_some_and(model::rules::calls_function);
            let update = predictor_update(&names, taken, slot, j, st.unit, deferred);
            rw.insert_before_test(prog, s, &update);
        }
    }
    for (j, &(s, slot)) in multiway.iter().enumerate() {
        if let Some(watch) = multiway_watch(prog, s, c, &names.predictor, slot, j) {
            rw.insert_before(s, &watch);
        }
    }
    // Rules 23 and 23b: each watched statement's positions and mispredicted compares.
    for (slots, function) in [(&scans, &names.scan), (&scan_misses, &names.scan_miss)] {
        insert_watches(
            &mut rw,
            prog,
            c,
            slots,
            crate::scans::scan_watch,
            |refs, counter, _| crate::scans::additions(refs, counter, function),
            function,
        );
    }
    // Rule 24c: the range branches run before the quadrant's.
    insert_watches(
        &mut rw,
        prog,
        c,
        &quadrants,
        crate::quadrants::quadrant_watch,
        |args, miss, j| {
            crate::quadrants::range_feeds(args, &names.predictor, &names.range, miss, j)
        },
        &names.range,
    );
    insert_watches(
        &mut rw,
        prog,
        c,
        &quadrants,
        crate::quadrants::quadrant_watch,
        |args, miss, j| crate::quadrants::feeds(args, &names.predictor, &names.quadrant, miss, j),
        &names.quadrant,
    );
    insert_watches(
        &mut rw,
        prog,
        c,
        &reductions,
        crate::quadrants::quadrant_watch,
        |args, counter, _| crate::quadrants::reductions(args, &names.reduction, counter),
        &names.reduction,
    );
    insert_watches(
        &mut rw,
        prog,
        c,
        &remainders,
        crate::remainders::remainder_watch,
        |args, counter, _| crate::remainders::additions(args, &names.remainder_steps, counter),
        &names.remainder_steps,
    );
    for e in &extents {
        if e.closed_by_goto {
            rw.insert_at_fall_in(e.first_stmt, &e.additions(c));
        } else {
            rw.insert_before(e.first_stmt, &e.additions(c));
        }
    }
    for t in &trips {
        rw.insert_before(t.do_stmt, &t.statements(c, &names.step_histogram));
    }
    for w in &steps {
        let add = w.statements(c, &names.step_histogram, &names.step_entry);
        if w.before_entry() {
            rw.insert_before(w.first_stmt, &add);
        } else {
            rw.insert_after(w.first_stmt, &add);
        }
    }
    for (s, st) in prog.stmts.iter().enumerate() {
        let main = prog.units[st.unit].kind == UnitKind::Main;
        match &st.stmt {
            Some(Stmt::Stop) => rw.insert_before(s, std::slice::from_ref(&dump)),
            Some(Stmt::End) if main => rw.insert_before(s, std::slice::from_ref(&dump)),
            Some(Stmt::LogicalIf(_, inner, _)) if matches!(**inner, Stmt::Stop) => {
                rw.insert_in_consequent(s, std::slice::from_ref(&dump))
            }
            _ => {}
        }
    }
    let files = rw.render(prog);
    let c = &names.counters;
    let support = [
        format!("      SUBROUTINE {}", names.dump),
        format!("      INTEGER*8 {c}"),
        format!("      COMMON /{}/ {c}({n})", names.common),
        "      CHARACTER*4096 FNAME".into(),
        "      INTEGER IU, K, L, ST".into(),
        "      CALL GET_ENVIRONMENT_VARIABLE('OPCOST_COUNTS', FNAME, L, ST)".into(),
        "      IF (ST .NE. 0 .OR. L .EQ. 0) RETURN".into(),
        format!("      CALL {}(-1, 0, 0, 0, 0)", names.pending),
        "      OPEN (NEWUNIT=IU, FILE=FNAME(1:L), STATUS='REPLACE')".into(),
        format!("      WRITE (IU, '(I0)') {n}"),
        format!("      DO 10 K = 1, {n}"),
        format!("         WRITE (IU, '(I0)') {c}(K)"),
        "   10 CONTINUE".into(),
        "      CLOSE (IU)".into(),
        "      END".into(),
        format!("      BLOCK DATA {}", names.block_data),
        format!("      INTEGER*8 {c}"),
        format!("      COMMON /{}/ {c}({n})", names.common),
        format!("      DATA {c} /{n}*0/"),
    ]
    .into_iter()
    .chain(pending_declarations(&names).map(|l| fixed_line(None, &l)))
    .chain([
        "      DATA PV, PT, PI, PM /0, 0, 0, 0/".into(),
        "      END".into(),
    ])
    .chain(predictor_entries(&names, n))
    .chain(crate::scans::scan_function(&names.scan))
    .chain(crate::scans::miss_function(&names.scan_miss, &names.scan))
    .chain(crate::quadrants::quadrant_function(&names.quadrant))
    .chain(crate::quadrants::reduction_function(&names.reduction))
    .chain(crate::quadrants::range_function(&names.range))
    .chain(crate::remainders::steps_function(&names.remainder_steps))
    .chain(crate::steps::support(
        &names.step_histogram,
        &names.step_entry,
    ))
    .collect::<Vec<_>>()
    .join("\n")
        + "\n";
    Instrumented {
        names,
        files,
        support,
        counters: n,
        zero_step_flag,
        derived_exits,
    }
}
