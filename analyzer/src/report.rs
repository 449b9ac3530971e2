//! Reports: the static statistics of Saavedra-Barrera's figure 5.2 (mnemonic, operation, occurrences,
//! fraction) and the dynamic statistics of table 5.5 (sorted by count, with fraction and
//! cumulative fraction), for the whole program and each region, plus the operations outside
//! the catalogue, by kind.

use export::Table;
use model::program_stats::PartStats;
use model::{OpCounts, Param, ProgramStats};

/// Figure 5.2: every parameter that occurs, in catalogue order.
pub fn static_table(c: &OpCounts) -> Table {
    let total = c.total_characterized().max(1) as f64;
    let mut t = Table::new(&["mnemonic", "operation", "occurrences", "fraction"]).right_from(2);
    for (p, n) in &c.params {
        t.push(vec![
            p.mnemonic().to_string(),
            p.def().description(),
            n.to_string(),
            format!("{:.4}", *n as f64 / total),
        ]);
    }
    t.push(vec![
        String::new(),
        "total".into(),
        c.total_characterized().to_string(),
        "1.0000".into(),
    ]);
    t
}

/// Table 5.5: parameters sorted by count, with fraction and cumulative fraction.
pub fn dynamic_table(c: &OpCounts) -> Table {
    let total = c.total_characterized().max(1) as f64;
    let mut rows: Vec<(Param, u64)> = c.params.iter().map(|(&p, &n)| (p, n)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut t =
        Table::new(&["mnemonic", "operation", "count", "fraction", "cumulative"]).right_from(2);
    let mut cum = 0.0;
    for (p, n) in rows {
        let f = n as f64 / total;
        cum += f;
        t.push(vec![
            p.mnemonic().to_string(),
            p.def().description(),
            n.to_string(),
            format!("{f:.4}"),
            format!("{cum:.4}"),
        ]);
    }
    t.push(vec![
        String::new(),
        "total".into(),
        c.total_characterized().to_string(),
        String::new(),
        String::new(),
    ]);
    t
}

/// Uncharacterized operations, by kind.
pub fn uncharacterized_table(c: &OpCounts) -> Option<Table> {
    if c.uncharacterized.is_empty() {
        return None;
    }
    let mut rows: Vec<(&String, &u64)> = c.uncharacterized.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut t = Table::new(&["uncharacterized operation", "count"]).right_from(1);
    for (k, n) in rows {
        t.push(vec![k.clone(), n.to_string()]);
    }
    Some(t)
}

fn part_text(out: &mut String, title: &str, p: &PartStats) {
    out.push_str(&format!(
        "\n== {title}: static statistics (Saavedra-Barrera's fig. 5.2)\n"
    ));
    out.push_str(&static_table(&p.static_counts).to_text());
    if let Some(t) = uncharacterized_table(&p.static_counts) {
        out.push_str("  outside the catalogue (static):\n");
        out.push_str(&t.to_text());
    }
    if let Some(d) = &p.dynamic_counts {
        out.push_str(&format!(
            "\n== {title}: dynamic statistics (Saavedra-Barrera's table 5.5)\n"
        ));
        out.push_str(&dynamic_table(d).to_text());
        if let Some(t) = uncharacterized_table(d) {
            out.push_str("  outside the catalogue (dynamic):\n");
            out.push_str(&t.to_text());
        }
    }
}

/// The whole text report: the program, then each region.
pub fn text_report(s: &ProgramStats) -> String {
    let mut out = format!(
        "program {} ({} file(s), {} unit(s), {} skipped statement(s))\n",
        s.program,
        s.source_files.len(),
        s.units.len(),
        s.skipped_statements
    );
    part_text(&mut out, &format!("program {}", s.program), &s.total);
    for r in &s.regions {
        part_text(&mut out, &format!("region {}", r.name), r);
    }
    out
}

/// The counts as a table: one row per part (program, unit, region) and operation, in the
/// CSV vocabulary of `export::columns` (an operation outside the catalogue has no mnemonic).
pub fn counts_table(s: &ProgramStats) -> Table {
    use export::columns::{DESCRIPTION, DYNAMIC_COUNT, MNEMONIC, PART, PART_KIND, STATIC_COUNT};
    let mut t = Table::new(&[
        PART_KIND,
        PART,
        MNEMONIC,
        DESCRIPTION,
        STATIC_COUNT,
        DYNAMIC_COUNT,
    ])
    .right(&[STATIC_COUNT, DYNAMIC_COUNT]);
    let parts = std::iter::once(("program", &s.total))
        .chain(s.units.iter().map(|u| ("unit", u)))
        .chain(s.regions.iter().map(|r| ("region", r)));
    for (kind, p) in parts {
        let dynm = p.dynamic_counts.as_ref();
        let mut keys: Vec<Param> = p.static_counts.params.keys().copied().collect();
        if let Some(d) = dynm {
            keys.extend(
                d.params
                    .keys()
                    .filter(|k| !p.static_counts.params.contains_key(k)),
            );
        }
        for param in keys {
            t.push(vec![
                kind.into(),
                p.name.clone(),
                param.mnemonic().to_string(),
                param.def().description(),
                p.static_counts.get(param).to_string(),
                dynm.map(|d| d.get(param).to_string()).unwrap_or_default(),
            ]);
        }
        for (k, n) in &p.static_counts.uncharacterized {
            let dv = dynm
                .map(|d| d.uncharacterized.get(k).copied().unwrap_or(0).to_string())
                .unwrap_or_default();
            t.push(vec![
                kind.into(),
                p.name.clone(),
                String::new(),
                format!("uncharacterized: {k}"),
                n.to_string(),
                dv,
            ]);
        }
    }
    t
}
