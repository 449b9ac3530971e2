//! One table, three renderings: aligned text for people, CSV and Markdown for files.

/// How a column's cells line up in text and Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Rows of cells under named columns (names from [`crate::columns`] where one fits).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, Align)>,
    pub rows: Vec<Vec<String>>,
    /// Headings of the text rendering, each before the row of its index (a region of the
    /// characterization); CSV and Markdown have none.
    pub sections: Vec<(usize, String)>,
}

impl Table {
    /// A table with these columns: text columns left-aligned, the others right-aligned.
    pub fn new(columns: &[&str]) -> Self {
        Table {
            columns: columns
                .iter()
                .map(|c| (c.to_string(), Align::Left))
                .collect(),
            rows: Vec::new(),
            sections: Vec::new(),
        }
    }

    /// Right-align the columns from index `first` on (the numbers after the names).
    pub fn right_from(mut self, first: usize) -> Self {
        for (_, a) in self.columns.iter_mut().skip(first) {
            *a = Align::Right;
        }
        self
    }

    /// A heading line before the next row, in the text rendering only.
    pub fn section(&mut self, heading: impl Into<String>) {
        self.sections.push((self.rows.len(), heading.into()));
    }

    /// Right-align the named columns (numbers).
    pub fn right(mut self, names: &[&str]) -> Self {
        for (c, a) in &mut self.columns {
            if names.contains(&c.as_str()) {
                *a = Align::Right;
            }
        }
        self
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// RFC 4180 CSV with a header line.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(self.columns.iter().map(|(c, _)| c.as_str()))?;
        for r in &self.rows {
            w.write_record(r)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// A GitHub Markdown table (a `|` in a cell is escaped).
    pub fn to_markdown(&self) -> String {
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut s = line(self.columns.iter().map(|(c, _)| c.clone()).collect());
        s.push_str(&line(
            self.columns
                .iter()
                .map(|(_, a)| match a {
                    Align::Left => "---".to_string(),
                    Align::Right => "---:".to_string(),
                })
                .collect(),
        ));
        for r in &self.rows {
            s.push_str(&line(r.iter().map(|c| c.replace('|', "\\|")).collect()));
        }
        s
    }

    /// Aligned text for a terminal: two spaces between columns, the header underlined, the
    /// section headings on lines of their own.
    pub fn to_text(&self) -> String {
        let width = |i: usize| {
            std::iter::once(self.columns[i].0.chars().count())
                .chain(
                    self.rows
                        .iter()
                        .map(|r| r.get(i).map_or(0, |c| c.chars().count())),
                )
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.columns.len()).map(width).collect();
        let line = |cells: &mut dyn Iterator<Item = &String>| {
            let parts: Vec<String> = cells
                .zip(&self.columns)
                .zip(&widths)
                .map(|((c, (_, a)), w)| match a {
                    Align::Left => format!("{c:<w$}"),
                    Align::Right => format!("{c:>w$}"),
                })
                .collect();
            parts.join("  ").trim_end().to_string() + "\n"
        };
        let mut s = line(&mut self.columns.iter().map(|(c, _)| c));
        let rules: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        s.push_str(&line(&mut rules.iter()));
        for (i, r) in self.rows.iter().enumerate() {
            for (_, h) in self.sections.iter().filter(|(at, _)| *at == i) {
                s.push_str(h);
                s.push('\n');
            }
            s.push_str(&line(&mut r.iter()));
        }
        s
    }
}

/// The text rendering ([`Table::to_text`]).
impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_renders_as_csv_markdown_and_text() {
        let mut t = Table::new(&["mnemonic", "description", "time_s"]).right(&["time_s"]);
        t.push(vec!["ARSL".into(), "a, b | c".into(), "1.5".into()]);
        assert_eq!(
            t.to_csv().unwrap(),
            "mnemonic,description,time_s\nARSL,\"a, b | c\",1.5\n"
        );
        let md = t.to_markdown();
        assert!(md.contains("| --- | --- | ---: |"), "{md}");
        assert!(md.contains("a, b \\| c"), "{md}");
        assert!(t.to_text().starts_with("mnemonic  description  time_s\n"));
    }

    #[test]
    fn text_underlines_the_header_and_shows_sections() {
        let mut t = Table::new(&["a", "number"]).right_from(1);
        t.section("Region 1");
        t.push(vec!["x".into(), "1.5".into()]);
        t.push(vec!["long".into(), "22".into()]);
        assert_eq!(
            t.to_text(),
            "a     number\n----  ------\nRegion 1\nx        1.5\nlong      22\n"
        );
        assert_eq!(t.to_csv().unwrap(), "a,number\nx,1.5\nlong,22\n");
    }
}
