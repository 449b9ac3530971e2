//! The order of the catalogue's experiments and groups is part of the results files and of
//! solving: results record experiments by name in this order, and groups are solved in it.
//! `fixtures/catalogue_order.txt` holds the order; a deliberate change regenerates it with
//! `OPCOST_BLESS=1 cargo test -p characterizer --test catalogue_order`.

use characterizer::experiments::catalogue;
use std::path::Path;

/// One line per experiment (`exp NAME`), then one per group
/// (`group UNKNOWNS <- EXPERIMENTS [- BASELINE]`), in catalogue order.
fn listing() -> String {
    let (exps, groups) = catalogue();
    let mut out = String::new();
    for e in &exps {
        out += &format!("exp {}\n", e.name);
    }
    for g in &groups {
        let unknowns: Vec<String> = g.unknowns.iter().map(|p| p.to_string()).collect();
        out += &format!(
            "group {} <- {}",
            unknowns.join(" "),
            g.experiments.join(" ")
        );
        if let Some(b) = &g.baseline {
            out += &format!(" - {b}");
        }
        out += "\n";
    }
    out
}

#[test]
fn experiments_and_groups_keep_their_order() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/catalogue_order.txt");
    let now = listing();
    if std::env::var("OPCOST_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &now).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        now == expected,
        "the catalogue's order changed (OPCOST_BLESS=1 rewrites {}):\n{}",
        path.display(),
        now
    );
}
