//! Where the exact search's bounds without a move end nodes: for each
//! `input.txt`, searched on one thread (a MINIMAX or ALPHABETA input to its
//! depth, any other to the end of the game), by plies left: the nodes
//! the search counted there, the nodes a move's cut-off ended, and the
//! nodes a bound ended without a move (of those, by a child's settled
//! pieces), as `compact/bounds.rs` argues them.
//!
//!   cargo run --release --features counters --example bound_cuts -- INPUT...
//!
//! Without the `counters` feature the table is empty. The last plies of a
//! solve are written out and not counted as nodes, so with four plies left
//! in a solve only the bound's cut-offs show.

mod counted;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    counted::each_input(
        "bound_cuts",
        &["remaining", "nodes", "move_cuts", "bound_cuts"],
        |d| vec![u64::from(d.remaining), d.nodes, d.cuts, d.bound_cuts],
    )
}
