//! The grader's knowledge of student bugs: the textbook search with
//! switches (`textbook.rs`), each common bug one switch turned (`bug.rs`),
//! crossed with the conventions a correct program may follow without
//! changing its answer (`convention.rs`), and the restrictions a
//! diagnosis tries when a bug shows in one mode or at one depth parity
//! only (`restriction.rs`). A bug is named by reproducing a program's
//! `output.txt`, never by guessing from values. `case.rs` runs the models
//! on one case, `alike.rs` says which never answer differently,
//! `cost.rs` estimates what a textbook search costs.

mod alike;
mod bug;
mod case;
mod convention;
mod cost;
mod restriction;
mod textbook;

pub(crate) use alike::{alike, shows_only, Suspected};
pub use bug::Bug;
pub(crate) use case::{CaseModels, MODEL_NODES};
pub use convention::Convention;
pub use cost::{textbook_nodes, textbook_seconds};
pub use restriction::Restriction;
