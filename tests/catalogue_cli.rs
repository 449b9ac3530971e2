//! `opcost catalogue`: the glossary names every parameter of the catalogue, and
//! docs/glossary.md is the glossary as the command writes it.

mod common;

use model::catalogue::Param;
use serde_json::Value;

fn stdout_of(args: &[&str]) -> String {
    let out = common::opcost_cmd()
        .unwrap()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_table_lists_every_mnemonic_with_its_number() {
    let text = stdout_of(&["catalogue"]);
    for p in Param::ALL {
        let d = p.def();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(d.mnemonic))
            .unwrap_or_else(|| panic!("{} missing from the table", d.mnemonic));
        assert_eq!(line.split_whitespace().next(), Some(&*d.number.to_string()));
    }
}

#[test]
fn json_on_standard_output_is_the_glossary_alone() {
    let v: Value = serde_json::from_str(&stdout_of(&["catalogue", "--json", "-"])).unwrap();
    let entries = v.as_array().unwrap();
    assert_eq!(entries.len(), Param::ALL.len());
    for p in Param::ALL {
        let e = entries
            .iter()
            .find(|e| e["mnemonic"] == p.mnemonic())
            .unwrap_or_else(|| panic!("{} missing from the JSON", p.mnemonic()));
        assert_eq!(e["number"], p.def().number);
        assert!(e["description"].as_str().is_some_and(|d| !d.is_empty()));
        // A time per operation, but WIND: a count of instructions (rule 19).
        let unit = e["unit"].as_str().unwrap_or_default();
        assert!(unit.starts_with("ns per") || *p == Param::WIND, "{unit}");
    }
}

#[test]
fn docs_glossary_is_the_catalogue_as_the_command_writes_it() {
    let generated = stdout_of(&["catalogue", "--markdown", "-"]);
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/glossary.md"),
    )
    .unwrap();
    for p in Param::ALL {
        assert!(
            committed.contains(&format!("| {} |", p.mnemonic())),
            "docs/glossary.md lacks {}",
            p.mnemonic()
        );
    }
    assert!(
        committed == generated,
        "docs/glossary.md differs from the catalogue: run `opcost catalogue --markdown docs/glossary.md`"
    );
}
