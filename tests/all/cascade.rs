//! The typed P4 cascade pairs agree with the description's table, and the
//! split-counter read is consistent.

use perfregs::hal::cascade::CASCADE_PAIRS;
use perfregs::hal::meta::Cell;
use perfregs::hal::p4;

#[test]
fn typed_pairs_match_the_description_table() {
    let table = p4::PROJECT
        .table("cascade_pairs")
        .expect("cascade_pairs in regdefs/p4.yaml");
    assert_eq!(table.columns, ["target", "source"]);
    let mut from_yaml: Vec<(usize, usize)> = table
        .rows
        .iter()
        .map(|row| match row {
            [Cell::Int(t), Cell::Int(s)] => (*t as usize, *s as usize),
            other => panic!("unexpected row {other:?}"),
        })
        .collect();
    let mut typed = CASCADE_PAIRS.to_vec();
    from_yaml.sort_unstable();
    typed.sort_unstable();
    assert_eq!(typed, from_yaml);
    // The SDM's restrictions: 16 and 17 only from 14 and 15, never a source.
    assert!(typed.iter().all(|&(_, s)| s < 16));
    assert!(!typed.contains(&(16, 12)) && !typed.contains(&(17, 13)) && !typed.contains(&(14, 16)));
}
