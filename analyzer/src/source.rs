//! Fixed-form Fortran 77 source: physical lines to statements (ANSI X3.9-1978 section 3.2).
//! Labels in columns 1-5, continuation in column 6, comment lines (C, c, *, !, D and blank),
//! text past the line length ignored. Each statement's text is *squeezed*: blanks removed and
//! letters upper-cased outside character constants, since blanks carry no meaning in fixed
//! form (`GO TO` = `GOTO`). A map from every squeezed character back to its line and column
//! keeps error messages and the instrumentation exact.
//!
//! TAB-form lines (DEC: a TAB in columns 1-6 ends the label field) are put in standard columns
//! as they are read ([`untab`]), so every column here, and every line of the instrumented
//! copy, is a fixed-form column as gfortran counts it.

/// A `C$OPCOST REGION name` / `C$OPCOST END REGION` directive (Saavedra-Barrera's section 5.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    Region(String),
    EndRegion,
}

/// One statement of a source file.
#[derive(Debug, Clone)]
pub struct Statement {
    /// Index of the file in the analysis.
    pub file: usize,
    pub label: Option<u32>,
    /// Squeezed text (see the module comment).
    pub text: String,
    /// For each byte of `text`: (0-based line index, 1-based column).
    pub origin: Vec<(u32, u16)>,
    /// 0-based indices of the physical lines (initial line, then continuations).
    pub lines: Vec<u32>,
    /// Regions open at this statement, outermost first.
    pub regions: Vec<String>,
}

impl Statement {
    pub fn first_line(&self) -> u32 {
        self.lines[0]
    }
    /// (1-based line, column) of byte `pos` of the squeezed text.
    pub fn position(&self, pos: usize) -> (u32, u16) {
        match self.origin.get(pos).or(self.origin.last()) {
            Some(&(l, c)) => (l + 1, c),
            None => (self.first_line() + 1, 7),
        }
    }
}

/// A source file split into statements.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: String,
    /// Physical lines, as read.
    pub lines: Vec<String>,
    pub statements: Vec<Statement>,
    /// Problems with directives (unbalanced END REGION), as (line, message).
    pub directive_problems: Vec<(u32, String)>,
}

fn directive_of(line: &str) -> Option<Directive> {
    let b = line.as_bytes();
    if b.len() < 8 || !matches!(b[0], b'C' | b'c' | b'*' | b'!') || b[1] != b'$' {
        return None;
    }
    let rest = line.get(2..)?;
    if !rest.get(..6)?.eq_ignore_ascii_case("OPCOST") {
        return None;
    }
    let words: Vec<&str> = rest.get(6..)?.split_whitespace().collect();
    match words.as_slice() {
        [r, name, ..] if r.eq_ignore_ascii_case("REGION") => {
            Some(Directive::Region(name.to_string()))
        }
        [e, r, ..] if e.eq_ignore_ascii_case("END") && r.eq_ignore_ascii_case("REGION") => {
            Some(Directive::EndRegion)
        }
        [e] if e.eq_ignore_ascii_case("ENDREGION") => Some(Directive::EndRegion),
        _ => None,
    }
}

/// The fixed-form layout of one non-comment line: label field, continuation flag, and the
/// byte range of the statement field.
pub struct Layout {
    pub label: Option<u32>,
    pub label_text: bool,
    pub continuation: bool,
    /// Byte offset where the statement field starts.
    pub body_start: usize,
}

/// Is this physical line a comment (or blank)?
pub fn is_comment(line: &str) -> bool {
    let b = line.as_bytes();
    match b.first() {
        None => true,
        // `#` lines are C preprocessor directives (in .F files): not Fortran.
        Some(b'C' | b'c' | b'*' | b'!' | b'D' | b'd' | b'#') => true,
        _ => {
            // Blank line, or `!` as the first non-blank character outside column 6.
            match line.char_indices().find(|(_, c)| !c.is_whitespace()) {
                None => true,
                Some((i, '!')) => i != 5,
                _ => false,
            }
        }
    }
}

/// Split a non-comment line into its fields (tab format: a tab in columns 1-6 ends the label
/// field; a digit 1-9 right after it marks a continuation, as gfortran reads it).
pub fn layout(line: &str) -> Layout {
    let b = line.as_bytes();
    if let Some(tab) = b.iter().take(6).position(|&c| c == b'\t') {
        let label_field = &line[..tab];
        let cont = matches!(b.get(tab + 1), Some(b'1'..=b'9'));
        let (label, label_text) = parse_label(label_field);
        let start = if cont { tab + 2 } else { tab + 1 };
        return Layout {
            label,
            label_text,
            continuation: cont,
            body_start: start.min(line.len()),
        };
    }
    let label_field = line.get(..5.min(line.len())).unwrap_or("");
    let (label, label_text) = parse_label(label_field);
    let cont = matches!(b.get(5), Some(c) if *c != b' ' && *c != b'0');
    Layout {
        label,
        label_text,
        continuation: cont,
        body_start: 6.min(line.len()),
    }
}

/// A TAB-form line in standard columns: its label field padded to columns 1-5, the
/// continuation digit (if any) in column 6, the statement field from column 7, as gfortran
/// reads it (a TAB further right is one blank, as gfortran also counts it). `None` for lines
/// already in standard columns and for comment lines.
pub fn untab(line: &str) -> Option<String> {
    let tab = line.bytes().take(6).position(|c| c == b'\t')?;
    if is_comment(line) {
        return None;
    }
    let lay = layout(line);
    let label = &line[..tab];
    let mark = if lay.continuation {
        &line[tab + 1..tab + 2]
    } else {
        " "
    };
    Some(format!("{label:<5}{mark}{}", &line[lay.body_start..]))
}

fn parse_label(field: &str) -> (Option<u32>, bool) {
    let digits: String = field.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.is_empty() {
        return (None, false);
    }
    (digits.parse::<u32>().ok().filter(|&l| l > 0), true)
}

/// Incremental squeezer: removes blanks and upper-cases outside character constants,
/// across continuation lines.
struct Squeezer {
    text: String,
    origin: Vec<(u32, u16)>,
    quote: Option<u8>,
}

impl Squeezer {
    fn new() -> Self {
        Squeezer {
            text: String::new(),
            origin: Vec::new(),
            quote: None,
        }
    }

    /// `start` is the byte offset of `field` in its line; columns are byte offsets + 1, which
    /// are the visual columns on lines without tabs or non-ASCII text.
    fn push_field(&mut self, field: &str, line: u32, start: usize) {
        for (k, ch) in field.char_indices() {
            let col = (start + k + 1).min(u16::MAX as usize) as u16;
            let c = if ch.is_ascii() { ch } else { '?' };
            match self.quote {
                Some(q) => {
                    self.text.push(c);
                    self.origin.push((line, col));
                    if c as u32 == q as u32 {
                        self.quote = None;
                    }
                }
                None => match c {
                    ' ' | '\t' | '\r' => {}
                    '!' => break,
                    '\'' | '"' => {
                        self.quote = Some(c as u8);
                        self.text.push(c);
                        self.origin.push((line, col));
                    }
                    _ => {
                        self.text.push(c.to_ascii_uppercase());
                        self.origin.push((line, col));
                    }
                },
            }
        }
    }
}

/// The first line (1-based, with its text) that fixed form cannot hold: a non-comment line
/// with something other than digits and blanks in columns 1-5 (a TAB there ends the label
/// field), as free-form source has (`program p`, `  x = 1`). `None` for fixed-form text.
pub fn free_form_line(text: &str) -> Option<(u32, String)> {
    for (i, line) in text.lines().enumerate() {
        if is_comment(line) {
            continue;
        }
        let field = line.split('\t').next().unwrap_or("");
        let field: String = field.chars().take(5).collect();
        if field
            .chars()
            .any(|c| !c.is_ascii_digit() && !c.is_whitespace())
        {
            return Some((i as u32 + 1, line.to_string()));
        }
    }
    None
}

/// Read fixed-form text into statements. `line_length` is 72 (standard) or longer.
pub fn split(path: &str, file: usize, text: &str, line_length: usize) -> SourceFile {
    let lines: Vec<String> = text
        .lines()
        .map(|l| untab(l).unwrap_or_else(|| l.to_string()))
        .collect();
    let mut statements = Vec::new();
    let mut regions: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let mut cur: Option<(Statement, Squeezer)> = None;

    let flush = |cur: &mut Option<(Statement, Squeezer)>, out: &mut Vec<Statement>| {
        if let Some((mut st, sq)) = cur.take() {
            st.text = sq.text;
            st.origin = sq.origin;
            if !st.text.is_empty() || st.label.is_some() {
                out.push(st);
            }
        }
    };

    for (i, line) in lines.iter().enumerate() {
        let i = i as u32;
        if is_comment(line) {
            if let Some(d) = directive_of(line) {
                match d {
                    Directive::Region(name) => regions.push(name),
                    Directive::EndRegion => {
                        if regions.pop().is_none() {
                            problems.push((i + 1, "END REGION without an open REGION".to_string()));
                        }
                    }
                }
            }
            continue;
        }
        let lay = layout(line);
        // Cut at the line length (a tab in the label field counts as reaching column 7).
        let body = line.get(lay.body_start..).unwrap_or("");
        let max_chars = line_length.saturating_sub(6);
        let cut = body
            .char_indices()
            .nth(max_chars)
            .map(|(k, _)| k)
            .unwrap_or(body.len());
        let field = &body[..cut];
        if lay.continuation && cur.is_some() {
            if let Some((st, sq)) = cur.as_mut() {
                st.lines.push(i);
                sq.push_field(field, i, lay.body_start);
            }
            continue;
        }
        flush(&mut cur, &mut statements);
        let mut sq = Squeezer::new();
        sq.push_field(field, i, lay.body_start);
        cur = Some((
            Statement {
                file,
                label: lay.label,
                text: String::new(),
                origin: Vec::new(),
                lines: vec![i],
                regions: regions.clone(),
            },
            sq,
        ));
    }
    flush(&mut cur, &mut statements);
    for r in regions {
        problems.push((lines.len() as u32, format!("REGION {r} is never closed")));
    }
    SourceFile {
        path: path.to_string(),
        lines,
        statements,
        directive_problems: problems,
    }
}

/// A copy of fixed-form `text` with the integer values of named constants replaced where a
/// PARAMETER statement sets them (`NAME = digits`): the samples' repeat counts made small for
/// quick runs (tests, instruction counts under valgrind) without editing the originals.
pub fn set_parameters(text: &str, values: &[(&str, &str)]) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if is_comment(l) || !l.contains("PARAMETER") {
                return l.to_string();
            }
            let mut out = l.to_string();
            for (name, value) in values {
                let Some(at) = out.find(&format!("{name} = ")) else {
                    continue;
                };
                let start = at + name.len() + 3;
                let end = out[start..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(out.len(), |k| start + k);
                if end > start {
                    out.replace_range(start..end, value);
                }
            }
            out
        })
        .collect();
    lines.join("\n") + "\n"
}

/// The samples' repeat constants at the values of quick runs.
pub const QUICK_REPEATS: [(&str, &str); 3] = [("NREP", "3"), ("MULT", "1"), ("NWORK", "20000")];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_labels_and_comments() {
        let src = "C comment\n   10 X = A +\n     &  B * 2\n*   another\n      GO TO 10\n";
        let f = split("t.f", 0, src, 72);
        assert_eq!(f.statements.len(), 2);
        assert_eq!(f.statements[0].label, Some(10));
        assert_eq!(f.statements[0].text, "X=A+B*2");
        assert_eq!(f.statements[0].lines, vec![1, 2]);
        assert_eq!(f.statements[1].text, "GOTO10");
        assert_eq!(f.statements[0].position(4), (3, 9));
    }

    #[test]
    fn strings_keep_case_and_blanks_and_columns_past_72_are_ignored() {
        let long = format!("      X = 'a b'{}SEQUENCE", " ".repeat(57));
        let f = split("t.f", 0, &long, 72);
        assert_eq!(f.statements[0].text, "X='a b'");
    }

    #[test]
    fn region_directives_nest() {
        let src = "C$OPCOST REGION outer\n      X = 1\nC$OPCOST REGION inner\n      Y = 1\nC$OPCOST END REGION\nC$OPCOST END REGION\n      Z = 1\n";
        let f = split("t.f", 0, src, 72);
        assert_eq!(f.statements[0].regions, vec!["outer"]);
        assert_eq!(f.statements[1].regions, vec!["outer", "inner"]);
        assert!(f.statements[2].regions.is_empty());
        assert!(f.directive_problems.is_empty());
    }

    #[test]
    fn tab_format_lines() {
        let src = "10\tX = 1 +\n\t1 2\n";
        let f = split("t.f", 0, src, 72);
        assert_eq!(f.statements[0].label, Some(10));
        assert_eq!(f.statements[0].text, "X=1+2");
        // Read in standard columns: `X` in column 7, the continuation mark in column 6.
        assert_eq!(f.lines, vec!["10    X = 1 +", "     1 2"]);
        assert_eq!(f.statements[0].position(0), (1, 7));
    }

    #[test]
    fn untab_keeps_inner_tabs_comments_and_fixed_lines() {
        assert_eq!(
            untab("\tIF (J.GT.2)\tGO TO 53").unwrap(),
            "      IF (J.GT.2)\tGO TO 53"
        );
        assert_eq!(untab("  100\tCONTINUE").unwrap(), "  100 CONTINUE");
        assert_eq!(untab("C\tcomment"), None);
        assert_eq!(untab("      X = 1"), None);
        assert_eq!(untab("\t"), None); // a blank line
    }
}
