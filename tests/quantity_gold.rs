//! The extractor against the real gold sets in `../shared/data/quantities`: the goals on
//! NewsQuant dev, and the figures of every set printed (run with `--nocapture` to see them).

use std::path::PathBuf;

use tally_lab::quantity::eval::{evaluate, read_gold};

fn data_dir() -> PathBuf {
    std::env::var_os("TALLY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

#[test]
fn newsquant_dev_reaches_the_goals() {
    let path = data_dir().join("quantities/newsquant_dev.json");
    let gold = read_gold(&path).unwrap_or_else(|e| panic!("{e}"));
    let report = evaluate(&gold);
    let change = report
        .value_change
        .expect("NewsQuant has change annotations");
    println!(
        "newsquant_dev: {} sentences; F1 value {:.1}, value+unit {:.1}, value+change {:.1}",
        report.sentences, report.value.f1, report.value_unit.f1, change.f1
    );
    assert_eq!(report.sentences, 295);
    assert!(report.value.f1 >= 93.0, "value F1 {:?}", report.value);
    assert!(
        report.value_unit.f1 >= 87.0,
        "value+unit F1 {:?}",
        report.value_unit
    );
    assert!(change.f1 >= 89.0, "value+change F1 {change:?}");
}

#[test]
fn recognizers_sets_are_read_well() {
    for (name, value_floor) in [
        ("age", 90.0),
        ("currency", 80.0),
        ("dimension", 85.0),
        ("temperature", 90.0),
    ] {
        let path = data_dir().join(format!("quantities/recognizers_{name}-model.json"));
        let gold = read_gold(&path).unwrap_or_else(|e| panic!("{e}"));
        let report = evaluate(&gold);
        println!(
            "recognizers_{name}: {} sentences; F1 value {:.1}, value+unit {:.1}",
            report.sentences, report.value.f1, report.value_unit.f1
        );
        assert!(
            report.value_change.is_none(),
            "no change annotations in {name}"
        );
        assert!(report.value.f1 >= value_floor, "{name}: {:?}", report.value);
    }
}
