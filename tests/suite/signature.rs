//! The bench signature: the single-threaded node count of the fixed
//! position set must equal the number recorded in `profiles/signature.txt`.
//! A change that alters search behaviour changes it; record the new number
//! in the same commit, with the reason.

use stakeraid::bench::signature;

#[test]
fn bench_signature_matches_the_recorded_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/profiles/signature.txt");
    let recorded: u64 = std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let (nodes, _, runs) = signature();
    let detail: Vec<String> = runs
        .iter()
        .map(|(w, r)| format!("{} {} {}", w.name, r.nodes, r.best))
        .collect();
    assert_eq!(nodes, recorded, "signature changed:\n{}", detail.join("\n"));
}
