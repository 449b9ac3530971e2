//! Rule 23: the character positions INDEX scans, counted by the counting run.
//!
//! libgfortran's INDEX tries each start position of its string in turn until the substring
//! matches there, so its time is its positions, which only the data decide. The counted copy
//! adds, before a statement that references INDEX, the positions each reference will scan
//! (a function of the copy's: the same INDEX, then the match's position, or every position
//! when there is none) to one counter slot per statement.
//!
//! Rule 23b: a second counter slot per statement adds the first-character compares the
//! references mispredict: of the positions a reference tries, those starting with the
//! substring's first character and those not, the fewer ([`miss_function`]).
//!
//! Watched: assignments, block IFs and logical IFs (condition and consequent apart) whose
//! INDEX references all take two arguments and that call no function of the program (the
//! copy evaluates the arguments twice). Any other statement keeps its scans uncharacterized.

use crate::analysis::Program;
use crate::instrument::parenthesized;
use crate::syntax::Stmt;

/// Byte offsets (in the squeezed text) of the opening parentheses of references to any of
/// `names` in `text`, outside character constants and not part of a longer name.
pub(crate) fn references_to(text: &str, names: &[&str]) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut quote = None::<u8>;
    let mut k = 0;
    while k < bytes.len() {
        let b = bytes[k];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None => {
                let starts_name =
                    k == 0 || !(bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_');
                let named = names
                    .iter()
                    .find(|n| text[k..].starts_with(**n) && text[k + n.len()..].starts_with('('));
                if let (true, Some(n)) = (starts_name, named) {
                    found.push(k + n.len());
                    k += n.len() + 1;
                    continue;
                }
            }
        }
        k += 1;
    }
    found
}

/// The opening parentheses of `INDEX(` references in `text` (see [`references_to`]).
fn index_references(text: &str) -> Vec<usize> {
    references_to(text, &["INDEX"])
}

/// Top-level comma-separated items of an argument list.
pub(crate) fn split_arguments(list: &str) -> Vec<&str> {
    let (mut depth, mut quote, mut start) = (0i32, None::<u8>, 0);
    let mut items = Vec::new();
    for (k, &b) in list.as_bytes().iter().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(') => depth += 1,
            (None, b')') => depth -= 1,
            (None, b',') if depth == 0 => {
                items.push(&list[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items
}

/// The (string, substring) argument texts of the INDEX references in `text`; None when a
/// reference is not the two-argument form.
fn arguments(text: &str) -> Option<Vec<(&str, &str)>> {
    index_references(text)
        .into_iter()
        .map(|open| {
            let (list, _) = parenthesized(text, open)?;
            match split_arguments(list).as_slice() {
                [string, substring] => Some((*string, *substring)),
                _ => None,
            }
        })
        .collect()
}

/// The statements that add the positions the INDEX references with arguments `references`
/// scan to `counter`, with function `scan`.
pub fn additions(references: &[(&str, &str)], counter: &str, scan: &str) -> Vec<String> {
    references
        .iter()
        .map(|(string, substring)| format!("{counter}={counter}+{scan}({string},{substring})"))
        .collect()
}

/// The library references of a statement the counted copy watches: those evaluated before
/// the statement runs, and those in its consequent (a logical IF's).
#[derive(Debug, Clone, PartialEq)]
pub struct Watch<T> {
    pub before: Vec<T>,
    pub consequent: Vec<T>,
}

/// The INDEX references of a watched statement, as (string, substring) argument texts.
pub type ScanWatch<'a> = Watch<(&'a str, &'a str)>;

/// The watch of statement `s` over the references `arguments` reads from a text, of which
/// the counting rules counted `counted`; None when they cannot all be watched: a reference
/// the rules did not count as the intrinsic (an array or function of the program by that
/// name), a function of the program in the statement (the copy evaluates the arguments
/// twice), or a statement other than an assignment, block IF, logical IF or ELSE IF that the
/// counted copy can split.
pub(crate) fn watch<'a, T>(
    prog: &'a Program,
    s: usize,
    counted: u64,
    arguments: impl Fn(&'a str) -> Option<Vec<T>>,
) -> Option<Watch<T>> {
    let st = &prog.stmts[s];
    let text = prog.statement(s).text.as_str();
    let all = arguments(text)?;
    let references = all.len() as u64;
    if references == 0 || references != counted || st.static_counts.get(model::Param::PROC) > 0 {
        return None;
    }
    match st.stmt.as_ref()? {
        Stmt::Assignment(..) | Stmt::BlockIf(_) => Some(Watch {
            before: all,
            consequent: Vec::new(),
        }),
        Stmt::LogicalIf(_, _, at) => Some(Watch {
            before: arguments(&text[..*at])?,
            consequent: arguments(&text[*at..])?,
        }),
        // Counted after the ELSE the counted copy splits off it (rule 15's split).
        Stmt::ElseIf(_) if crate::instrument::else_if_end(prog, s).is_some() => Some(Watch {
            before: all,
            consequent: Vec::new(),
        }),
        _ => None,
    }
}

/// The watch of statement `s`'s INDEX references; None when they cannot all be watched (see
/// the module comment).
pub fn scan_watch(prog: &Program, s: usize) -> Option<ScanWatch<'_>> {
    let counted = prog.stmts[s]
        .static_counts
        .uncharacterized
        .get(model::rules::INDEX_SCAN)
        .copied()
        .unwrap_or(0);
    watch(prog, s, counted, arguments)
}

/// Statements whose INDEX scans the counted copy counts, with their counter slots from
/// `base` on, one each.
pub fn scan_slots(prog: &Program, base: usize) -> Vec<(usize, usize)> {
    watched_slots(prog, base, |s| scan_watch(prog, s).is_some())
}

/// The statements `watched` picks, with counter slots from `base` on, one each.
pub(crate) fn watched_slots(
    prog: &Program,
    base: usize,
    watched: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    (0..prog.stmts.len())
        .filter(|&s| watched(s))
        .enumerate()
        .map(|(j, s)| (s, base + j))
        .collect()
}

/// The counted copy's function giving the positions `INDEX(A, B)` scans: the match's
/// position, or every start position when there is none.
pub fn scan_function(name: &str) -> Vec<String> {
    integer8_function(
        name,
        "A, B",
        &[
            "CHARACTER*(*) A, B".into(),
            "INTEGER J".into(),
            "J = INDEX(A, B)".into(),
            "IF (J .GT. 0) THEN".into(),
            format!("   {name} = J"),
            "ELSE".into(),
            format!("   {name} = MAX(LEN(A) - LEN(B) + 1, 0)"),
            "END IF".into(),
        ],
    )
}

/// The counted copy's function giving the first-character compares `INDEX(A, B)`
/// mispredicts (rule 23b, `model::rules::index_misses`): of the positions it tries (those
/// the copy's [`scan_function`] named `scan` gives), k start with B's first character; the
/// predictor misses the minority, min(k, n - k).
pub fn miss_function(name: &str, scan: &str) -> Vec<String> {
    integer8_function(
        name,
        "A, B",
        &[
            "CHARACTER*(*) A, B".into(),
            format!("INTEGER*8 {scan}, I, K, N"),
            format!("{name} = 0"),
            "IF (LEN(B) .EQ. 0) RETURN".into(),
            format!("N = {scan}(A, B)"),
            "K = 0".into(),
            "DO I = 1, N".into(),
            "   IF (A(I:I) .EQ. B(1:1)) K = K + 1".into(),
            "END DO".into(),
            format!("{name} = MIN(K, N - K)"),
        ],
    )
}

/// The fixed-form lines of a support function of the counted copy: `INTEGER*8 FUNCTION
/// name(arguments)`, `body`, `END`.
pub(crate) fn integer8_function(name: &str, arguments: &str, body: &[String]) -> Vec<String> {
    std::iter::once(format!("INTEGER*8 FUNCTION {name}({arguments})"))
        .chain(body.iter().cloned())
        .chain(std::iter::once("END".to_string()))
        .map(|l| crate::instrument::fixed_line(None, &l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_found_outside_constants_and_longer_names() {
        let text = "J=INDEX(S(1:N),'INDEX(')+MYINDEX(3)+INDEX(T,U)";
        let refs = index_references(text);
        assert_eq!(refs.len(), 2);
        assert_eq!(&text[refs[0]..refs[0] + 2], "(S");
        assert_eq!(
            additions(&arguments(text).unwrap(), "OPCNT(4)", "OPCIX"),
            vec![
                "OPCNT(4)=OPCNT(4)+OPCIX(S(1:N),'INDEX(')".to_string(),
                "OPCNT(4)=OPCNT(4)+OPCIX(T,U)".to_string()
            ]
        );
    }

    #[test]
    fn the_backward_form_is_not_watched() {
        assert_eq!(arguments("J=INDEX(S,'A',.TRUE.)"), None);
        assert_eq!(split_arguments("A(1,2),'x,y'"), vec!["A(1,2)", "'x,y'"]);
    }
}
