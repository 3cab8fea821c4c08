//! What the exact search's table does, by plies left: for each
//! `input.txt`, searched on one thread (a MINIMAX or ALPHABETA input to its
//! depth, any other to the end of the game), the nodes the search counted
//! there, how many looked themselves up in the table, found an entry, and
//! were ended by it; the children looked up before any is searched
//! (enhanced transposition cut-offs) and the nodes those ended; and the
//! results stored.
//!
//!   cargo run --release --features counters --example table_use -- INPUT...
//!
//! Without the `counters` feature the table is empty. The last plies of a
//! solve are written out and not counted as nodes (see `bound_cuts.rs`).

mod counted;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    counted::each_input(
        "table_use",
        &[
            "remaining",
            "nodes",
            "probes",
            "hits",
            "hit_cuts",
            "child_probes",
            "child_cuts",
            "stores",
        ],
        |d| {
            vec![
                u64::from(d.remaining),
                d.nodes,
                d.probes,
                d.hits,
                d.hit_cuts,
                d.child_probes,
                d.child_cuts,
                d.stores,
            ]
        },
    )
}
